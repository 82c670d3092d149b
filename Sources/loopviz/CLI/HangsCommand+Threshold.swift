/// What is wrong with a `--threshold` that is not a time above zero.
extension HangsCommand {
    /// A bare number (`1`) lacks its unit, which is what to say; anything else is not a time above zero.
    static func thresholdProblem(_ text: String) -> CommandLineProblem {
        if let number = Double(text), number.isFinite, number > 0 { return .needsUnit(text) }
        return .notATimeAboveZero(text, example: "250ms")
    }
}
