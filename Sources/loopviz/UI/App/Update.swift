import LoopEngine

/// The UI's only state transition: pure, no I/O, testable without a terminal.
func update(_ model: inout AppModel, _ message: AppMessage) -> [Effect] {
    switch message {
    case .resize(let width, let height):
        model.width = width
        model.height = height
        return []
    case .resumed:
        return [.redrawAll]
    case .tick(let seconds):
        advancePlayback(&model, by: seconds)
        return []
    case .live(let events, let dropped, let ended, let halt):
        let following = !model.isPaused && model.cursor >= model.trace.count
        let forgotten = model.session.appendLive(events, dropped: dropped, ended: ended, halt: halt)
        if forgotten > 0 && model.cursor <= forgotten && !following {
            model.flash = "the step shown was among the \(forgotten) oldest events, now forgotten"
        }
        model.cursor = max(0, model.cursor - forgotten)
        model.furthest = max(0, model.furthest - forgotten)
        if following { move(&model, to: model.trace.count) }
        return []
    case .key(let key):
        return handle(key, &model)
    }
}

private func handle(_ key: Key, _ model: inout AppModel) -> [Effect] {
    // An open overlay takes the keys first.
    switch model.overlay {
    case .goTo(let typed):
        switch key {
        case .escape: model.overlay = .none
        case .enter:
            model.overlay = .none
            if let number = Int(typed) { move(&model, to: number) }
        case .backspace: model.overlay = .goTo(String(typed.dropLast()))
        case .character(let character) where character.isNumber && typed.count < 9:
            model.overlay = .goTo(typed + String(character))
        default: break
        }
        return []
    case .help:
        switch key {
        case .escape, .character("?"): model.overlay = .none
        case .character("q"): return quit(&model)
        // A help taller than the screen scrolls; render keeps the position within the lines.
        case .down, .character("j"): model.helpScroll += 1
        case .up, .character("k"): model.helpScroll = max(0, model.helpScroll - 1)
        case .pageDown, .character("l"), .character(" "): model.helpScroll += 10
        case .pageUp, .character("h"): model.helpScroll = max(0, model.helpScroll - 10)
        default: break
        }
        let glyphs = Glyphs(theme: model.theme)
        let layout = HelpLayout(helpLines(model.view, glyphs), width: model.width, height: model.height)
        model.helpScroll = layout.firstLine(model.helpScroll)
        return []
    case .none:
        break
    }
    if model.isTooSmall {
        return key == .character("q") ? quit(&model) : []
    }
    guard let command = KeyMap.command(for: key, in: model.view) else { return [] }
    model.flash = nil
    return perform(command, &model)
}

private func quit(_ model: inout AppModel) -> [Effect] {
    model.quitRequested = true
    return [.quit]
}

