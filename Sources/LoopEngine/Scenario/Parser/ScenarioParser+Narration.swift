/// The parser: narration (`say`) and its languages.
extension ScenarioParserState {
    /// The language tag of a `say` line (`say zh "…"`): `.en` when there is none, nil (and an error) when the word
    /// before the text is not a language.
    func parseLanguage(_ cursor: inout TokenCursor) -> Language? {
        guard let token = cursor.peek, token.isWord, cursor.peekSecond?.kind == .string else { return .en }
        _ = cursor.next()
        guard let language = Language(rawValue: token.text) else {
            error(cursor.line, at: token, .unknownLanguage(token.text))
            return nil
        }
        return language
    }

    /// A `say` action: a note in the trace, or (`say zh "…"`) the translation of the `say` action right before it,
    /// which is no action of its own: the trace, and so every step number, is the same in every language.
    func parseNote(_ cursor: inout TokenCursor, _ line: ScenarioLine, previous: String?) -> [Action] {
        let language = parseLanguage(&cursor)
        guard let text = expectString(&cursor, what: .sayText), let language else {
            previousNote = nil
            return []
        }
        guard language != .en else {
            previousNote = text
            return [.note(text)]
        }
        guard let previous else {
            error(line, at: line.tokens.first, .translationWithoutOriginal(language))
            return []
        }
        noteTranslations[language, default: [:]][previous] = text
        previousNote = previous
        return []
    }

    func parseNarration(_ cursor: inout TokenCursor, _ line: ScenarioLine) -> Narration? {
        let language = parseLanguage(&cursor)
        guard let text = expectString(&cursor, what: .narrationText), let language else { return nil }
        if cursor.accept("after") {
            guard let event = parseEventPattern(&cursor, line) else { return nil }
            return Narration(anchor: .after(event), text: text, language: language)
        }
        guard cursor.accept("at") else {
            error(line, at: cursor.peek, .missingAnchor(.say))
            return nil
        }
        if cursor.accept("step") {
            guard let step = expectInteger(&cursor, line, what: .stepNumber) else {
                return nil
            }
            if step < 1 { error(line, at: cursor.last, .stepsCountedFromOne) }
            return Narration(anchor: .step(step), text: text, language: language)
        }
        guard let time = expectDuration(&cursor, what: .timeSinceStart) else { return nil }
        return Narration(anchor: .time(time), text: text, language: language)
    }
}
