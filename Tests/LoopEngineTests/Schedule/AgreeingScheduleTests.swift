import LoopEngine
import Testing

/// `ScheduleExplorer.agreeingSchedule`, the one function `compare`, the fuzzer and the differential tests judge a
/// real run against a race with.
@Suite("a real run judged against every schedule")
struct AgreeingScheduleTests {
    /// Fuzz seed 77 case 1969: U starts while T's timer, rescheduled into the past, fires at once and performs on
    /// U. On this machine U reached its wait first (the perform woke it); the engine's default has the perform
    /// there before U's first source0 pass. The real order is one choice made the other way, at branch point 8 of
    /// the default run's 15.
    static let scenarioText = """
        scenario "fuzz seed 77 case 1969"

        thread T
          timer t1 at 0ms every 60ms
            call 1: reschedule t1 in 20ms
            perform u1 on U
              post c3 to u1
              signal u1
          observer o2 on beforeTimers, afterWaiting in common
            cancelPerform f1 target str
          start U
          reschedule t1 in -20ms
          run default for 60ms

        thread U later
          port q1
            work 2ms
          source0 u1
            work 1ms
          run default for 140ms
        """

    @Test("one early choice made the other way is found before the depth-first search runs out of schedules")
    func singleEarlyDepartureIsFound() throws {
        let scenario = try ScenarioParser.parse(Self.scenarioText, file: "t.loop").scenario
        let defaultRun = ScenarioRunner.run(scenario)
        #expect(defaultRun.branchPoints.count == 15)
        var real = scenario
        real.schedule = try #require(Schedule(id: "8:1"))
        let realEvents = ScenarioRunner.run(real).events
        let realSteps = realEvents.map(\.step)
        #expect(defaultRun.events.map(\.step) != realSteps)
        // The depth-first search alone, within the same budget, does not reach it.
        var searched = false
        _ = ScheduleExplorer.explore(
            scenario,
            bounds: .init(
                maxSchedules: ScheduleExplorer.maxOtherSchedules, timeLimit: .seconds(30), horizon: .seconds(1),
                maxEvents: 100_000),
            visit: { schedule, outcome in
                if schedule != .default, outcome.events.map(\.step) == realSteps { searched = true }
            })
        #expect(!searched)
        let found = ScheduleExplorer.agreeingSchedule(
            defaultRun, scenario, horizon: .seconds(1), maxEvents: 100_000
        ) { $0.map(\.step) == realSteps }
        #expect(found?.id == "8:1")
    }

    @Test("a run no schedule reproduces is still a difference")
    func noScheduleAgrees() throws {
        let scenario = try ScenarioParser.parse(Self.scenarioText, file: "t.loop").scenario
        let defaultRun = ScenarioRunner.run(scenario)
        let found = ScheduleExplorer.agreeingSchedule(
            defaultRun, scenario, horizon: .seconds(1), maxEvents: 100_000
        ) { $0.map(\.step).contains("timer t1 fired backwards") }
        #expect(found == nil)
    }
}
