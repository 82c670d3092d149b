/// A real run judged against a race: the real CFRunLoop (or real threads) may take any branch the virtual world
/// can choose at a branch point, so a real trace that the default schedule's run does not match is judged against
/// the other schedules' runs before it is called a difference. `loopviz compare` and the differential tests ask
/// this one function.
extension ScheduleExplorer {
    /// The most schedules tried when the real run took another branch than the default schedule.
    package static let maxOtherSchedules = 200

    /// When the default schedule's run (`run`) disagrees with the real one and has branch points (a race: two
    /// things at one instant, whose order on a real machine is decided by microseconds), the first other schedule
    /// whose run agrees (`agrees`), within ``maxOtherSchedules`` and 10 s; nil when the default agrees, when there
    /// is no branch point, or when no schedule agrees (a real difference, to report as such).
    package static func agreeingSchedule(
        _ run: ScenarioRunner.Outcome, _ scenario: Scenario, horizon: Duration, maxEvents: Int,
        _ agrees: ([LoopEvent]) -> Bool
    ) -> Schedule? {
        guard !run.branchPoints.isEmpty, !agrees(run.events) else { return nil }
        var found: Schedule?
        _ = explore(
            scenario,
            bounds: .init(
                maxSchedules: maxOtherSchedules, timeLimit: .seconds(10), horizon: horizon, maxEvents: maxEvents),
            visit: { schedule, outcome in
                if found == nil, schedule != .default, agrees(outcome.events) { found = schedule }
            })
        return found
    }
}
