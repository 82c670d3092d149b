/// A parsed `.loop` file: the scenario to run, the narration for the UI, and what the lesson promises.
public struct LoopScript: Sendable, Equatable {
    public var scenario: Scenario
    /// Lines a teacher wants shown, tied to a time or to a step of the trace.
    public var narration: [Narration]
    /// The `expect` sections, checked by `loopviz check`.
    public var expectations: [Expectation]
    /// How far a headless run goes when the file says (`until 2s`); nil: until every program ends.
    public var until: Duration?
    /// The header comment (the lines starting with `#` before anything else): what the lesson teaches.
    public var header: [String]

    public init(
        scenario: Scenario, narration: [Narration] = [], expectations: [Expectation] = [], until: Duration? = nil,
        header: [String] = []
    ) {
        self.scenario = scenario
        self.narration = narration
        self.expectations = expectations
        self.until = until
        self.header = header
    }
}

/// A line of narration (`say "…" at 250ms`, or `say "…" at step 12`).
public struct Narration: Sendable, Equatable {
    public enum Anchor: Sendable, Equatable {
        case time(Duration)
        /// The 1-based number of an event in the full trace.
        case step(Int)
    }

    public var anchor: Anchor
    public var text: String

    public init(anchor: Anchor, text: String) {
        self.anchor = anchor
        self.text = text
    }
}
