/// A real run judged against a race: the real CFRunLoop (or real threads) may take any branch the virtual world
/// can choose at a branch point, so a real trace that the default schedule's run does not match is judged against
/// the other schedules' runs before it is called a difference. `loopviz compare` and the differential tests ask
/// this one function.
extension ScheduleExplorer {
    /// The most schedules tried when the real run took another branch than the default schedule.
    package static let maxOtherSchedules = 200

    /// When the default schedule's run (`run`) disagrees with the real one and has branch points (a race: two
    /// things at one instant, whose order on a real machine is decided by microseconds), the first other schedule
    /// whose run agrees (`agrees`): first each single departure from the default (at most
    /// ``maxSingleDepartures``, the last branch point first), then depth first within ``maxOtherSchedules`` and
    /// 10 s; nil when the default agrees, when there is no branch point, or when no schedule agrees (a real
    /// difference, to report as such).
    package static func agreeingSchedule(
        _ run: ScenarioRunner.Outcome, _ scenario: Scenario, horizon: Duration, maxEvents: Int,
        _ agrees: ([LoopEvent]) -> Bool
    ) -> Schedule? {
        guard !run.branchPoints.isEmpty, !agrees(run.events) else { return nil }
        // One departure from the default first: a real race is most often one choice made the other way, and the
        // depth-first search below reaches an early branch point only after every later one's subtree (fuzz seed
        // 77 case 1969: branch point 8 of 20, found after some 800 schedules). The same order as the search's
        // first level, so a schedule it would have found first is still the one found.
        var tried = 0
        for point in run.branchPoints.reversed() {
            for option in point.options.indices where option != point.chosen {
                guard tried < maxSingleDepartures else { break }
                var choices = run.branchPoints.prefix(point.index).map(\.chosen)
                choices.append(option)
                var scheduled = scenario
                scheduled.schedule = Schedule(choices: choices)
                tried += 1
                let outcome = ScenarioRunner.run(scheduled, horizon: horizon, maxEvents: maxEvents)
                if agrees(outcome.events) { return scheduled.schedule }
            }
        }
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

    /// The most single departures from the default tried before the depth-first search.
    package static let maxSingleDepartures = 100
}
