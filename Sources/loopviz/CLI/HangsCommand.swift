import LoopEngine

/// `loopviz hangs FILE`: the busy segments of a trace (or of a scenario's run) that are long enough to be hangs, in
/// KSCrash's classes, each with where it began and ended and the marks the program made inside it; with
/// `--detector`, what SDKs' hang detectors replayed over it make of them.
enum HangsCommand {
    static let command = LoopvizCommand(
        name: "hangs", synopsis: "hangs FILE",
        summary: "List the hangs of a trace (a LoopRecorder recording): exit 1 when there is one.",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--threshold", .text(placeholder: "TIME"),
            help: """
                The shortest segment that counts as a hang (default 250ms). Micro-hangs are
                listed too; a threshold below 100ms lists every segment at least that long.
                """),
        CommandOption(
            "--detector", .text(placeholder: "NAMES"),
            help: """
                Replay SDKs' hang detectors over the trace too: sentry, matrix, bugsnag,
                kscrash (comma-separated), or all. Each runs with its SDK's defaults, or
                with --threshold where it accepts one.
                """),
        CommandOption(
            "--common-modes", .text(placeholder: "MODES"),
            help: """
                The modes of kCFRunLoopCommonModes, comma-separated, for --detector (default:
                default and Apple's tracking and modal-panel modes).
                """),
        EventBudget.declaration(
            help: """
                Read at most N events (default 1000000, at most 10000000); a longer trace is
                refused, a scenario's run stopped (exit 3).
                """),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: List the hangs of a trace: the stretches in which a loop did not sleep.

            USAGE: loopviz hangs FILE [--threshold TIME] [--detector NAMES [--common-modes MODES]]
                                 [--max-events N]

            ARGUMENTS:
              FILE                    A .jsonl trace (recorded with LoopRecorder, or written by `loopviz run
                                      --trace jsonl`), read in one pass; or a .loop scenario, run on the virtual
                                      clock.

