extension Expectation {
    /// How many of the events a failed claim counted are listed in its report.
    static let claimReportLimit = 5

    /// `expect` alone: every claim is checked on the whole trace; the report names each one that fails, with the
    /// events it counted (or, for one that never happened, the nearest events of its kind).
    func checkClaims(_ trace: some RandomAccessCollection<LoopEvent>) -> Failure? {
        var failures: [String] = []
        var failed: [Int] = []
        let withThread = Set(trace.map(\.loop)).count > 1
        for (index, step) in steps.enumerated() {
            guard let report = Self.claimReport(step, written: "\(step)", in: trace, withThread: withThread) else {
                continue
            }
            failures.append(report)
            failed.append(index)
        }
        guard let first = failed.first else { return nil }
        let what = failures.count == 1 ? "1 claim does not hold" : "\(failures.count) claims do not hold"
        return Failure(
            step: first, report: "expect (line \(line)): \(what)\n" + failures.joined(), failedSteps: failed)
    }

    /// The report of one claim on `trace` (`written` is how its line reads, after `- `): nil when it holds,
    /// otherwise the events it counted or, for one that never happened, the nearest events of its kind. A `say`
    /// line's claims (`claims later …`) are judged and reported by this too, on the part of the trace they reach.
    static func claimReport(
        _ step: Step, written: String, in trace: some RandomAccessCollection<LoopEvent>, withThread: Bool
    ) -> String? {
        let matching = trace.filter(step.matches)
        let count = step.count ?? .atLeast(1)
        guard !count.holds(matching.count) else { return nil }
        var report = "  - \(written)   (line \(step.line))\n"
        if matching.isEmpty {
            report += "  + it never happened"
            let near = trace.filter { $0.kind == step.kind && (step.name == nil || $0.name == step.name) }
            if near.isEmpty {
                report += "\n"
            } else {
                report += "; \(step.kind.rawValue) events: \(near.count)\n"
                for event in near.prefix(Self.claimReportLimit) {
                    report += "      \(render(event, withThread: withThread))\n"
                }
            }
        } else {
            report += "  + it happened \(Expectation.Count.exactly(matching.count).timesWord):\n"
            for event in matching.prefix(Self.claimReportLimit) {
                report += "      \(render(event, withThread: withThread))\n"
            }
            if matching.count > Self.claimReportLimit {
                report += "      … (\(matching.count - Self.claimReportLimit) more)\n"
            }
        }
        return report
    }
}

extension Expectation.Count {
    /// `once`, `3 times`, `0 times`: a count of events as a report says it.
    var timesWord: String {
        guard case .exactly(let n) = self else { return description }
        return n == 1 ? "once" : "\(n) times"
    }
}
