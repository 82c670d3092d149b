/// What is wrong with a `--threshold` that is not a time above zero.
extension HangsCommand {
    /// A bare number (`1`) lacks its unit, which is what to say; anything else is not a time above zero.
    static func thresholdProblem(_ text: String) -> String {
        if let number = Double(text), number.isFinite, number > 0 {
            return "'\(text)' needs a unit, e.g. \(text)ms"
        }
        return "'\(text)' is not a time above zero; use e.g. 250ms"
    }
}