            A busy segment runs from the end of a wait (afterWaiting), or a run's entry, to the loop's next
            beforeWaiting (after every observer of it) or the outermost run's exit. Classes (KSCrash's): micro-hang
            100 ms up to 250 ms, hang 250 ms up to 500 ms, severe 500 ms or more. Each is listed with its start, its
            length, its thread, mode and depth, the activities that began and ended it, and the marks inside it;
            then its verdict (busy, asleep in the kernel, or the process did not run), the phase that held the
            time, and, for a recording made with `loopviz record --stacks`, its hottest frames and most frequent
            stack, named from the files the samples lie in.

            The detector lab (--detector): each SDK's published hang detector replayed over the same events, on the
            main thread: sentry (SentryANRTrackerV1, a main-queue ping), matrix (WCBlockMonitorMgr, LONG_MIN and
            LONG_MAX observers), bugsnag (BSGAppHangDetector, an INT_MAX observer), kscrash (KSCrashMonitor_Watchdog,
            an order-0 observer). Under each segment: when each reported it, or why it did not; then each one's
            reports made while the loop slept in the kernel. A scenario's common modes are its main thread's.
            """,
        afterOptions: """
            EXIT STATUS:
              0    no segment as long as the threshold
              1    at least one segment as long as the threshold (a hang): usable in CI
              2    invalid input or usage (a corrupt trace: its line and column)
            \(ExitStatus.helpText(budget: "a scenario's run reached --max-events (a trace longer than that is refused: exit 2)"))
            """)

    static let defaultThreshold: Duration = .milliseconds(250)

    /// Where the events come from: a trace file, read again for each pass, or a scenario's run, kept.
    enum Events {
        case file(String)
        case run(LoopTrace)

        /// Gives each event in order; the exit status when the file cannot be read.
        func each(maxEvents: Int, _ body: (LoopEvent) -> Void) -> ExitStatus? {
            switch self {
            case .file(let path):
                if case .failure(let status) = TraceLoader.stream(path, maxEvents: maxEvents, each: body) {
                    return status
                }
            case .run(let events):
                for event in events { body(event) }
            }
            return nil
        }
    }

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let budget = try EventBudget.limit(scanner)
        var threshold = defaultThreshold
        var asked: Duration?
        if let text = scanner.value("--threshold") {
            guard let value = ScriptLoader.duration(text), value > .zero else { throw thresholdProblem(text) }
            threshold = value
            asked = value
        }
        let choice = try detectorChoice(scanner)
        guard scanner.positional.count == 1, let path = scanner.positional.first else {
            throw scanner.positional.isEmpty
                ? .missingArgument("FILE") : .takesOneArgument(command: "hangs", argument: "FILE")
        }
        // A recording's events are not kept: an hour of them (10⁷) is read in one pass, holding only the open
        // segments and those `hangs` lists. A scenario is run on the virtual clock first, as `run` would.
        let events: Events
        var replays: [HangDetector.Replay]
        if TraceLoader.isTrace(path) {
            events = .file(path)
            replays = choice.replays(threshold: asked, loop: nil, modes: HangDetector.defaultCommonModes)
        } else {
            guard let script = ScriptLoader.loadOrReport(path) else { return .usage }
            let horizon = script.until ?? ScenarioLimits.defaultHorizon
            let outcome = ScenarioRunner.run(script.scenario, horizon: horizon, maxEvents: budget)
            if outcome.reachedEventLimit {
                CommandLine.printError(EventBudget.message(path, limit: budget, reason: outcome.haltReason))
                return .budget
            }
            events = .run(outcome.trace)
            let threads = script.scenario.threads
            let main = threads.first(where: \.isMain) ?? threads.first
            let modes = Set(["default"] + (main?.commonModes.map(\.rawValue) ?? []))
            replays = choice.replays(threshold: asked, loop: main?.name, modes: modes)
        }
        var finder = BusySegment.Finder(keepingAtLeast: HangReport.floor(threshold))
        var symbolizer = StackSymbolizer()
        if let status = events.each(
            maxEvents: budget,
            { event in
                finder.add(event)
                for index in replays.indices { replays[index].add(event) }
                if case .module(let module) = event.fact { symbolizer.add(module: module, path: event.name ?? "") }
            })
        {
            return status
        }
        var report = HangReport(finder.finish(), threshold: threshold)
        if !replays.isEmpty {
            let outcomes = replays.indices.map { (replays[$0], replays[$0].finish()) }
            // Matrix adds a mode of its own; the common modes are those every detector has.
            let common = replays.dropFirst().reduce(replays[0].settings.modes) { $0.intersection($1.settings.modes) }
            report.detectorLab = HangReport.DetectorLab(outcomes: outcomes, commonModes: common)
        }
        // A second pass gives each listed segment its own loop's events, bounded: the phases need them all.
        var analyser = HangReport.Analyser(report.listed)
        if !report.listed.isEmpty, let status = events.each(maxEvents: budget, { analyser.add($0) }) {
            return status
        }
        report.analyses = analyser.finish()
        report.stacks = analyser.samples().map { HangReport.StackSummary($0, symbolizer: &symbolizer) }
        print(report.text(file: path), terminator: "")
        return report.hangs.isEmpty ? .success : .failure
    }
}

/// The segments `hangs` lists and its words for them.
struct HangReport {
    /// The segments at least ``floor(_:)`` long, in the order they began.
    var segments: [BusySegment]
    /// How many segments the trace has, listed or not.
    var total: Int
    /// The longest segment's length, listed or not; nil when there is none.
    var longest: Duration?
    var threshold: Duration
    /// Each listed segment's verdict and phases, in the order of ``listed``; nil for a segment with more events
    /// than ``Analyser/maxEvents`` (empty until the second pass has run).
    var analyses: [HangAnalysis?] = []
    /// The SDKs' detectors replayed over the trace (`--detector`), if asked for.
    var detectorLab: DetectorLab?
    /// Each listed segment's stack samples, named (empty until the second pass has run).
    var stacks: [StackSummary?] = []

    init(_ summary: BusySegment.Finder.Summary, threshold: Duration) {
        segments = summary.kept
        total = summary.count
        longest = summary.longest
        self.threshold = threshold
    }

    /// The shortest segment listed: the threshold, or a micro-hang when the threshold is longer.
    static func floor(_ threshold: Duration) -> Duration { min(threshold, .milliseconds(100)) }

    /// The segments listed: at least the threshold, or at least a micro-hang.
    var listed: [BusySegment] { segments.filter { $0.length >= Self.floor(threshold) } }

    /// The segments at least as long as the threshold.
    var hangs: [BusySegment] { segments.filter { $0.length >= threshold } }

    static func word(_ severity: BusySegment.Severity) -> String {
        switch severity {
        case .slow: "busy"
        case .microHang: "micro-hang"
        case .hang: "hang"
        case .severe: "severe hang"
        }
    }

    func text(file: String) -> String {
        var out = ""
        for (position, segment) in listed.enumerated() {
            let safe = TerminalSafeText.terminalSafe
            let mode = segment.mode.map(safe) ?? "-"
            let ended = segment.endedBy.map(\.rawValue) ?? "the end of the trace"
            // Named against the threshold in force: at it a hang (`--threshold 1ms` too), below it a micro-hang
            // (a 300 ms segment at `--threshold 500ms`), as the totals count them.
            let word =
                segment.length >= threshold
                ? (segment.severity == .severe ? Self.word(.severe) : Self.word(.hang))
                : (segment.severity == .slow ? Self.word(.slow) : Self.word(.microHang))
            out += "\(word) \(LoopEvent.seconds(segment.length)) at \(segment.start)"
            out += " on \(safe(segment.loop)) mode \(mode) depth \(segment.depth):"
            out += " \(segment.startedBy.rawValue) -> \(ended)\n"
            for mark in segment.marks {
                let kind = if case .mark(let kind) = mark.fact { kind.words } else { "mark" }
                out += "  \(mark.time) \(kind) \(safe(mark.name ?? ""))\n"
            }
            if position < analyses.count { out += Self.lines(analyses[position]) }
            if position < stacks.count { out += Self.stackLines(stacks[position]) }
            for (replay, outcome) in detectorLab?.outcomes ?? [] { out += Self.line(replay, outcome, segment) }
        }
        out += detectorText()
        let count = { (severity: BusySegment.Severity) in
            segments.filter { $0.severity == severity && $0.length >= threshold }.count
        }
        let micro = segments.filter { $0.severity != .slow && $0.length < threshold }.count
        let longest = self.longest.map { LoopEvent.seconds($0) } ?? "none"
        out += "\(TerminalSafeText.terminalSafe(file)): \(LoopEvent.count(hangs.count, "hang")) at the threshold of"
        out += " \(LoopEvent.seconds(threshold)) (\(count(.severe)) severe), \(LoopEvent.count(micro, "micro-hang")),"
        out += " in \(LoopEvent.count(total, "busy segment")); the longest \(longest)\n"
        return out
    }
}
