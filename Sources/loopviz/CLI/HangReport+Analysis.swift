import LoopEngine

/// The words of ``HangAnalysis`` under each segment `loopviz hangs` lists: its verdict, the phase that held the
/// time, and each phase's share.
extension HangReport {
    /// The lines under a segment's first line, each indented by two spaces and ending in a newline.
    static func lines(_ analysis: HangAnalysis?) -> String {
        guard let analysis else {
            return "  phases: not analysed (more than \(Analyser.maxEvents) events of its loop in it)\n"
        }
        var out = "  verdict: \(verdict(analysis))\n"
        if let held = analysis.heldBy { out += "  held by: \(description(held))\n" }
        if !analysis.shares.isEmpty {
            let shares = analysis.shares.map {
                "\(name($0.phase)) \(percent($0.time, of: analysis.length)) (\(LoopEvent.seconds($0.time)))"
            }
            out += "  phases: \(shares.joined(separator: ", "))\n"
        }
        return out
    }

    static func verdict(_ analysis: HangAnalysis) -> String {
        switch analysis.verdict {
        case .busy: return "busy (the loop did not sleep in its wait)"
        case .paused(let time):
            let ran = analysis.length - time
            return
                "not the program's work: the process did not run for \(LoopEvent.seconds(time)) of it (stopped by a signal or a debugger, or it had no CPU), busy \(LoopEvent.seconds(ran))"
        case .asleep(let time):
            let awake = analysis.length - time
            return
                "not a hang: asleep in the kernel for \(LoopEvent.seconds(time)) of it (a beforeWaiting ... afterWaiting pair inside), busy \(LoopEvent.seconds(awake))"
        }
    }

    /// A phase's short name, for the list of shares.
    static func name(_ phase: HangAnalysis.Phase) -> String {
        switch phase {
        case .entryObservers: "entry observers"
        case .timerObservers: "beforeTimers observers"
        case .sourcesAndBlocks: "sources and blocks"
        case .polledWork: "polled work"
        case .waitingObservers: "beforeWaiting observers"
        case .asleep: "asleep"
        case .wakeUpWork: "wake-up work"
        case .exitObservers: "exit observers"
        case .nestedRun(let mode): "nested run in \(mode.map(TerminalSafeText.terminalSafe) ?? "an unknown mode")"
        }
    }

    /// What CFRunLoop runs in a phase, for the one that held the time.
    static func description(_ phase: HangAnalysis.Phase) -> String {
        switch phase {
        case .entryObservers: "entry observers (entry -> beforeTimers: the observers of entry)"
        case .timerObservers:
            "beforeTimers observers (beforeTimers -> beforeSources: the observers of beforeTimers; no timer fires there)"
        case .sourcesAndBlocks:
            "sources and blocks (beforeSources -> beforeWaiting: the observers of beforeSources, blocks, version-0 sources)"
        case .polledWork:
            "polled work (beforeSources -> beforeTimers, no wait: blocks, version-0 sources, then the timer, port or main queue the poll found, and blocks)"
        case .waitingObservers: "beforeWaiting observers (the other observers of beforeWaiting)"
        case .asleep: "asleep (beforeWaiting -> afterWaiting: in the kernel)"
        case .wakeUpWork:
            "wake-up work (afterWaiting -> beforeTimers: the observers of afterWaiting, then the timer, port or main queue that woke the loop, and blocks)"
        case .exitObservers: "exit observers (the other observers of exit)"
        case .nestedRun:
            "\(name(phase)) (a run started inside a callout, until the outer run's next activity)"
        }
    }

    /// `99.9%`: a share in tenths of a percent, rounded down.
    static func percent(_ part: Duration, of whole: Duration) -> String {
        let total = whole.nanosecondsClamped
        guard total > 0 else { return "0.0%" }
        let tenths = part.nanosecondsClamped.multipliedReportingOverflow(by: 1000)
        let value =
            tenths.overflow
            ? Int64(Double(part.nanosecondsClamped) / Double(total) * 1000) : tenths.partialValue / total
        return "\(value / 10).\(value % 10)%"
    }
}
