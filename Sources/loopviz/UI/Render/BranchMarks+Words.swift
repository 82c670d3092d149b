import LoopEngine

// Render: the words and the glyph of an event whose place depends on a schedule choice.

extension Glyphs {
    /// The mark of an event that follows a schedule choice, in the event log and on the timeline's lane (a fork;
    /// `Y` in ASCII, a letter no other timeline mark uses).
    var branchMark: Character { theme.unicode ? "⑂" : "Y" }
    /// ``branchMark`` as text, for the log's rows and the timeline's legend.
    var branch: String { String(branchMark) }
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
