import LoopEngine

/// The end of a lesson: each `expect` line checked against what happened in this session (with the same checker
/// as `loopviz check`), and the `say` lines whose claims this run does not keep, whether the user's pokes made this run differ from the lesson's, and its "Try"
/// suggestions again. Worked out once, when the last step is reached; `render` only draws it.
struct LessonSummary: Equatable {
    /// One `expect` line and what this run made of it.
    struct Line: Equatable {
        enum Verdict: Equatable {
            /// The run did this.
            case held
            /// A line the run did not keep (the checker's report says what happened instead): in a list the
            /// first one, among claims each one.
            case differs
            /// In a list, after a line that differs: each line is looked for after the one before, so these are
            /// not judged. Claims are never unchecked: each is judged alone.
            case unchecked
        }

        var verdict: Verdict
        /// The line as written (``Expectation/Step/description``), terminal-safe.
        var text: String
        var line: Int
    }

    /// One `expect` section.
    struct Section: Equatable {
        var mode: Expectation.Mode
        var line: Int
        var lines: [Line]
        /// The checker's report when the section does not hold (`- expected`, `+ what happened`).
        var report: [String]
        /// `expect exactly`: the run went on after the last line (every line held, and there was more).
        var ranOn: Bool
    }

    var title: String
    var sections: [Section]
    /// What the user did to this run (the pokes' labels), in order.
    var pokes: [String]
    /// With pokes: whether the lesson's own run (without them) keeps every line; nil without pokes.
    var lessonRunHolds: Bool?
    var tries: [String]
    /// The `say` lines whose claims (`claims next …`) this run does not keep: the checker's report, line by line,
    /// as `loopviz check` prints it; empty when every claim holds.
    var claimReport: [String] = []
    /// The first line shown, when the summary is taller than its box.
    var scroll = 0

    var lineCount: Int { sections.reduce(0) { $0 + $1.lines.count } }
    var differing: Int { sections.reduce(0) { $0 + $1.lines.count { $0.verdict == .differs } + ($1.ranOn ? 1 : 0) } }
    var unchecked: Int { sections.reduce(0) { $0 + $1.lines.count { $0.verdict == .unchecked } } }

    /// The summary of `model`'s session at its last step; `tries` from the lesson's card.
    init(_ model: AppModel, tries: [String]) {
        let session = model.session
        let script = session.script
        // Terminal-safe before the box wraps them: an escape is wider than the character it shows.
        title = TerminalSafeText.terminalSafe(script.scenario.name)
        self.tries = tries.map(TerminalSafeText.terminalSafe)
        pokes = session.interventions.map(\.label)
        sections = script.expectations.map { Self.section($0, session.trace) }
        claimReport = script.sayClaimFailures(in: session.trace).flatMap { $0.split(separator: "\n").map(String.init) }
        if pokes.isEmpty {
            lessonRunHolds = nil
        } else {
            // The lesson's run as `loopviz check` makes it: the file alone, as far as the session ran.
            let outcome = ScenarioRunner.run(script.scenario, horizon: session.horizon, maxEvents: session.maxEvents)
            lessonRunHolds =
                !outcome.reachedEventLimit && script.expectations.allSatisfy { $0.failure(in: outcome.trace) == nil }
        }
    }

    static func section(_ expectation: Expectation, _ trace: LoopTrace) -> Section {
        let failure = expectation.failure(in: trace)
        let broken = failure?.step ?? expectation.steps.count
        let failed = Set(failure?.failedSteps ?? [])
        let lines = expectation.steps.enumerated().map { index, step in
            let verdict: Line.Verdict =
                if expectation.mode == .claims {
                    failed.contains(index) ? .differs : .held
                } else {
                    index < broken ? .held : index == broken ? .differs : .unchecked
                }
            return Line(verdict: verdict, text: step.description, line: step.line)
        }
        let report = failure.map { $0.report.split(separator: "\n").dropFirst().map(String.init) } ?? []
        return Section(
            mode: expectation.mode, line: expectation.line, lines: lines, report: report,
            ranOn: failure != nil && broken == expectation.steps.count)
    }
}
