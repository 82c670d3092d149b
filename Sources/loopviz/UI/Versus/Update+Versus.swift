import LoopEngine

/// `V`: asks for the run to put beside the one shown - without the user's pokes when there are any, else under the
/// default schedule when `X` opened another - or says in the status bar why there is none. The engine runs, and
/// the steps are compared, in the runtime (``Effect/compareRuns(_:)``).
func compareRuns(_ model: inout AppModel) -> [Effect] {
    let session = model.session
    if session.isReplay {
        model.flash = .versusReplay
        return []
    }
    if session.isLive {
        model.flash = .versusLive
        return []
    }
    var scenario = session.script.scenario
    scenario.schedule = session.schedule
    let other: RunComparison.Other
    var agreeing = 0
    if !session.interventions.isEmpty {
        other = .withoutPokes(session.interventions.count)
        // The events before the first poke are the same without it (a poke changes only what follows its step).
        agreeing = min(session.interventions.map(\.afterEvent).min() ?? 0, session.trace.count)
    } else if session.schedule != .default {
        other = .defaultSchedule(shown: session.schedule)
        scenario.schedule = .default
    } else {
        model.flash = .versusNothing
        return []
    }
    let run = EngineRequest(
        generation: 0, scenario: scenario, horizon: session.horizon, maxEvents: session.maxEvents,
        reused: agreeing > 0 ? session.trace : nil, reusedCount: agreeing)
    return [
        .compareRuns(
            ComparisonRequest(
                other: other, shown: session.trace, shownReachedLimit: session.reachedEventBudget, run: run,
                agreeing: agreeing, row: max(0, model.cursor - 1), traceIdentity: session.traceIdentity))
    ]
}

/// The runtime's answer to `V`: the side by side opens at the step shown, and the status bar says where the runs
/// part (and, for two schedules, the headless command that prints the same comparison).
func comparisonRan(_ comparison: RunComparison, _ model: inout AppModel) {
    // A trace replaced meanwhile (a lesson opened, a poke) is another run than the one compared.
    guard comparison.traceIdentity == model.session.traceIdentity else { return }
    model.overlay = .versus(comparison)
    model.flash = .versusOpened(comparison, headless: headlessDiff(comparison.other, model))
}

/// The headless command that prints the same comparison, when there is one: two schedules of one file are
/// `loopviz diff --schedule ID FILE` (the default beside it), with the UI's horizon and budget when they are not
/// diff's defaults. The schedule comes before the file, so a long path cut at 80 columns keeps the id, as `X`'s
/// replay command does. Pokes have none (``StatusMessage/versusOpened(_:headless:)`` says why).
func headlessDiff(_ other: RunComparison.Other, _ model: AppModel) -> String? {
    guard case .defaultSchedule(let shown) = other else { return nil }
    var command = "loopviz diff --schedule \(shown.id) \(model.fileName)"
    let session = model.session
    if session.horizon != (session.script.until ?? ScenarioLimits.defaultHorizon) {
        let nanoseconds = session.horizon.nanosecondsClamped
        let until =
            nanoseconds % 1_000_000_000 == 0 ? "\(nanoseconds / 1_000_000_000)s" : ExploreReport.words(session.horizon)
        command += " --until \(until)"
    }
    if session.maxEvents != EventBudget.defaultLimit { command += " --max-events \(session.maxEvents)" }
    return command
}

/// A key in the side by side: `n` `p` (and the arrows, `j` `k`) move both runs a step, PgUp PgDn ten, Home End to
/// the ends, `d` to the first difference; Esc or the key that opened it (`V`) closes it, and the loop view shows
/// the step it was on; the quit key quits.
func handleVersus(_ key: Key, _ comparison: RunComparison, _ model: inout AppModel) -> [Effect] {
    let last = max(0, comparison.steps - 1)
    var moved = comparison
    // Closing and quitting follow the keys in force (a keymap file may bind them elsewhere).
    let command = model.keys.command(for: key, in: model.view)
    switch key {
    case _ where key == .escape || command == .compareRuns:
        model.overlay = .none
        // The same step in the loop view, as far as the shown run goes (the other may be longer).
        model.cursor = min(comparison.row + 1, model.trace.count)
        model.furthest = max(model.furthest, model.cursor)
        model.logScroll = 0
        return []
    case _ where command == .quit:
        model.quitRequested = true
        return [.quit]
    case .down, .right, .character("j"), .character("n"): moved.row = min(last, comparison.row + 1)
    case .up, .left, .character("k"), .character("p"): moved.row = max(0, comparison.row - 1)
    case .pageDown: moved.row = min(last, comparison.row + 10)
    case .pageUp: moved.row = max(0, comparison.row - 10)
    case .home: moved.row = 0
    case .end: moved.row = last
    case .character("d"):
        if let difference = comparison.firstDifference {
            moved.row = difference
        } else {
            model.flash = .versusNoDifference
        }
    default: return []
    }
    model.overlay = .versus(moved)
    return []
}
