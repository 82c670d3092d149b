import LoopEngine

/// `V`: the run shown beside a second run of its scenario, step by step, the first difference marked - what
/// `loopviz diff` prints, with the same rule of the same step (``TraceDiff/firstDifference(_:_:from:)``). Typed
/// facts: its words are made by its render (`RunComparison+Words.swift`).
struct RunComparison: Equatable {
    /// What the second run is: the shown run without what the user changed.
    enum Other: Equatable {
        /// The same scenario under the same schedule without the user's pokes (this many): what the pokes changed.
        case withoutPokes(Int)
        /// The default schedule, beside the schedule shown (opened from `X`): what the other order changed.
        case defaultSchedule(shown: Schedule)
    }

    var other: Other
    /// The run on screen when `V` was pressed (the session's trace, shared, not copied).
    var shown: LoopTrace
    /// The second run.
    var second: LoopTrace
    /// The first step (0-based) where the two differ; nil when they take the same steps.
    var firstDifference: Int?
    /// A run stopped at the event budget: the steps past it were not computed, on that side.
    var reachedEventLimit: Bool
    /// The step highlighted (0-based): the same step of both runs.
    var row: Int
    /// The ``Session/traceIdentity`` of the shown run: an answer for a trace since replaced is not shown.
    var traceIdentity: Int

    /// The steps of the longer run: the rows of the side by side.
    var steps: Int { max(shown.count, second.count) }
}
