/// Reads the tokens of one line left to right.
struct TokenCursor {
    let line: ScenarioLine
    var tokens: [ScenarioToken]
    var index = 0

    init(_ line: ScenarioLine) {
        self.line = line
        self.tokens = line.tokens
    }

    var peek: ScenarioToken? { index < tokens.count ? tokens[index] : nil }
    var peekSecond: ScenarioToken? { index + 1 < tokens.count ? tokens[index + 1] : nil }
    var last: ScenarioToken? { index > 0 && index <= tokens.count ? tokens[index - 1] : nil }

    /// The next token as an integer (a number without unit or fraction).
    var peekInteger: Int? {
        guard case .number(let value, let unit) = peek?.kind, unit.isEmpty, value.rounded() == value,
            value.magnitude < 1e15
        else { return nil }
        return Int(value)
    }

    mutating func next() -> ScenarioToken? {
        guard index < tokens.count else { return nil }
        index += 1
        return tokens[index - 1]
    }

    /// Takes `word` if it comes next. The language has no words beyond ``ScenarioKeywords``.
    mutating func accept(_ word: String) -> Bool {
        assert(ScenarioKeywords.all.contains(word), "'\(word)' is not in ScenarioKeywords")
        guard peek?.isWord(word) == true else { return false }
        index += 1
        return true
    }

    mutating func acceptPunctuation(_ mark: String) -> Bool {
        guard peek?.isPunctuation(mark) == true else { return false }
        index += 1
        return true
    }
}
