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
            if let number = Int(typed) { goTo(number, &model) }
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
    case .threads(let row):
        let names = model.threadNames
        switch key {
        case .escape, .character("t"): model.overlay = .none
        case .up, .character("k"): model.overlay = .threads(max(0, row - 1))
        case .down, .character("j"): model.overlay = .threads(min(names.count, row + 1))
        case .pageUp: model.overlay = .threads(max(0, row - 10))
        case .pageDown: model.overlay = .threads(min(names.count, row + 10))
        case .home: model.overlay = .threads(0)
        case .end: model.overlay = .threads(names.count)
        case .enter:
            model.overlay = .none
            model.shownThread = row == 0 ? nil : names[min(row, names.count) - 1]
            model.flash =
                model.shownThread.map { "the loop view shows thread \($0)" }
                ?? "the loop view follows the current event's thread"
        default: break
        }
        return []
    case .none:
        break
    }
    if model.isTooSmall {
        return key == .character("q") ? quit(&model) : []
    }
    guard let command = KeyMap.command(for: key, in: model.view) else {
        // A key of the other view says where it works, rather than doing nothing.
        if let other = KeyMap.bindings.first(where: { $0.keys.contains(key) && !$0.views.contains(model.view) }) {
            model.flash =
                "\(other.label): \(other.help), in the \(model.view == .pool ? "loop" : "pool") view (P switches)"
        }
        return []
    }
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
        if let previous = (0..<max(0, model.cursor - 1)).last(where: { model.trace[$0].kind == .beforeTimers }) {
            move(&model, to: previous + 1)
        } else {
            model.flash = "no earlier iteration: g 1 goes to the first event"
        }
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
            model.flash = "selected \(index + 1) \(model.items[index].name)"
        } else {
            model.flash =
                model.items.isEmpty
                ? "thread \(model.loopThread) has no item" : "no item \(index + 1) (1-\(model.items.count))"
        }
    case .nextItem, .previousItem:
        let count = model.items.count
        guard count > 0 else {
            model.flash = "thread \(model.loopThread) has no item"
            break
        }
        let index = (model.selectedItem + (command == .nextItem ? 1 : count - 1)) % count
        model.selectedItem = index
        model.flash = "selected \(index + 1) \(model.items[index].name)"
    case .pickThread:
        let names = model.threadNames
        model.overlay = .threads(model.shownThread.flatMap { names.firstIndex(of: $0).map { $0 + 1 } } ?? 0)
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

/// `g N`: moves to event N, saying so when N is outside the events there are (the nearest is shown).
private func goTo(_ number: Int, _ model: inout AppModel) {
    move(&model, to: number)
    let count = model.trace.count
    if number < 1 && count > 0 {
        model.flash = "no event \(number): events are numbered 1-\(count); showing event 1"
        move(&model, to: 1)
    } else if number > count {
        let soFar = model.session.canExtend ? " so far" : ""
        model.flash = "no event \(number): there are \(count) events\(soFar); showing the last"
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

/// Turns an item key into an outside event right after the step shown, addressed to the loop shown, and
/// recomputes the trace (live: performs it now). The item keys act on the selected item only: when it is of
/// another kind, the status bar says so and nothing happens.
private func poke(_ command: Command, _ model: inout AppModel) -> [Effect] {
    if model.session.isLive && [.addTimer, .addSource, .addObserver].contains(command) {
        model.flash = "adding items needs the virtual clock (the real threads' items were made at the start)"
        return []
    }
    guard let thread = model.loopThreadSpec else {
        model.flash =
            "thread \(model.loopThread) was started by the run: the file declares no loop items for it to poke "
            + "(t picks a declared thread)"
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
        let others = items.indices.filter { wanted(items[$0].kind) }.map { "\($0 + 1)" }
        model.flash =
            "item \(selectedIndex + 1) \(selected.name) is a \(kindName(selected.kind)), not a \(what): "
            + (others.isEmpty
                ? "thread \(thread.name) has none" : "select \(others.joined(separator: ", ")) first")
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
        if let timer = item(isTimer, "timer", "f") {
            make("fire \(timer.name)", [.setNextFireDate(timer.name, after: .zero)])
        }
    case .signalAndWake:
        if let source = item(isSource0, "version-0 source", "s") {
            make("signal \(source.name) + wake up", [.signal(source.name), .wakeUp])
        }
    case .signalOnly:
        if let source = item(isSource0, "version-0 source", "S") {
            make("signal \(source.name) (no wake-up)", [.signal(source.name)])
        }
    case .sendMessage:
        if let port = item(isPort, "port", "o") { make("send to \(port.name)", [.send(port.name, count: 1)]) }
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
private func kindName(_ kind: ItemSpec.Kind) -> String {
    switch kind {
    case .source0: "version-0 source"
    case .port: "port"
    case .timer: "timer"
    case .observer: "observer"
    }
}

/// The mode a "scroll" runs: the first mode besides default that the scenario mentions, else `Tracking`.
func trackingMode(_ scenario: Scenario) -> ModeName {
    scenario.mentionedModes.first { $0 != .default } ?? "Tracking"
}

/// The user's poke: on the virtual clock an outside event right after the step shown, and the trace recomputed;
/// live, the actions performed now by the runtime. Either way the play state stays: paused stays paused (the
/// poke's effect is in the next steps).
private func apply(_ intervention: Session.Intervention, _ model: inout AppModel) -> [Effect] {
    let forgotten = model.session.intervene(intervention)
    let thread = intervention.thread ?? model.session.primaryThread.name
    if model.session.isLive {
        model.flash = intervention.label
        return [.perform(intervention.actions, thread: thread)]
    }
    var flash =
        intervention.label + " after step \(intervention.afterEvent) (t=\(LoopInstant.zero + intervention.time)s)"
    if forgotten > 0 {
        flash += "; \(forgotten) poke\(forgotten == 1 ? "" : "s") made after a later step forgotten"
    }
    model.flash = flash
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