private func perform(_ command: Command, _ model: inout AppModel) -> [Effect] {
    switch command {
    case .togglePause: model.isPaused.toggle()
    case .stepForward:
        model.isPaused = true
        move(&model, to: nextShown(after: model.cursor, &model))
    case .stepBack:
        model.isPaused = true
        // Searches start at the cursor: a step at event 1,000,000 looks at a few events, not at all of them.
        let previous = (0..<max(0, model.cursor - 1)).last { model.isShown(model.trace[$0]) }
        move(&model, to: (previous ?? -1) + 1)
    case .nextIteration:
        model.isPaused = true
        let next = (model.cursor..<model.trace.count).first { model.trace[$0].kind == .beforeTimers }
        move(&model, to: (next ?? model.trace.count - 1) + 1)
    case .previousIteration:
        model.isPaused = true
        let previous = (0..<max(0, model.cursor - 1)).last { model.trace[$0].kind == .beforeTimers }
        move(&model, to: (previous ?? -1) + 1)
    case .faster: model.speedIndex = min(model.speedIndex + 1, AppModel.speeds.count - 1)
    case .slower: model.speedIndex = max(model.speedIndex - 1, 0)
    case .goTo: model.overlay = .goTo("")
    case .focusNext, .focusPrevious:
        let panels = AppModel.Panel.allCases
        let index = panels.firstIndex(of: model.focus) ?? 0
        let step = command == .focusNext ? 1 : panels.count - 1
        model.focus = panels[(index + step) % panels.count]
    case .scrollUp: model.logScroll += 1
    case .scrollDown: model.logScroll = max(0, model.logScroll - 1)
    case .pageUp: model.logScroll += 10
    case .pageDown: model.logScroll = max(0, model.logScroll - 10)
    case .toggleCycleView: model.cycleView = model.cycleView == .documented ? .implementation : .documented
    case .help:
        model.overlay = .help
        model.helpScroll = 0
    case .closeOverlay: model.overlay = .none
    case .quit: return quit(&model)
    case .selectItem(let index):
        if index < model.items.count {
            model.selectedItem = index
            model.flash = "selected \(model.items[index].name)"
        } else {
            model.flash = "no item \(index + 1)"
        }
    case .fireTimer, .signalAndWake, .signalOnly, .sendMessage, .wakeUp, .stop, .performBlock, .scroll, .nestedRun,
        .addTimer, .addSource, .addObserver, .removeItem:
        if model.session.isReplay { model.flash = Session.replayPokeMessage } else { return poke(command, &model) }
    case .togglePoolView:
        if model.session.hasQueues {
            model.view = model.view == .loop ? .pool : .loop
            model.logScroll = 0
        } else {
            model.flash = "this scenario has no operation queue"
        }
    case .nextQueue:
        let count = model.session.script.scenario.queues.count
        if count > 1 {
            model.shownQueue = (model.shownQueue + 1) % count
            model.selectedOperation = nil
        }
        model.flash = model.shownQueueState.map { "queue \($0.name)" }
    case .selectPreviousOperation, .selectNextOperation:
        selectOperation(by: command == .selectNextOperation ? 1 : -1, &model)
    case .addOperation, .cancelOperation, .cancelAllOperations, .toggleSuspended, .raiseLimit, .lowerLimit:
        if model.session.isReplay { model.flash = Session.replayPokeMessage } else { return pokePool(command, &model) }
    }
    return []
}

/// The cursor after the next event the view shows (the end of the trace if there is none; the session computes
/// further when it can).
private func nextShown(after cursor: Int, _ model: inout AppModel) -> Int {
    while true {
        if let next = (min(cursor, model.trace.count)..<model.trace.count).first(where: {
            model.isShown(model.trace[$0])
        }) {
            return next + 1
        }
        guard model.session.canExtend else { break }
        model.session.extend()
    }
    return model.view == .loop ? cursor + 1 : model.trace.count
}

/// Moves the operation selection up or down the queue panel's list (executing, then waiting by priority).
private func selectOperation(by step: Int, _ model: inout AppModel) {
    guard let queue = model.shownQueueState else { return }
    let names = queue.listed.map(\.name)
    guard !names.isEmpty else {
        model.flash = "queue \(queue.name) has no operation yet"
        return
    }
    if let selected = model.selectedOperation, let index = names.firstIndex(of: selected) {
        model.selectedOperation = names[min(max(0, index + step), names.count - 1)]
    } else {
        model.selectedOperation = step > 0 ? names.first : names.last
    }
}

/// Moves the cursor, computing further if the session can show more.
private func move(_ model: inout AppModel, to target: Int) {
    if target > model.trace.count && model.session.canExtend { model.session.extend() }
    model.cursor = min(max(0, target), model.trace.count)
    model.furthest = max(model.furthest, model.cursor)
    model.logScroll = 0
}

