import LoopEngine

/// The second run `V` asks the runtime for (``Effect/compareRuns(_:)``), and the comparison made of it: the
/// engine runs, and the steps are compared, outside `update`.
struct ComparisonRequest: Equatable, Sendable {
    var other: RunComparison.Other
    var shown: LoopTrace
    var shownReachedLimit: Bool
    /// The second run: the session's scenario without the pokes, or under the default schedule.
    var run: EngineRequest
    /// Steps known to agree (those before the first poke, taken from the shown run): not compared again.
    var agreeing: Int
    /// The step to open at (0-based).
    var row: Int
    var traceIdentity: Int

    /// Runs the engine and compares the runs (blocking): the runtime calls this, never `update`.
    func compare() -> RunComparison {
        let result = run.run()
        let difference = TraceDiff.firstDifference(shown, result.trace, from: agreeing)
        let steps = max(shown.count, result.trace.count)
        return RunComparison(
            other: other, shown: shown, second: result.trace, firstDifference: difference,
            reachedEventLimit: shownReachedLimit || result.reachedEventLimit, row: min(max(0, row), max(0, steps - 1)),
            traceIdentity: traceIdentity)
    }
}
