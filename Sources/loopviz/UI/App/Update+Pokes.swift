import LoopEngine

/// Turns an item key into an outside event right after the step shown, addressed to the loop shown, and
/// recomputes the trace (live: performs it now). The item keys act on the selected item only: when it is of
/// another kind, the status bar says so and nothing happens.
func poke(_ command: Command, _ model: inout AppModel) -> [Effect] {
    if model.session.isLive && [.addTimer, .addSource, .addObserver].contains(command) {
        model.flash = StatusMessage(
            "adding items needs the virtual clock", detail: "the real threads' items were made at the start")
        return []
    }
    guard let thread = model.loopThreadSpec else {
        model.flash = StatusMessage(
            "t picks a declared thread",
            detail: "thread \(model.loopThread) was started by the run: the file declares no loop items for it to poke")
        return []
    }
    let time: Duration = max(model.now, model.playClock) - LoopInstant.zero
    let items = thread.items
    let selectedIndex = model.selectedItem
    let selected = selectedIndex < items.count ? items[selectedIndex] : nil
    let counter = model.session.interventions.count + 1
    let currentMode =
        model.session.snapshots(after: model.cursor).first { $0.thread == thread.name }?.currentMode.map {
            ModeName($0)
        } ?? .default

    /// The selected item when it is of the kind the key wants; else why not, in the status bar.
    func item(_ wanted: (ItemSpec.Kind) -> Bool, _ what: String, _ key: String) -> ItemSpec? {
        guard let selected else {
            model.flash = "thread \(thread.name) has no item: \(key) needs a \(what)"
            return nil
        }
        if wanted(selected.kind) { return selected }
        // What to press comes first: at 80 columns the reason is the part cut.
        let others = items.indices.filter { wanted(items[$0].kind) }.map { "\($0 + 1)" }
        model.flash = StatusMessage(
            others.isEmpty
                ? "\(key) needs a \(what): thread \(thread.name) has none"
                : "\(key) needs a \(what): select \(others.joined(separator: ", ")) first",
            detail: "item \(selectedIndex + 1) \(selected.name) is \(kindName(selected.kind))")
        return nil
    }
    func isTimer(_ kind: ItemSpec.Kind) -> Bool { if case .timer = kind { true } else { false } }
    func isSource0(_ kind: ItemSpec.Kind) -> Bool { if case .source0 = kind { true } else { false } }
    func isPort(_ kind: ItemSpec.Kind) -> Bool { if case .port = kind { true } else { false } }

    var intervention: Session.Intervention?
    func make(_ label: String, _ actions: [Action], newItem: ItemSpec? = nil) {
        intervention = .init(
            time: time, afterEvent: model.cursor, thread: thread.name, label: label, actions: actions,
            newItem: newItem)
    }
    switch command {
    case .fireTimer:
        if let timer = item(isTimer, "timer", model.keys.word(for: command)) {
            make("fire \(timer.name)", [.setNextFireDate(timer.name, after: .zero)])
        }
    case .signalAndWake:
        if let source = item(isSource0, "version-0 source", model.keys.word(for: command)) {
            make("signal \(source.name) + wake up", [.signal(source.name), .wakeUp])
        }
    case .signalOnly:
        if let source = item(isSource0, "version-0 source", model.keys.word(for: command)) {
            make("signal \(source.name) (no wake-up)", [.signal(source.name)])
        }
    case .sendMessage:
        if let port = item(isPort, "port", model.keys.word(for: command)) {
            make("send to \(port.name)", [.send(port.name, count: 1)])
        }
    case .wakeUp: make("wake up", [.wakeUp])
    case .stop: make("stop", [.stop])
    case .performBlock:
        let name = "B\(counter)"
        make("perform block \(name) (blocks never wake the loop)", [.performBlock(name, modes: [.common], [])])
    case .scroll:
        let mode = trackingMode(model.session.effectiveScenario)
        make(
            "scroll: run \(mode) for 0.8 s",
            [
                .performBlock(
                    "scroll\(counter)", modes: [.common],
                    [.run(.inMode(mode, seconds: 0.8, returnAfterSourceHandled: false))]), .wakeUp,
            ])
    case .nestedRun:
        make(
            "nested run in \(currentMode) for 0.3 s",
            [
                .performBlock(
                    "nested\(counter)", modes: [.common],
                    [.run(.inMode(currentMode, seconds: 0.3, returnAfterSourceHandled: false))]), .wakeUp,
            ])
    case .addTimer:
        let name = "timer\(counter)"
        make(
            "add \(name) (every 500 ms) to \(currentMode)", [.add(name, currentMode)],
            newItem: .timer(name, first: time + .milliseconds(500), every: .milliseconds(500), modes: []))
    case .addSource:
        let name = "source\(counter)"
        make("add \(name) to \(currentMode)", [.add(name, currentMode)], newItem: .source0(name, modes: []))
    case .addObserver:
        let name = "observer\(counter)"
        make(
            "add \(name) (beforeWaiting, afterWaiting) to \(currentMode)", [.add(name, currentMode)],
            newItem: .observer(name, [.beforeWaiting, .afterWaiting], modes: []))
    case .removeItem:
        if let selected {
            make("invalidate \(selected.name)", [.invalidate(selected.name)])
        } else {
            model.flash = "thread \(thread.name) has no item to remove"
        }
    default:
        break
    }
    guard let intervention else { return [] }
    return apply(intervention, &model)
}

/// How the status bar names an item's kind.
/// The kind of item, with its article: `a timer`, `an observer`.
private func kindName(_ kind: ItemSpec.Kind) -> String {
    switch kind {
    case .source0: "a version-0 source"
    case .port: "a port"
    case .timer: "a timer"
    case .observer: "an observer"
    }
}

