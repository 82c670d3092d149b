import LoopEngine

/// `loopviz explore`'s words: each distinct outcome once, its count, where it leaves the default, its id.
enum ExploreReport {
    /// The whole report of one exploration of `path` (`variant`: which jittered copy, nil for the file as written).
    /// `variants`: the outcomes found only in a jittered copy of the file, by place, with that copy's name.
    static func text(
        _ found: ScheduleExplorer.Exploration, path: String, variants: [Int: String] = [:], jitter: Duration? = nil
    ) -> String {
        let safe = TerminalSafeText.terminalSafe
        let file = safe(path) + (jitter.map { " (and its times moved by \(words($0)) each way)" } ?? "")
        let run = found.schedulesRun
        let distinct = found.outcomes.count
        var lines = [
            "\(file): \(run) schedule\(run == 1 ? "" : "s"), \(distinct) distinct outcome\(distinct == 1 ? "" : "s")"
                + " (\(found.isComplete ? "every schedule run" : "not every schedule run")); at most "
                + "\(found.mostBranchPoints) branch point\(found.mostBranchPoints == 1 ? "" : "s") in a run"
        ]
        guard let reference = found.outcomes.first else { return lines.joined(separator: "\n") }
        for (index, outcome) in found.outcomes.enumerated() {
            lines.append("")
            let count = "\(outcome.schedules) schedule\(outcome.schedules == 1 ? "" : "s")"
            lines.append("outcome \(index + 1)\(index == 0 ? " (the default schedule's)" : ""): \(count)")
            if let variant = variants[index] {
                lines.append("  found with \(variant), schedule \(outcome.schedule.id) (not replayable from the file)")
            } else {
                lines.append("  schedule \(outcome.schedule.id)")
                lines.append("  replay: loopviz run --schedule \(outcome.schedule.id) \(safe(path))")
            }
            if let departure = outcome.departure { lines.append("  first choice apart: \(safe(departure.words))") }
            if let divergence = outcome.observable.firstDivergence(from: reference.observable) {
                lines.append("  first step apart: \(safe(divergence.words))")
            }
            lines.append(
                "  steps: "
                    + outcome.observable.threads.map { "\(safe($0.name)) \($0.events.count)" }
                    .joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The progress line on standard error.
    static func progress(_ path: String, schedules: Int, outcomes: Int) -> String {
        "\(TerminalSafeText.terminalSafe(path)): explored \(schedules) schedules so far, \(outcomes) distinct outcomes"
    }

    /// What a bound cut, for standard error: the space is larger than what was run.
    static func bounds(_ found: ScheduleExplorer.Exploration, path: String) -> [String] {
        let file = TerminalSafeText.terminalSafe(path)
        var notes: [String] = []
        switch found.stop {
        case .scheduleLimit(let limit)?:
            notes.append(
                "\(file): stopped at --max-schedules \(limit) with \(LoopEvent.count(found.schedulesLeft, "more schedule")) known (and "
                    + "perhaps more beyond them); the outcomes printed are those of the schedules run")
        case .timeLimit(let limit)?:
            notes.append(
                "\(file): stopped at --time-limit \(words(limit)) after \(found.schedulesRun) schedules, with "
                    + "\(LoopEvent.count(found.schedulesLeft, "more schedule")) known (and perhaps more beyond them); the outcomes printed are "
                    + "those of the schedules run")
        case nil: break
        }
        if found.branchPointsCut {
            notes.append(
                "\(file): a run met more than \(Schedule.maximumBranchPoints) branch points; the later ones took the "
                    + "default order and were not explored")
        }
        if found.reachedEventLimit {
            notes.append("\(file): a run reached the event budget (--max-events); its outcome is that of a cut run")
        }
        return notes
    }

    /// `jitter 3 of 12`: which copy of the file, one family of its times moved.
    static func variantName(_ index: Int, of count: Int) -> String {
        "jitter \(index) of \(count)"
    }

    /// `2ms`, `0.5ms`: a duration as the language writes it.
    static func words(_ duration: Duration) -> String {
        let nanoseconds = duration.nanosecondsClamped
        if nanoseconds % 1_000_000 == 0 { return "\(nanoseconds / 1_000_000)ms" }
        if nanoseconds % 1_000 == 0 { return "\(nanoseconds / 1_000)us" }
        return "\(nanoseconds)ns"
    }
}
