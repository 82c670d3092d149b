/// The timeline's rows as far as the trace has been drawn, kept between frames in the ``RenderCache``: a frame at
/// the same window (the window moves in whole columns) folds only the events since the last frame into them.
struct TimelineRows {
    /// What the rows are for: the trace (``Session/traceIdentity``), the window's first instant, a column's width,
    /// how many columns, whose rows.
    struct Key: Equatable {
        var trace: Int
        var start: Int64
        var bucket: Int64
        var columns: Int
        var threads: [String]
    }

    /// One thread's row.
    struct Row {
        var cells: [Character]
        var asleep: Bool
        /// Runs active on the thread (the row is drawn awake or asleep only inside one).
        var runs: Int
        var lastColumn = -1
    }

    var key: Key?
    /// The events folded into `rows`: the trace's first `processed`.
    var processed = 0
    var rows: [Row] = []
}
