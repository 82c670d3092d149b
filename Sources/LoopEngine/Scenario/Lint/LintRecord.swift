/// What the lint (`ScenarioParserState+Lint.swift`) needs from the parser, noted as the file is read: the names
/// event patterns use (`expect`, `say … after`, `claims`, `ask` choices), the modes runs enter, the modes items
/// are declared in and added to, each with where it was written. Checked once the whole file is read.
struct LintRecord {
    /// A name an event pattern gives its event (`timer rendr`, `runStart Trackng`) or a mode it names (`in …`).
    struct PatternName {
        var kind: LoopEvent.Kind?
        var name: String
        var line: ScenarioLine
        var column: Int
    }

    /// A mode written at a place: a run's, an item declaration's, or an `add … to`'s.
    struct ModeUse {
        var mode: ModeName
        /// The items it concerns (none for a run).
        var items: [String]
        var line: ScenarioLine
        var column: Int
    }

    var patternItems: [PatternName] = []
    var patternModes: [PatternName] = []
    var runs: [ModeUse] = []
    var declarations: [ModeUse] = []
    var additions: [ModeUse] = []
    /// True once a pattern names `result finished` or `returned false`: the file expects some run to find its
    /// mode empty.
    var expectsEmptyRun = false
    /// The items a `never` claim names (`claims later never timer refresh`): the file expects them not to run.
    var itemsClaimedNever: Set<String> = []

    /// The kinds of event whose name is an item of the file.
    static let itemKinds: Set<LoopEvent.Kind> = [
        .source0, .source1, .timer, .observer, .signal, .send, .schedule, .cancel, .invalidate,
    ]
}
