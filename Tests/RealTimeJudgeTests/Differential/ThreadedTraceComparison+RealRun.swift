import LoopEngine
import LoopOracle

extension ThreadedTraceComparison {
    /// `engine` against a run of `scenario` on the real CFRunLoop, thread by thread, with the real run's trace.
    ///
    /// On a loaded machine a real thread can start late, and its whole trace with it (955 ms once, in CI with every
    /// suite running at once): a comparison whose steps agree but whose times do not is made again with a new real
    /// run, at most twice. A difference of steps is never run again.
    static func againstRealRun(
        engine: [LoopEvent], _ scenario: Scenario, declared: [String]
    ) throws -> (comparison: ThreadedTraceComparison, reference: [LoopEvent]) {
        func compare() throws -> (ThreadedTraceComparison, [LoopEvent]) {
            let reference = try CFOracle.run(scenario)
            let comparison = ThreadedTraceComparison(
                engine: engine, reference: reference, declared: declared, tolerance: DifferentialTests.tolerance)
            return (comparison, reference)
        }
        var result = try compare()
        for _ in 0..<2
        where !result.0.agrees && result.0.threads.allSatisfy({ $0.comparison.firstDifference == nil }) {
            result = try compare()
        }
        return result
    }
}
