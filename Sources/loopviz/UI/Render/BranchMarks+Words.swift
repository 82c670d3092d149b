import LoopEngine

// Render: the words and the glyph of an event whose place depends on a schedule choice.

extension Glyphs {
    /// The event log's mark of an event that follows a schedule choice (a fork; `Y` in ASCII).
    var branch: String { theme.unicode ? "⑂" : "Y" }
}

/// What the Why pane says first about the event at `index` when its place depends on a schedule choice: which
/// option went first and which could have (empty otherwise). The screen reader says the same.
func branchWords(_ model: AppModel, explaining index: Int?) -> String {
    guard let index else { return "" }
    let points = model.session.branchMarks.points(at: index)
    guard !points.isEmpty else { return "" }
    let choices = points.map(\.choiceWords).joined(separator: "; and ")
    return "A schedule choice placed this step (\(choices)); X lists the other outcomes. "
}
