/// Checking a `say` line's claims: each one, at each point the line is shown, with the checker of `expect` lines
/// (`Expectation.Step.matches` and the claims' counting and report).
extension SayClaims {
    /// The events the line is shown from: a top-level line's anchor (the first event it names, as the UI finds
    /// it), or every note a `say` action wrote.
    func points<Trace: RandomAccessCollection<LoopEvent>>(in trace: Trace) -> [Trace.Index] {
        switch anchor {
        case .narration(let anchor):
            var offset = 0
            for index in trace.indices {
                if anchor.matches(trace[index], at: offset) { return [index] }
                offset += 1
            }
            return []
        case .note(let words):
            return trace.indices.filter {
                if case .note(.say(let said)) = trace[$0].fact { said == words } else { false }
            }
        }
    }

    /// Checks the claims on `trace`: nil when every one holds at every point the line is shown (a say action that
    /// never runs is never shown); otherwise a readable report naming the say (its words safe and cut as a
    /// diagnostic quotes them), where it is shown, each claim that fails there and what happened instead (for a
    /// line shown several times, the first point where one fails).
    package func failure(in trace: some RandomAccessCollection<LoopEvent>, withThread: Bool) -> String? {
        let said = "say (line \(line)) \"\(DiagnosticMessage.shown(text))\""
        let points = points(in: trace)
        // A top-level line whose event never happens is a lesson's mistake; a say action that never runs (a
        // program that hangs before it, a callout never called) is never shown, so it claims nothing.
        if points.isEmpty, case .narration = anchor {
            return "\(said): its event never happens, so what it claims cannot hold\n"
                + claims.map { "  - claims \($0)   (line \($0.step.line))\n" }.joined()
        }
        for point in points {
            let failures = claims.compactMap { $0.failure(at: point, in: trace, withThread: withThread) }
            guard failures.isEmpty else {
                let step = trace.distance(from: trace.startIndex, to: point) + 1
                let event = Expectation.render(trace[point], withThread: withThread)
                return "\(said), shown from step \(step) (\(event)):\n" + failures.joined()
            }
        }
        return nil
    }
}

extension NarrationClaim {
    /// The report lines of this claim when it fails at `point`, the say's event in `trace`; nil when it holds.
    func failure<Trace: RandomAccessCollection<LoopEvent>>(
        at point: Trace.Index, in trace: Trace, withThread: Bool
    ) -> String? {
        let written = "claims \(self)"
        // The say's event is shown with the line: it has happened (`earlier`); `next` and `later` look past it.
        let after = trace[trace.index(after: point)...]
        switch reach {
        case .later:
            return Expectation.claimReport(step, written: written, in: after, withThread: withThread)
        case .earlier:
            return Expectation.claimReport(
                step, written: written, in: trace[...point], withThread: withThread)
        case .next:
            let wanted = "  - \(written)   (line \(step.line))\n"
            guard let found = after.firstIndex(where: step.isCandidate) else {
                return wanted + "  + no \(step.subject) comes from here on\n"
            }
            if step.matches(trace[found]) { return nil }
            let number = trace.distance(from: trace.startIndex, to: found) + 1
            return wanted + "  + the next \(step.subject) is step \(number): "
                + Expectation.render(trace[found], withThread: withThread) + "\n"
        }
    }
}

extension Expectation.Step {
    /// True when `event` is of the kind this step names (on its thread, when it names one): what `claims next`
    /// takes as the next event, before it checks the rest (its name, time, mode, answer).
    func isCandidate(_ event: LoopEvent) -> Bool {
        guard event.kind == kind, thread == nil || event.loop == thread else { return false }
        if returned != nil { return event.returnedValue != nil }
        if let query { return event.queryFact?.question == query.question }
        return true
    }

    /// What `claims next` looks for, in a report: `result`, `worker: timer`, `returned`, `query currentMode`.
    var subject: String {
        let what =
            if returned != nil { "returned" } else if let query {
                TerminalSafeText.terminalSafe("query \(query.question.words)")
            } else { kind.rawValue }
        return thread.map { "\(TerminalSafeText.terminalSafe($0)): \(what)" } ?? what
    }
}

extension LoopScript {
    /// How many claims the file's `say` lines make.
    package var sayClaimCount: Int { sayClaims.reduce(0) { $0 + $1.claims.count } }

    /// Checks the claims of every `say` line on `trace` (the run `loopviz check` makes): one report per line
    /// whose claims do not all hold, in file order.
    package func sayClaimFailures(in trace: some RandomAccessCollection<LoopEvent>) -> [String] {
        guard !sayClaims.isEmpty else { return [] }
        let withThread = Set(trace.lazy.map(\.loop)).count > 1
        return sayClaims.sorted { $0.line < $1.line }.compactMap { $0.failure(in: trace, withThread: withThread) }
    }
}
