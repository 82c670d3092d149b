import LoopEngine

/// `X`: lists the scenario's outcomes (the explorer run here, bounded: ``OutcomeList/bounds``); the virtual
/// clock only, as real threads take the OS scheduler's order.
func listOutcomes(_ model: inout AppModel) -> [Effect] {
    guard !model.session.isLive else {
        model.flash = StatusMessage(
            "real threads: the OS scheduler chooses who goes first",
            detail: "\(model.keys.word(for: .listOutcomes)) explores on the virtual clock")
        return []
    }
    let session = model.session
    let list = OutcomeList.explore(
        session.effectiveScenario, horizon: session.horizon, maxEvents: session.maxEvents)
    var shown = list
    shown.row = list.entries.firstIndex { $0.schedule == session.schedule } ?? 0
    model.overlay = .outcomes(shown)
    return []
}

/// A key in the outcome list: move, Enter replays the highlighted outcome's schedule, Esc or `X` closes.
func handleOutcomeList(_ key: Key, _ list: OutcomeList, _ model: inout AppModel) -> [Effect] {
    guard !list.entries.isEmpty else {
        model.overlay = .none
        return []
    }
    let last = list.entries.count - 1
    var moved = list
    let command = model.keys.command(for: key, in: model.view)
    switch key {
    case _ where key == .escape || command == .listOutcomes:
        model.overlay = .none
        return []
    case .up, .character("k"): moved.row = max(0, list.row - 1)
    case .down, .character("j"): moved.row = min(last, list.row + 1)
    case .pageUp: moved.row = max(0, list.row - 10)
    case .pageDown: moved.row = min(last, list.row + 10)
    case .home: moved.row = 0
    case .end: moved.row = last
    case .enter: return openOutcome(list.entries[min(list.row, last)], number: min(list.row, last) + 1, &model)
    case _ where command == .quit:
        model.quitRequested = true
        return [.quit]
    default: return []
    }
    model.overlay = .outcomes(moved)
    return []
}

/// Replays `entry`'s schedule from the start, paused, and says which schedule is shown and how to replay it
/// headless.
private func openOutcome(_ entry: OutcomeList.Entry, number: Int, _ model: inout AppModel) -> [Effect] {
    model.overlay = .none
    model.isPaused = true
    model.session.schedule = entry.schedule
    model.cursor = 0
    model.furthest = 0
    model.logScroll = 0
    // The replay command whole first (it is what to copy); which outcome, where there is room.
    model.flash = StatusMessage(
        "schedule \(entry.schedule.id); headless: loopviz run --schedule \(entry.schedule.id) \(model.fileName)",
        detail: "outcome \(number)")
    return [.runEngine(model.session.requestRun())]
}