/// Advances playback by `seconds` of wall time.
private func advancePlayback(_ model: inout AppModel, by seconds: Double) {
    guard !model.isPaused, !model.isTooSmall, model.overlay == .none else { return }
    if model.session.isLive && !model.session.isReplay {
        // The real threads set the pace: playing shows everything they have done so far.
        if model.cursor < model.trace.count { move(&model, to: model.trace.count) }
        return
    }
    if model.cursor >= model.trace.count {
        if model.session.canExtend { model.session.extend() }
        if model.cursor >= model.trace.count { return }
    }
    if let rate = AppModel.speeds[model.speedIndex].stepsPerSecond {
        model.stepCredit += seconds * rate
        let steps = Int(model.stepCredit)
        model.stepCredit -= Double(steps)
        // A step is an event the view shows: the pool view plays the pool's events, not its workers' loops.
        var target = model.cursor
        for _ in 0..<steps { target = nextShown(after: target, &model) }
        if steps > 0 { move(&model, to: target) }
    } else {
        // Real time: show every event whose virtual time has come.
        model.playClock = max(model.playClock, model.now) + .secondsValue(seconds)
        var target = model.cursor
        while target < model.trace.count && model.trace[target].time <= model.playClock { target += 1 }
        if target > model.cursor { move(&model, to: target) }
    }
}

/// Turns an item key into an outside event at the time shown, and recomputes the trace (live: performs it now).
private func poke(_ command: Command, _ model: inout AppModel) -> [Effect] {
    if model.session.isLive && [.addTimer, .addSource, .addObserver].contains(command) {
        model.flash = "adding items needs the virtual clock (the real threads' items were made at the start)"
        return []
    }
    let time: Duration = max(model.now, model.playClock) - LoopInstant.zero
    let thread = model.session.primaryThread
    let selected = model.selectedItem < model.items.count ? model.items[model.selectedItem] : nil
    let counter = model.session.interventions.count + 1
    let currentMode = model.session.snapshots(after: model.cursor).first?.currentMode.map { ModeName($0) } ?? .default

    func item(_ wanted: (ItemSpec.Kind) -> Bool, _ what: String) -> ItemSpec? {
        if let selected, wanted(selected.kind) { return selected }
        if let first = thread.items.first(where: { wanted($0.kind) }) { return first }
        model.flash = "this thread has no \(what)"
        return nil
    }
    func isTimer(_ kind: ItemSpec.Kind) -> Bool { if case .timer = kind { true } else { false } }
    func isSource0(_ kind: ItemSpec.Kind) -> Bool { if case .source0 = kind { true } else { false } }
    func isPort(_ kind: ItemSpec.Kind) -> Bool { if case .port = kind { true } else { false } }

    var intervention: Session.Intervention?
    switch command {
    case .fireTimer:
        if let timer = item(isTimer, "timer") {
            intervention = .init(
                time: time, label: "fire \(timer.name)", actions: [.setNextFireDate(timer.name, after: .zero)])
        }
    case .signalAndWake:
        if let source = item(isSource0, "version-0 source") {
            intervention = .init(
                time: time, label: "signal \(source.name) + wake up", actions: [.signal(source.name), .wakeUp])
        }
    case .signalOnly:
        if let source = item(isSource0, "version-0 source") {
            intervention = .init(
                time: time, label: "signal \(source.name) (no wake-up)", actions: [.signal(source.name)])
        }
    case .sendMessage:
        if let port = item(isPort, "port") {
            intervention = .init(time: time, label: "send to \(port.name)", actions: [.send(port.name, count: 1)])
        }
    case .wakeUp: intervention = .init(time: time, label: "wake up", actions: [.wakeUp])
    case .stop: intervention = .init(time: time, label: "stop", actions: [.stop])
    case .performBlock:
        let name = "B\(counter)"
        intervention = .init(
            time: time, label: "perform block \(name) (blocks never wake the loop)",
            actions: [.performBlock(name, modes: [.common], [])])
    case .scroll:
        let mode = trackingMode(model.session.effectiveScenario)
        intervention = .init(
            time: time, label: "scroll: run \(mode) for 0.8 s",
            actions: [
                .performBlock(
                    "scroll\(counter)", modes: [.common],
                    [.run(.inMode(mode, seconds: 0.8, returnAfterSourceHandled: false))]), .wakeUp,
            ])
    case .nestedRun:
        intervention = .init(
            time: time, label: "nested run in \(currentMode) for 0.3 s",
            actions: [
                .performBlock(
                    "nested\(counter)", modes: [.common],
                    [.run(.inMode(currentMode, seconds: 0.3, returnAfterSourceHandled: false))]), .wakeUp,
            ])
    case .addTimer:
        let name = "timer\(counter)"
        intervention = .init(
            time: time, label: "add \(name) (every 500 ms) to \(currentMode)", actions: [.add(name, currentMode)],
            newItem: .timer(name, first: time + .milliseconds(500), every: .milliseconds(500), modes: []))
    case .addSource:
        let name = "source\(counter)"
        intervention = .init(
            time: time, label: "add \(name) to \(currentMode)", actions: [.add(name, currentMode)],
            newItem: .source0(name, modes: []))
    case .addObserver:
        let name = "observer\(counter)"
        intervention = .init(
            time: time, label: "add \(name) (beforeWaiting, afterWaiting) to \(currentMode)",
            actions: [.add(name, currentMode)],
            newItem: .observer(name, [.beforeWaiting, .afterWaiting], modes: []))
    case .removeItem:
        if let selected {
            intervention = .init(
                time: time, label: "invalidate \(selected.name)", actions: [.invalidate(selected.name)])
        } else {
            model.flash = "select an item first (1-9)"
        }
    default:
        break
    }
    guard let intervention else { return [] }
    return apply(intervention, &model)
}

