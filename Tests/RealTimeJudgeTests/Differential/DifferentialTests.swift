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
    @Test("the engine's trace matches CFRunLoop's", arguments: DifferentialCase.all)
    func engineMatchesCFRunLoop(_ testCase: DifferentialCase) throws {
        try RealTimeGate.exclusive {
            let engine = ScenarioRunner.run(testCase.scenario).events
            let reference = try CFOracle.run(testCase.scenario)
            let comparison = TraceComparison(
                engine: engine, reference: reference, tolerance: DifferentialTests.tolerance,
                ignoringRunBoundaries: testCase.ignoringRunBoundaries)
            #expect(comparison.agrees, "\(testCase.testDescription)\n\(comparison.sideBySide())")
        }
    }
    #endif

    /// Real threads are late by scheduling noise; CI machines are loaded. `LOOPVIZ_TOLERANCE_MS` widens it.
    static let tolerance: Duration = {
        if let text = getenv("LOOPVIZ_TOLERANCE_MS"), let value = Int(String(cString: text)) {
            return .milliseconds(value)
        }
        return .milliseconds(25)
    }()
}
