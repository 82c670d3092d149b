import LoopEngine

/// `expect in every schedule`: claims judged in every schedule of the scenario's races, not only the default one
/// (docs/races.md).
extension CheckCommand {
    /// The bounds of `check`'s exploration: smaller than `explore`'s defaults, as `check` runs in CI.
    static let scheduleBounds = (maxSchedules: 1_000, timeLimit: Duration.seconds(20))

    /// The reports of the `expect in every schedule` sections that a schedule breaks (the first schedule found
    /// for each, with the id that replays it), and what the PASS line adds (`, 3 schedules`); nothing when the
    /// file has no such section.
    static func checkEverySchedule(
        _ script: LoopScript, path: String, budget: Int
    ) -> (
        reports: [String], summary: String
    ) {
        let sections = script.expectations.filter(\.everySchedule)
        guard !sections.isEmpty else { return ([], "") }
        var broken: [Int: (schedule: Schedule, report: String)] = [:]
        let bounds = ScheduleExplorer.Bounds(
            maxSchedules: scheduleBounds.maxSchedules, timeLimit: scheduleBounds.timeLimit,
            horizon: script.until ?? ScenarioLimits.defaultHorizon, maxEvents: budget)
        let found = ScheduleExplorer.explore(script.scenario, bounds: bounds) { schedule, run in
            for (index, section) in sections.enumerated() where broken[index] == nil {
                if let report = section.check(run.trace) { broken[index] = (schedule, report) }
            }
        }
        let reports = sections.indices.compactMap { index in
            broken[index].map { ScheduleWording.broken(line: sections[index].line, path: path, $0.schedule, $0.report) }
        }
        for note in ExploreReport.bounds(found, path: path) { CommandLine.printError(note) }
        return (reports, ScheduleWording.passSummary(found))
    }
}

/// The words of `check`'s claims over every schedule.
enum ScheduleWording {
    /// A section a schedule breaks: which, how to replay it, then the claim's own report.
    static func broken(line: Int, path: String, _ schedule: Schedule, _ report: String) -> String {
        "expect in every schedule (line \(line)) breaks in schedule \(schedule.id) (replay: loopviz run --schedule "
            + "\(schedule.id) \(TerminalSafeText.terminalSafe(path))):\n" + report
    }

    /// `, in every one of 3 schedules`, or `, in the 1000 schedules run (not every one)`.
    static func passSummary(_ found: ScheduleExplorer.Exploration) -> String {
        let count = LoopEvent.count(found.schedulesRun, "schedule")
        return found.isComplete
            ? ", claims held in every one of \(count)" : ", claims held in the \(count) run (not every one)"
    }
}