/// The mode a "scroll" runs: the first mode besides default that the scenario mentions, else `Tracking`.
func trackingMode(_ scenario: Scenario) -> ModeName {
    scenario.mentionedModes.first { $0 != .default } ?? "Tracking"
}

/// The user's poke: on the virtual clock an outside event at the time shown, and the trace recomputed; live, the
/// actions performed now by the runtime.
private func apply(_ intervention: Session.Intervention, _ model: inout AppModel) -> [Effect] {
    model.session.intervene(intervention)
    model.isPaused = false
    if model.session.isLive {
        model.flash = intervention.label
        return [.perform(intervention.actions, thread: model.session.primaryThread.name)]
    }
    model.flash = intervention.label + " at \(LoopInstant.zero + intervention.time)"
    model.cursor = min(model.cursor, model.trace.count)
    model.furthest = model.cursor
    return []
}

/// Turns a pool key into an outside event at the time shown, on the queue the pool view shows, and recomputes.
private func pokePool(_ command: Command, _ model: inout AppModel) -> [Effect] {
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
    var intervention: Session.Intervention?
    switch command {
    case .addOperation:
        let name = freeOperationName(model)
        let spec = OperationSpec(
            name: name, priority: .normal, body: .work(.seconds(1), checkEvery: .milliseconds(100)))
        intervention = .init(
            time: time, label: "add \(name) to \(queue.name) (normal, work 1 s)",
            actions: [.addOperation(queue: queue.name, spec)])
        model.selectedOperation = name
    case .cancelOperation:
        guard let selected = model.selectedOperation, queue.operation(named: selected) != nil else {
            model.flash = "select an operation first (\(Glyphs(theme: model.theme).upDown) or j/k)"
            return []
        }
        intervention = .init(time: time, label: "cancel \(selected)", actions: [.cancelOperation(selected)])
    case .cancelAllOperations:
        intervention = .init(
            time: time, label: "cancel all operations of \(queue.name)", actions: [.cancelAll(queue: queue.name)])
    case .toggleSuspended:
        let flag = !queue.suspended
        intervention = .init(
            time: time, label: "\(flag ? "suspend" : "resume") \(queue.name)",
            actions: [.setSuspended(queue: queue.name, flag)])
    case .raiseLimit, .lowerLimit:
        let limit = max(0, queue.width + (command == .raiseLimit ? 1 : -1))
        guard limit != queue.limit else {
            model.flash = "the limit of \(queue.name) is already 0: nothing starts"
            return []
        }
        intervention = .init(
            time: time, label: "limit of \(queue.name) \(queue.limitText), now \(limit)",
            actions: [.setLimit(queue: queue.name, limit)])
    default:
        break
    }
    guard let intervention else { return [] }
    return apply(intervention, &model)
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
