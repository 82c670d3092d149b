import Testing

@testable import LoopEngine

/// The virtual world's choices at its branch points: the default is the order it always took; another schedule
/// takes another option there, and the run records where it could have gone another way.
@Suite("Schedules at the virtual world's branch points")
struct ScheduleTests {
    /// main starts T2 and at once sends it a perform (GNUstep's thread.m test without its 20 ms of set-up).
    static let performAfterStart = """
        scenario "perform right after start"

        thread main main
          start T2
          perform threadEvent on T2
            say "performed"

        thread T2 later
          timer timeout at 2s
          RunLoop.run until 1s
        """

    static func scenario(_ schedule: Schedule) throws -> Scenario {
        var scenario = try ScenarioParser.parse(Self.performAfterStart, file: "t.loop").scenario
        scenario.schedule = schedule
        return scenario
    }

    static func steps(_ outcome: ScenarioRunner.Outcome, of thread: String) -> [String] {
        outcome.events.filter { $0.loop == thread && TraceComparison.isObservable($0) }.map(\.step)
    }

    @Test func theDefaultScheduleLetsTheStarterGoOnAndRecordsWhereItCouldNot() throws {
        let outcome = ScenarioRunner.run(try Self.scenario(.default))
        #expect(outcome.branchPoints.map(\.options) == [[.thread("main"), .thread("T2")]])
        #expect(outcome.branchPoints.map(\.chosen) == [0])
        #expect(outcome.unfittedBranchPoint == nil)
        #expect(
            Self.steps(outcome, of: "T2") == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "source0 performSelector",
                "perform threadEvent", "note", "exit", "result handledSource", "runStart default", "entry",
                "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
            ])
    }

    @Test func aStartedThreadThatGoesFirstIsAsleepWhenThePerformComes() throws {
        let outcome = ScenarioRunner.run(try Self.scenario(Schedule(choices: [1])))
        #expect(outcome.branchPoints.first?.chosen == 1)
        #expect(
            Self.steps(outcome, of: "T2") == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                "beforeTimers", "beforeSources", "source0 performSelector", "perform threadEvent", "note", "exit",
                "result handledSource", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
                "afterWaiting", "exit", "result timedOut",
            ])
    }

    @Test func anOptionTheRunDoesNotHaveIsReportedAndTheDefaultTaken() throws {
        let outcome = ScenarioRunner.run(try Self.scenario(Schedule(choices: [5])))
        #expect(outcome.unfittedBranchPoint?.index == 0)
        #expect(outcome.unfittedBranchPoint?.options.count == 2)
        #expect(outcome.branchPoints.first?.chosen == 0)
    }

    @Test func exploringFindsBothOutcomesAndHowManySchedulesLeadToEach() throws {
        let found = ScheduleExplorer.explore(
            try Self.scenario(.default),
            bounds: .init(maxSchedules: 100, timeLimit: .seconds(60), horizon: .seconds(60), maxEvents: 10_000))
        #expect(found.isComplete)
        #expect(found.schedulesRun == 3)
        #expect(found.outcomes.map(\.schedules) == [2, 1])
        #expect(found.outcomes.map(\.schedule.id) == ["default", "0:1"])
        #expect(
            found.outcomes[1].departure?.words
                == "at 0.000, branch point 0: thread T2 went first (the default: thread main)")
    }

    @Test func aScheduleLimitStopsTheExplorationAndCountsWhatIsLeft() throws {
        let found = ScheduleExplorer.explore(
            try Self.scenario(.default),
            bounds: .init(maxSchedules: 1, timeLimit: .seconds(60), horizon: .seconds(60), maxEvents: 10_000))
        #expect(found.stop == .scheduleLimit(1))
        #expect(found.schedulesRun == 1)
        #expect(found.schedulesLeft == 1)
        #expect(!found.isComplete)
    }

    @Test(arguments: [
        ("default", [Int]()), ("0:1", [1]), ("3:1,7:2", [0, 0, 0, 1, 0, 0, 0, 2]),
    ])
    func anIdNamesTheChoicesWhereTheScheduleLeavesTheDefault(id: String, choices: [Int]) {
        #expect(Schedule(id: id)?.choices == choices)
        #expect(Schedule(choices: choices).id == id)
    }

    @Test(arguments: ["", "x", "1", "1:0", "3:1,2:1", "1:1,1:2", "4096:1", "-1:1", "1:1,"])
    func aTextThatIsNotAnIdNamesNoSchedule(text: String) {
        #expect(Schedule(id: text) == nil)
    }
}