/// The mode a "scroll" runs: the first mode besides default that the scenario mentions, else `Tracking`.
func trackingMode(_ scenario: Scenario) -> ModeName {
    scenario.mentionedModes.first { $0 != .default } ?? "Tracking"
}

/// The user's poke: on the virtual clock an outside event right after the step shown, and the trace computed
/// again (the runtime runs the engine; the cursor stays, and the steps after it are the new trace's); live, the
/// actions performed now by the runtime. Either way the play state stays: paused stays paused (the poke's effect
/// is in the next steps).
private func apply(_ intervention: Session.Intervention, _ model: inout AppModel) -> [Effect] {
    let (forgotten, run) = model.session.intervene(intervention)
    let thread = intervention.thread ?? model.session.primaryThread.name
    guard let run else {
        model.flash = StatusMessage(intervention.label)
        return [.perform(intervention.actions, thread: thread)]
    }
    var said = intervention.label + " after step \(intervention.afterEvent)"
    if forgotten > 0 {
        said += "; \(forgotten) poke\(forgotten == 1 ? "" : "s") made after a later step forgotten"
    }
    model.flash = StatusMessage(said, detail: "t=\(LoopInstant.zero + intervention.time)s")
    model.furthest = model.cursor
    return [.runEngine(run)]
}

/// Turns a pool key into an outside event at the time shown, on the queue the pool view shows, and recomputes.
func pokePool(_ command: Command, _ model: inout AppModel) -> [Effect] {
    guard let shown = model.shownQueueState else {
        model.flash = "this scenario has no operation queue"
        return []
    }
    let time: Duration = max(model.now, model.playClock) - LoopInstant.zero
    // The queue as it is at that time, with every event of that instant (an earlier key pressed at the same
    // time included, even when the cursor has not reached its events yet).
    let instant = LoopInstant.zero + time
    let upTo = model.trace.firstIndex(after: instant)
    let queue = model.session.poolSnapshot(after: max(upTo, model.cursor)).queue(named: shown.name) ?? shown
    if model.session.script.scenario.queues.contains(where: { $0.name == queue.name && $0.dispatch != nil }),
        let refusal = dispatchQueueRefusal(command, queue, model)
    {
        model.flash = StatusMessage(refusal)
        return []
    }
    var intervention: Session.Intervention?
    switch command {
    case .addOperation:
        let name = freeOperationName(model)
        let spec = OperationSpec(
            name: name, priority: .normal, body: .work(.seconds(1), checkEvery: .milliseconds(100)))
        intervention = .init(
            time: time, afterEvent: model.cursor, label: "add \(name) to \(queue.name) (normal, work 1 s)",
            actions: [.addOperation(queue: queue.name, spec)])
        model.selectedOperation = name
    case .cancelOperation:
        guard let selected = model.selectedOperation, queue.operation(named: selected) != nil else {
            model.flash = "select an operation first (\(Glyphs(theme: model.theme).upDown) or j/k)"
            return []
        }
        intervention = .init(
            time: time, afterEvent: model.cursor, label: "cancel \(selected)", actions: [.cancelOperation(selected)])
    case .cancelAllOperations:
        intervention = .init(
            time: time, afterEvent: model.cursor, label: "cancel all operations of \(queue.name)",
            actions: [.cancelAll(queue: queue.name)])
    case .toggleSuspended:
        let flag = !queue.suspended
        intervention = .init(
            time: time, afterEvent: model.cursor, label: "\(flag ? "suspend" : "resume") \(queue.name)",
            actions: [.setSuspended(queue: queue.name, flag)])
    case .raiseLimit, .lowerLimit:
        let limit = max(0, queue.width + (command == .raiseLimit ? 1 : -1))
        guard limit != queue.limit else {
            model.flash = "the limit of \(queue.name) is already 0: nothing starts"
            return []
        }
        intervention = .init(
            time: time, afterEvent: model.cursor, label: "limit of \(queue.name) \(queue.limitText), now \(limit)",
            actions: [.setLimit(queue: queue.name, limit)])
    default:
        break
    }
    guard let intervention else { return [] }
    return apply(intervention, &model)
}

/// Why a pool key does nothing on a dispatch queue, or nil when it acts (cancelling a work item): a dispatch queue
/// takes no operations, has no suspend key, limit or cancelAll here (docs/pool.md), and a plain block cannot be
/// cancelled at all.
private func dispatchQueueRefusal(_ command: Command, _ queue: PoolSnapshot.Queue, _ model: AppModel) -> String? {
    switch command {
    case .cancelOperation:
        guard let selected = model.selectedOperation, let block = queue.operation(named: selected),
            block.submission == .block
        else { return nil }
        return "\(selected) was submitted with async: dispatch_async returns nothing to cancel it with, so it runs "
            + "(a DispatchWorkItem can be cancelled before it starts)"
    case .addOperation:
        return "\(queue.name) is a dispatch queue: `a` adds operations to operation queues only"
    case .cancelAllOperations:
        return "\(queue.name) is a dispatch queue: it has no cancelAllOperations"
    case .toggleSuspended:
        return "\(queue.name) is a dispatch queue: suspending one is not modelled"
    case .raiseLimit, .lowerLimit:
        return "\(queue.name) is a dispatch queue: serial or concurrent, it has no maxConcurrentOperationCount"
    default:
        return nil
    }
}

/// `opN` with the smallest N no operation of the session has.
private func freeOperationName(_ model: AppModel) -> String {
    var taken = Set(model.trace.filter { $0.kind == .opAdd }.compactMap(\.name))
    for intervention in model.session.interventions {
        for case .addOperation(_, let spec) in intervention.actions { taken.insert(spec.name) }
    }
    var number = 1
    while taken.contains("op\(number)") { number += 1 }
    return "op\(number)"
}
