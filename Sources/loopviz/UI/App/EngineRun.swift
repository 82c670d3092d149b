import LoopEngine

/// A run of the engine that `update` asks the runtime for (``Effect/runEngine(_:)``): the scenario with the user's
/// pokes, run from t=0 to a horizon. A long trace takes the engine most of a second, so the runtime runs it off the
/// UI's thread and answers with ``AppMessage/engineRan(_:)``; the screen says "computing…" meanwhile.
struct EngineRequest: Equatable, Sendable {
    /// Which of the session's runs this is: an answer to an earlier one is not used.
    var generation: Int
    var scenario: Scenario
    var horizon: Duration
    var maxEvents: Int
    /// The trace whose first `reusedCount` events this run's are too (the events before a poke): counted as they
    /// come and taken from it, not recorded again. Nil for a run from scratch.
    var reused: LoopTrace? = nil
    var reusedCount = 0
    /// The answer, when it is known without running (a poke past the last event of a trace the event budget
    /// stopped: ``Session/requestRun(keeping:)``).
    var answer: EngineResult? = nil

    /// Runs the engine to the end (blocking): the runtime calls this off the UI's thread.
    func run() -> EngineResult {
        if let answer { return answer }
        let outcome = ScenarioRunner.run(
            scenario, horizon: horizon, maxEvents: maxEvents, reusing: reused.map { (trace: $0, count: reusedCount) })
        return EngineResult(
            generation: generation, trace: outcome.trace, haltReason: outcome.haltReason,
            stuckWaits: outcome.stuckWaits, reachedEventLimit: outcome.reachedEventLimit,
            branchPoints: outcome.branchPoints, branchPointsCut: outcome.branchPointsCut)
    }
}

/// What a run of the engine answered (``Session/adopt(_:)`` takes it).
struct EngineResult: Equatable, Sendable {
    /// The ``EngineRequest/generation`` of the run asked for.
    var generation: Int
    var trace: LoopTrace
    var haltReason: VirtualWorld.HaltReason?
    /// The threads the run left blocked for good in a wait.
    var stuckWaits: [StuckWait]
    /// The run stopped at the event budget.
    var reachedEventLimit: Bool
    /// Where the virtual world chose who went first (``BranchMarks`` marks the events that follow each).
    var branchPoints: [ScheduleBranchPoint] = []
    /// The run met more branch points than are recorded.
    var branchPointsCut = false
}

/// Thrown by a handler that needs events beyond those computed: `update` undoes what the handler did, asks the
/// runtime for a longer run (``Session/extend()``), and handles the message again once it is answered.
struct NeedsLongerTrace: Error {
    /// A windowed replay: the events to show (a count, the file's), outside the window held; nil: the trace is to
    /// be computed further.
    var showing: Int?
}
