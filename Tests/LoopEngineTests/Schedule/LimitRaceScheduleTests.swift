import Testing

@testable import LoopEngine

/// docs/cfrunloop.md §13.1: a nested run's time limit due at the very instant its mode's timer fires is a race
/// the real CFRunLoop decides by microseconds. The default schedule takes the usual order (the timer pass ends
/// before the limit: one more cycle, then the limit's wake-up); the world records a branch point there, and the
/// other schedule is the rarer order a loaded machine shows (the limit passes during the timer pass: `timedOut` at
/// once). The differential tests and `loopviz compare` accept either, and no third.
@Suite("a run's limit on a timer's instant is a race with two outcomes")
struct LimitRaceScheduleTests {
    /// The §13.1 differential case: a 50 ms modal run started at 150 ms, a common `tick` every 100 ms.
    static let limitOnTick = """
        scenario "a nested run's limit at a common timer's instant"

        thread T
          common Modal
          port keepAlive in default, Modal
          timer tick at 100ms every 100ms in common
          timer modal at 150ms in default
            run Modal for 50ms
          run default for 330ms
        """

    static func scenario(_ schedule: Schedule = .default) throws -> Scenario {
        var scenario = try ScenarioParser.parse(Self.limitOnTick, file: "t.loop").scenario
        scenario.schedule = schedule
        return scenario
    }

    /// T's observable steps from the modal run's start to its result.
    static func modalRun(_ outcome: ScenarioRunner.Outcome) -> [String] {
        let steps = outcome.events.filter { $0.loop == "T" && TraceComparison.isObservable($0) }
        guard let start = steps.firstIndex(where: { $0.step == "runStart Modal" }),
            let end = steps[start...].firstIndex(where: { $0.kind == .result })
        else { return [] }
        return steps[start...end].map(\.step)
    }

    static let usual = [
        "runStart Modal", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "timer tick",
        "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
    ]
    static let rarer = [
        "runStart Modal", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "timer tick",
        "exit", "result timedOut",
    ]

    @Test func theDefaultGoesRoundOnceMoreAndRecordsTheRaceAtTheLimitsInstant() throws {
        let outcome = ScenarioRunner.run(try Self.scenario())
        #expect(Self.modalRun(outcome) == Self.usual)
        let atLimit = outcome.branchPoints.filter { $0.time == LoopInstant(nanoseconds: 200_000_000) }
        #expect(!atLimit.isEmpty)
    }

    @Test func exploringFindsTheRarerOrderAndNoOther() throws {
        let explored = ScheduleExplorer.explore(
            try Self.scenario(),
            bounds: .init(maxSchedules: 100, timeLimit: .seconds(30), horizon: .seconds(2), maxEvents: 10_000))
        #expect(explored.isComplete)
        #expect(explored.outcomes.count == 2)
        let runs = try explored.outcomes.map { ScenarioRunner.run(try Self.scenario($0.schedule)) }
        #expect(runs.map(Self.modalRun) == [Self.usual, Self.rarer])
    }

    @Test func aRealTraceInTheRarerOrderIsMatchedByItsScheduleAndAThirdIsNot() throws {
        let explored = ScheduleExplorer.explore(
            try Self.scenario(),
            bounds: .init(maxSchedules: 100, timeLimit: .seconds(30), horizon: .seconds(2), maxEvents: 10_000))
        let rarer = try #require(explored.outcomes.last?.schedule)
        let reference = ScenarioRunner.run(try Self.scenario(rarer)).events
        let run = ScenarioRunner.run(try Self.scenario())
        let found = ScheduleExplorer.agreeingSchedule(
            run, try Self.scenario(), horizon: .seconds(60), maxEvents: 100_000
        ) {
            TraceComparison(engine: $0, reference: reference, tolerance: .milliseconds(1)).agrees
        }
        #expect(found == rarer)
        let third = Array(reference.dropLast(2))
        let none = ScheduleExplorer.agreeingSchedule(
            run, try Self.scenario(), horizon: .seconds(60), maxEvents: 100_000
        ) {
            TraceComparison(engine: $0, reference: third, tolerance: .milliseconds(1)).agrees
        }
        #expect(none == nil)
    }
}
