/// Compares an engine trace with one recorded from the real CFRunLoop.
///
/// Only what a program can observe of the real CFRunLoop is compared: the six activities (seen through an
/// observer), the callouts, each run's start and result, the Bool each `run(mode:before:)` of the program
/// returns and the answer of each query. Sequences must be identical; times, and the dates queries answer, must
/// agree within a tolerance (real threads are late by scheduling noise).
package struct TraceComparison: Sendable {
    /// The compared steps of each side.
    package let engine: [LoopEvent]
    package let reference: [LoopEvent]
    /// Index of the first step that differs in kind or name, if any.
    package let firstDifference: Int?
    /// Steps whose kind and name agree but whose times differ by more than the tolerance.
    package let lateSteps: [Int]
    package let tolerance: Duration

    /// True when both sequences agree and every time is within the tolerance.
    package var agrees: Bool { firstDifference == nil && lateSteps.isEmpty }

    /// Compares the steps of `engine` with those of `reference`.
    /// - Parameters:
    ///   - engine: the engine's trace.
    ///   - reference: the real CFRunLoop's trace of the same scenario.
    ///   - tolerance: how far apart the two times of a step may be.
    ///   - ignoringRunBoundaries: leave run starts and results out (a wrapper's inner runs, which the reference
    ///     cannot see).
    ///   - includingSayNotes: also compare the program's own notes (`say`), which both sides record where the
    ///     program reaches them: what a thread that runs no loop shows of its progress (``ThreadedTraceComparison``).
    ///   - sourceCallouts: the version-0 sources whose `schedule` and `cancel` callouts are compared (the real
    ///     CF calls them only for a version-0 source whose context has them: the scenario's own source0s, not
    ///     its ports nor the perform source); their commands' `performed` and `dropped` steps are compared too
    ///     (a `posted` one happens on the client's thread, in no fixed order against the loop's own steps).
    package init(
        engine: [LoopEvent], reference: [LoopEvent], tolerance: Duration = .milliseconds(20),
        ignoringRunBoundaries: Bool = false, includingSayNotes: Bool = false, sourceCallouts: Set<String> = []
    ) {
        let keep: (LoopEvent) -> Bool = { event in
            Self.isObservable(
                event, ignoringRunBoundaries: ignoringRunBoundaries, includingSayNotes: includingSayNotes,
                sourceCallouts: sourceCallouts)
        }
        self.engine = engine.filter(keep)
        self.reference = reference.filter(keep)
        self.tolerance = tolerance
        var difference: Int?
        var late: [Int] = []
        for index in 0..<max(self.engine.count, self.reference.count) {
            guard index < self.engine.count, index < self.reference.count,
                Self.sameStep(self.engine[index], self.reference[index], tolerance: tolerance)
            else {
                difference = index
                break
            }
            let gap = self.engine[index].time - self.reference[index].time
            if gap > tolerance || gap < .zero - tolerance { late.append(index) }
        }
        firstDifference = difference
        lateSteps = late
    }

    /// True for a step a program can observe of its loop, the steps compared: activities, callouts, run starts
    /// and results (unless `ignoringRunBoundaries`), the Bools `run(mode:before:)` returns, query answers, the
    /// program's `say` notes (with `includingSayNotes`), and the schedule and cancel callouts and commands of
    /// `sourceCallouts`. `loopviz explore` groups runs by these steps too.
    package static func isObservable(
        _ event: LoopEvent, ignoringRunBoundaries: Bool = false, includingSayNotes: Bool = true,
        sourceCallouts: Set<String> = []
    ) -> Bool {
        if event.kind == .runStart || event.kind == .result { return !ignoringRunBoundaries }
        if includingSayNotes, case .note(.say) = event.fact { return true }
        // libdispatch's own job after an asyncAfter handler runs nothing a program can see; its drain's
        // activities are compared.
        if case .job(.asyncAfterTeardown) = event.fact { return false }
        if event.kind == .schedule || event.kind == .cancel { return sourceCallouts.contains(event.name ?? "") }
        if case .command(let step) = event.fact, sourceCallouts.contains(step.source) {
            return step.outcome == .performed || step.outcome == .dropped
        }
        // The Bool of run(mode:before:) is what the program itself sees: both sides record it.
        // So are the answers of its queries.
        return event.kind.isActivity || event.kind.isCallout || event.returnedValue != nil
            || event.kind == .query
    }

    /// True when the two events are the same step: the same kind and name (and, for a schedule or cancel
    /// callout, the same mode: CF calls them in its order of the common modes, docs/cfrunloop.md §11.1; for a
    /// timer callout made by `Timer.fire()`, that fact on both sides), or the
    /// same query with the same answer - a date within `tolerance` of the other (real time passes while the real
    /// CF answers).
    static func sameStep(_ engine: LoopEvent, _ reference: LoopEvent, tolerance: Duration) -> Bool {
        if engine.kind == .schedule || engine.kind == .cancel {
            return engine.step == reference.step && engine.fact == reference.fact
        }
        if case .fireCalled = engine.fact {
            // A callout of Timer.fire() is not the loop's: both sides must say so (and whether it repeats).
            return engine.step == reference.step && engine.fact == reference.fact
        }
        if case .fireCalled = reference.fact { return false }
        guard let (question, answer) = engine.queryFact, let (otherQuestion, otherAnswer) = reference.queryFact
        else { return engine.step == reference.step }
        guard question == otherQuestion else { return false }
        if case .date(let date) = answer, case .date(let otherDate) = otherAnswer {
            let gap = date - otherDate
            return gap <= tolerance && gap >= .zero - tolerance
        }
        return answer == otherAnswer
    }

    /// The two traces side by side, the first difference marked with `>>`, late steps with `~`.
    package func sideBySide(engineTitle: String = "LoopEngine", referenceTitle: String = "CFRunLoop") -> String {
        var rows: [[String]] = [["", "#", engineTitle, "", referenceTitle, ""]]
        for index in 0..<max(engine.count, reference.count) {
            let marker = index == firstDifference ? ">>" : (lateSteps.contains(index) ? "~" : "")
            let left = index < engine.count ? engine[index] : nil
            let right = index < reference.count ? reference[index] : nil
            rows.append([
                marker, String(index), left.map { $0.time.description } ?? "", left.map(Self.cell) ?? "",
                right.map { $0.time.description } ?? "", right.map(Self.cell) ?? "",
            ])
        }
        // Cells carry names from the scenario file: shown terminal-safe, escaped before the columns are measured.
        return TextTraceFormatter.align(rows.map { $0.map(TerminalSafeText.terminalSafe) })
    }

    private static func cell(_ event: LoopEvent) -> String {
        var step = event.step
        // A schedule or cancel callout is compared with its mode, so it is shown with it.
        if event.kind == .schedule || event.kind == .cancel, let detail = event.detail { step += " (\(detail))" }
        return String(repeating: "  ", count: max(0, event.depth - 1)) + step
    }
}
