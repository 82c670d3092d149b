import LoopEngine

/// `X`: the scenario's other outcomes, found by the schedule explorer (`ScheduleExplorer`, as `loopviz explore`)
/// within bounds small enough for a key press, and the row highlighted. Typed facts: the list's words are made by
/// its render.
struct OutcomeList: Equatable {
    /// One distinct outcome.
    struct Entry: Equatable {
        /// The first schedule found that leads to it (what Enter replays).
        var schedule: Schedule
        /// How many of the schedules run lead to it.
        var schedules: Int
        /// Where its schedule first leaves the default; nil for the default's outcome.
        var departure: ScheduleBranchPoint?
        /// Where it first parts from the default's outcome, in the engine's words (nil for the default's).
        var divergence: String?
    }

    /// The bounds of the UI's exploration: a key press may wait this long, no longer.
    static let bounds = (maxSchedules: 200, timeLimit: Duration.seconds(2))

    var entries: [Entry]
    var schedulesRun: Int
    /// Which bound stopped the exploration; nil when every schedule was run.
    var stop: ScheduleExplorer.Stop?
    /// Schedules known and not run when a bound stopped it.
    var schedulesLeft: Int
    /// Some run met more branch points than are recorded.
    var branchPointsCut: Bool
    /// The row highlighted.
    var row = 0

    init(_ found: ScheduleExplorer.Exploration) {
        let reference = found.outcomes.first?.observable
        entries = found.outcomes.map { outcome in
            Entry(
                schedule: outcome.schedule, schedules: outcome.schedules, departure: outcome.departure,
                divergence: reference.flatMap { outcome.observable.firstDivergence(from: $0) }.map(\.words))
        }
        schedulesRun = found.schedulesRun
        stop = found.stop
        schedulesLeft = found.schedulesLeft
        branchPointsCut = found.branchPointsCut
    }

    /// The outcomes of `scenario` run to `horizon` (each run within `maxEvents`), within ``bounds``.
    static func explore(_ scenario: Scenario, horizon: Duration, maxEvents: Int) -> OutcomeList {
        let bounds = ScheduleExplorer.Bounds(
            maxSchedules: Self.bounds.maxSchedules, timeLimit: Self.bounds.timeLimit, horizon: horizon,
            maxEvents: maxEvents)
        return OutcomeList(ScheduleExplorer.explore(scenario, bounds: bounds))
    }
}
