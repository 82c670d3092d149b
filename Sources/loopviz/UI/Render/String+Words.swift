/// Small word helpers the UI's sentences share.
extension String {
    /// The text without the spaces around it.
    var withoutOuterSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// `1 question`, `3 questions`: a count with its noun, singular for one.
func countedNoun(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
