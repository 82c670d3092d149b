/// A parsed `.loop` file: the scenario to run, the narration for the UI, and what the lesson promises.
public struct LoopScript: Sendable, Equatable {
    /// What to run: the threads, their items and programs, the outside events.
    public var scenario: Scenario
    /// Lines a teacher wants shown, tied to a time or to a step of the trace.
    package var narration: [Narration]
    /// The `expect` sections, checked by `loopviz check`.
    public var expectations: [Expectation]
    /// How far a headless run goes when the file says (`until 2s`); nil: until every program ends.
    public var until: Duration?
    /// The header comment (the lines starting with `#` before anything else): what the lesson teaches.
    package var header: [String]
    /// The translations of the `say` actions of programs and callouts (`say zh "…"` right after a `say "…"`), per
    /// language, by the English text: the note in the trace stays English (a trace is the same in every
    /// language), the UI shows its translation.
    package var noteTranslations: [Language: [String: String]] = [:]
    /// The `ask` lines: where the UI's quiz asks what the loop does next.
    package var questions: [Question] = []
    /// The `say` lines that rest on claims (`claims next result handledSource` under them), top-level and in
    /// programs, for `loopviz check`.
    package var sayClaims: [SayClaims] = []
    /// What the lint warns about (a mode run empty, or items in a mode no run enters): the file runs, but
    /// probably not as meant. `check` prints them; `check --strict` fails on them.
    package var warnings: [ScenarioDiagnostic] = []

    package init(
        scenario: Scenario, narration: [Narration] = [], expectations: [Expectation] = [], until: Duration? = nil,
        header: [String] = []
    ) {
        self.scenario = scenario
        self.narration = narration
        self.expectations = expectations
        self.until = until
        self.header = header
    }

    /// The words of a note (a `say` action's text, as the trace has it) in `language`: its translation when the
    /// file gives one, else the English text.
    package func note(_ words: String, in language: Language) -> String {
        noteTranslations[language]?[words] ?? words
    }
}

extension LoopScript {
    /// The header read as a lesson card: what the UI shows when the lesson opens and the picker files it under.
    package var card: LessonCard { LessonCard(header: header) }
}

/// A line of narration (`say "…" at 250ms`, `say "…" after timer tick`, or `say "…" at step 12`), shown from
/// the event its anchor names on.
package struct Narration: Sendable, Equatable {
    package enum Anchor: Sendable, Equatable {
        /// The first event at this time or later.
        case time(Duration)
        /// The 1-based number of an event in the full trace.
        case step(Int)
        /// The first event this pattern matches (written as an `expect` line writes it).
        case after(Expectation.Step)

        /// True when `event`, the `index`-th (0-based) of the full trace, is the one this anchor names, or the
        /// first one after it.
        package func matches(_ event: LoopEvent, at index: Int) -> Bool {
            switch self {
            case .time(let time): event.time >= .zero + time
            case .step(let step): index >= step - 1
            case .after(let pattern): pattern.matches(event)
            }
        }
    }

    package var anchor: Anchor
    package var text: String
    /// The language of the line: `.en` unless tagged (`say zh "…" after sleep`).
    package var language: Language = .en

    package init(anchor: Anchor, text: String) {
        self.anchor = anchor
        self.text = text
    }

    package init(anchor: Anchor, text: String, language: Language) {
        self.anchor = anchor
        self.text = text
        self.language = language
    }
}
