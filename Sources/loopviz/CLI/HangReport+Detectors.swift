import LoopEngine

/// `loopviz hangs --detector`: what each SDK's detector, replayed over the same trace, made of each segment listed,
/// the reports it would have made while the loop slept, and a line of totals each.
extension HangReport {
    /// The detectors' outcomes, in the order they were asked for.
    struct DetectorLab {
        var outcomes: [(HangDetector.Replay, HangDetector.Replay.Outcome)]
        var commonModes: Set<String>
    }

    /// A detector's line under a listed segment: reported, missed (and why), or not its hang.
    static func line(
        _ replay: HangDetector.Replay, _ outcome: HangDetector.Replay.Outcome, _ segment: BusySegment
    )
        -> String
    {
        let detector = replay.detector
        let threshold = replay.settings.threshold
        let head = "  \(detector.rawValue): "
        guard segment.loop == outcome.loop else { return head + "not watched (it watches the main thread only)\n" }
        let inside = { (time: LoopInstant) in time >= segment.start && time <= segment.end }
        if let report = outcome.reports.first(where: { inside($0.reportedAt) && $0.isBusy(threshold) }) {
            return head
                + "reported at \(report.reportedAt), \(LoopEvent.seconds(report.measured)) into its window (from \(report.windowStart))\n"
        }
        if let miss = outcome.missed.first(where: { $0.start <= segment.end && $0.end >= segment.start }) {
            return head + "missed: \(words(miss.reason, replay.settings))\n"
        }
        if !detector.reaches(segment.length, threshold) {
            let than = detector == .matrix ? "not longer than" : "shorter than"
            return head + "not its hang: \(than) its threshold \(LoopEvent.seconds(threshold))\n"
        }
        return head + "not reported\n"
    }

    /// Why a detector let a busy stretch as long as its threshold pass.
    static func words(_ miss: HangDetector.Miss, _ settings: HangDetector.Settings) -> String {
        let threshold = LoopEvent.seconds(settings.threshold)
        switch miss {
        case .windowsCut(let longest, let kind):
            let cut = kind.map { " (\($0.rawValue) ended or began one while the loop was busy)" } ?? ""
            return
                "its windows inside were shorter than its threshold \(threshold)\(cut); the longest \(LoopEvent.seconds(longest))"
        case .lookedTooLate(let window, let period):
            return
                "its window reached \(LoopEvent.seconds(window)), but its thread, looking every \(LoopEvent.seconds(period)), did not look between \(threshold) into it and its end"
        case .beforeFirstLook(let delay):
            return "it ended before the detector's first look, \(LoopEvent.seconds(delay)) after it started"
        case .pingsAnswered(let wait):
            return
                "the main queue ran its pings in time (the longest wait \(LoopEvent.seconds(wait)), under its threshold \(threshold)): the loop looked at the main queue between its callouts"
        case .notObserved(let mode):
            let name = mode.map(TerminalSafeText.terminalSafe) ?? "no name"
            return "the loop ran it in a run of mode \(name), which its observers are not in"
        }
    }

    /// One sentence per detector: what it is, as set.
    static func describe(_ detector: HangDetector, _ settings: HangDetector.Settings) -> String {
        let threshold = LoopEvent.seconds(settings.threshold)
        let period = settings.period.map(LoopEvent.seconds) ?? "-"
        var text: String
        switch detector {
        case .sentry:
            text =
                "sentry (SentryANRTrackerV1): a main-queue ping every \(period); a hang when 5 in a row were not run (\(threshold))"
        case .matrix:
            text =
                "matrix (WCBlockMonitorMgr): observers at LONG_MIN and LONG_MAX; a look every \(period) after the first at \(LoopEvent.seconds(settings.firstLook)); a window longer than \(threshold)"
        case .bugsnag:
            text =
                "bugsnag (BSGAppHangDetector): an observer at INT_MAX; a unit from afterWaiting or beforeSources to the next beforeSources or beforeWaiting; a deadline \(threshold) after it began"
        case .kscrash:
            text =
                "kscrash (KSCrashMonitor_Watchdog): an observer at order 0; a window from afterWaiting to beforeWaiting; a timer every \(period), a hang at \(threshold)"
        }
        if let refused = settings.refusedThreshold {
            text += "; it does not take a threshold of \(LoopEvent.seconds(refused)), so keeps \(threshold)"
        }
        return text
    }

    /// The lab's lines after the segments: each detector's settings and totals, and each report made while the
    /// loop slept.
    func detectorText() -> String {
        guard let lab = detectorLab else { return "" }
        let modes = lab.commonModes.sorted().map(TerminalSafeText.terminalSafe).joined(separator: ", ")
        let watched = lab.outcomes.first?.1.loop.map(TerminalSafeText.terminalSafe) ?? "no thread"
        var out = "detectors (replayed on \(watched); common modes: \(modes)):\n"
        for (replay, outcome) in lab.outcomes {
            let threshold = replay.settings.threshold
            let reports = outcome.reports.count + outcome.reportsNotKept
            let falseOnes = outcome.reports.filter { !$0.isBusy(threshold) }
            let missed = outcome.missed.count + outcome.missesNotKept
            out += "  \(Self.describe(replay.detector, replay.settings))\n"
            out += "    \(LoopEvent.count(reports, "report")) (\(falseOnes.count) while the loop slept),"
            out += " \(missed) missed (busy stretches as long as its threshold, not reported)\n"
            for report in falseOnes {
                let mode = report.mode.map(TerminalSafeText.terminalSafe) ?? "no name"
                out += "    not a hang: at \(report.reportedAt), a window of \(LoopEvent.seconds(report.measured))"
                out += " from \(report.windowStart), but the loop slept in the kernel for"
                out +=
                    " \(LoopEvent.seconds(report.asleep)) of it (busy at most \(LoopEvent.seconds(report.longestBusy))"
                out += " at a time; the run then was in mode \(mode))\n"
            }
            if outcome.reportsNotKept > 0 {
                out += "    \(LoopEvent.count(outcome.reportsNotKept, "more report")) not listed\n"
            }
        }
        return out
    }
}
