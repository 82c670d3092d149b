import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The backbone of the suite: every case runs on LoopEngine (virtual clock) and on the real CFRunLoop (a fresh
/// thread, real time), and the observable traces must agree step for step, times within a tolerance.
@Suite("LoopEngine agrees with the real CFRunLoop", .serialized)
struct DifferentialTests {
    @Test("every differential scenario runs to its end on the virtual clock", arguments: DifferentialCase.all)
    func engineRunsToCompletion(_ testCase: DifferentialCase) {
        let outcome = ScenarioRunner.run(testCase.scenario)
        #expect(outcome.haltReason == nil, "the program did not end: \(String(describing: outcome.haltReason))")
    }

    #if os(Linux)
    /// When the default schedule's trace differs and the scenario has a race (two things due at one instant: a
    /// run's time limit and a timer's fire, docs/cfrunloop.md §13.1), CF's microseconds may take the other branch:
    /// the real trace must then be the trace of another schedule the engine explores, as `loopviz compare` judges.
    @Test("the engine's trace matches CFRunLoop's", arguments: DifferentialCase.all)
    func engineMatchesCFRunLoop(_ testCase: DifferentialCase) throws {
        try RealTimeGate.exclusive {
            let run = ScenarioRunner.run(testCase.scenario, horizon: Self.horizon)
            var reference = try CFOracle.run(testCase.scenario)
            func comparison(_ engine: [LoopEvent]) -> TraceComparison {
                TraceComparison(
                    engine: engine, reference: reference, tolerance: DifferentialTests.tolerance,
                    ignoringRunBoundaries: testCase.ignoringRunBoundaries)
            }
            var defaultComparison = comparison(run.events)
            // Steps that agree with times that do not: a real thread started late on a loaded machine (every suite
            // runs at once in CI). The real run is made again, at most twice; a difference of steps never is.
            for _ in 0..<2 where !defaultComparison.agrees && defaultComparison.firstDifference == nil {
                reference = try CFOracle.run(testCase.scenario)
                defaultComparison = comparison(run.events)
            }
            guard !defaultComparison.agrees else { return }
            let other = ScheduleExplorer.agreeingSchedule(
                run, testCase.scenario, horizon: Self.horizon, maxEvents: Self.maxEvents
            ) { comparison($0).agrees }
            #expect(
                other != nil,
                "\(testCase.testDescription) (no explored schedule agrees either)\n\(defaultComparison.sideBySide())")
        }
    }
    #endif

    /// Each engine run's horizon, and the event budget of the other schedules' runs.
    static let horizon: Duration = .seconds(60)
    static let maxEvents = 1_000_000

    /// Real threads are late by scheduling noise; CI machines are loaded. `LOOPVIZ_TOLERANCE_MS` widens it.
    static let tolerance: Duration = {
        if let text = getenv("LOOPVIZ_TOLERANCE_MS"), let value = Int(String(cString: text)) {
            return .milliseconds(value)
        }
        return .milliseconds(25)
    }()
}
