/// A point where a lesson asks the student to predict the loop's next step (`ask "What runs next?" after
/// beforeSources`), anchored as a `say` line is; the UI's quiz mode stops there.
package struct Question: Sendable, Equatable {
    /// The event after which the question is asked (its next step on that event's thread is the answer).
    package var anchor: Narration.Anchor
    /// The question, as the lesson words it (terminal-safe only once it is shown).
    package var prompt: String
    /// The choices the lesson offers (`ask "…" at 100ms: sleep, source0 render`); empty: the UI makes them from
    /// what the engine could do at that point. Either way the real next step is always one of them.
    package var choices: [Expectation.Step]
    /// Where it was written.
    package var line: Int

    package init(anchor: Narration.Anchor, prompt: String, choices: [Expectation.Step] = [], line: Int) {
        self.anchor = anchor
        self.prompt = prompt
        self.choices = choices
        self.line = line
    }

    /// The most choices a question shows.
    package static let maximumChoices = 4
}
