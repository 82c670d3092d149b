extension ScenarioParserState {
    /// `ask "PROMPT" (at TIME | at step N | after EVENT) [(EVENT, EVENT, …)]`: a quiz point, anchored as `say` is,
    /// with the lesson's own choices in parentheses (a `:` would read as a thread's, `worker: sleep`).
    func parseQuestion(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Question? {
        guard let prompt = expectString(&cursor, what: .questionText) else { return nil }
        guard let anchor = parseAnchor(&cursor, line, for: .ask) else { return nil }
        var choices: [Expectation.Step] = []
        if cursor.acceptPunctuation("(") {
            repeat {
                guard let step = parseEventPattern(&cursor, line) else { return nil }
                choices.append(step)
            } while cursor.acceptPunctuation(",")
            guard cursor.acceptPunctuation(")") else {
                error(line, at: cursor.peek, .choicesNotClosed)
                return nil
            }
            if choices.count > Question.maximumChoices {
                error(
                    line, line.tokens[0].column, .tooManyChoices(count: choices.count, limit: Question.maximumChoices))
            }
        }
        return Question(anchor: anchor, prompt: prompt, choices: choices, line: line.number)
    }

    /// `at TIME`, `at step N` or `after EVENT`: where a line of the lesson is tied to the trace.
    func parseAnchor(
        _ cursor: inout TokenCursor, _ line: ScenarioLine, for anchored: ScenarioProblem.AnchoredLine
    ) -> Narration.Anchor? {
        if cursor.accept("after") { return parseEventPattern(&cursor, line).map { .after($0) } }
        guard cursor.accept("at") else {
            error(line, at: cursor.peek, .missingAnchor(anchored))
            return nil
        }
        if cursor.accept("step") {
            guard let step = expectInteger(&cursor, line, what: .stepNumber) else {
                return nil
            }
            if step < 1 { error(line, at: cursor.last, .stepsCountedFromOne) }
            return .step(step)
        }
        return expectDuration(&cursor, what: .timeSinceStart).map { .time($0) }
    }
}
