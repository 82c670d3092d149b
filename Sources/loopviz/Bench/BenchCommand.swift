import LoopEngine

/// `loopviz bench`: measures LoopEngine and the real CFRunLoop on the same workloads in the same run.
///
/// Built on Linux only, like the rest of `Bench/` but the scale workloads' scenarios: its real rows run the real
/// backend (epoll), and its baselines and figures are eventfds, timerfds, `RUSAGE_THREAD` and `/proc`. Elsewhere
/// the command gives its help and says so.
enum BenchCommand {
    static let command = LoopvizCommand(
        name: "bench", synopsis: "bench",
        summary: "Measure LoopEngine against the real CFRunLoop on the same workloads.",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--quick",
            help: """
                A short run (2 rounds, small sizes, 100,000 events for the long traces) that
                checks everything works; its figures are not worth reading.
                """),
        CommandOption("--json", help: "Print one JSON object (format \"loopviz-bench\") instead of the table."),
        CommandOption(
            "--rounds", .number(placeholder: "N", bounds: 1...1000), help: "Rounds per workload (default 5)."),
        CommandOption(
            "--only", .text(placeholder: "LIST"),
            help: "Only these workloads, comma-separated (e.g. per-iteration,virtual)."),
        CommandOption(
            "--workload", .text(placeholder: "NAME"),
            help: "Run one workload once and print its figure: for valgrind (see --callgrind)."),
        CommandOption(names: ["--engine", "--cf"], help: "The loop --workload runs on."),
        CommandOption("--virtual", help: "With --engine: the virtual clock instead of the real backend."),
        CommandOption(
            "--observers", .number(placeholder: "N", bounds: 0...100_000_000),
            help: """
                Observers for --workload (default 0 for per-iteration, 6 for virtual and
                memory).
                """),
        CommandOption(
            "--iterations", .number(placeholder: "N", bounds: 1...100_000_000),
            help: """
                Iterations for --workload (default 1,000,000; memory: enough for 1,000,000
                events).
                """),
        // The child run records at most a run's event budget (--max-events' maximum).
        CommandOption(
            "--events", .number(placeholder: "N", bounds: 1...EventBudget.maximum),
            help: """
                Events for --workload run-jsonl or run-text (default 1,000,000) or hangs
                (default and at most 10,000,000).
                """),
        CommandOption(
            "--items", .number(placeholder: "N", bounds: 1...ScaleBench.maximumItems),
            help: "Items for --workload scale-… (default 16,000; at most 1,000,000)."),
        CommandOption(
            "--loop",
            help: """
                With --workload scale-…: print the generated .loop file instead of running it
                (to run it with `loopviz run`, or under perf or valgrind).
                """),
        CommandOption("--callgrind", help: "Print how to count instructions per iteration with valgrind's callgrind."),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Measure LoopEngine against the real CFRunLoop on the same workloads, in the same run.

            USAGE: loopviz bench [--quick] [--json] [--rounds N] [--only WORKLOAD,...]
                   loopviz bench --workload per-iteration|virtual --engine [--virtual]|--cf [--observers N] [--iterations N]
                   loopviz bench --workload scale-ports|scale-timers|scale-repeating [--items N] [--loop]
                   loopviz bench --workload memory [--observers N] [--iterations N]
                   loopviz bench --workload run-jsonl|run-text|hangs [--events N]
                   loopviz bench --callgrind

            Each workload runs on LoopEngine and on this machine's CFRunLoop (swift-corelibs-foundation, driven from
            Swift with C callbacks), alternating engine, CF, baselines, engine, CF, … for N rounds, so that both meet
            the same machine. The table gives medians, p99s where there is a distribution, the min–max of the rounds
            (flagged noisy when max/min > 1.5), the ratio engine/CF and the project's goal for each workload.

            WORKLOADS:
              per-iteration   A source0 that re-signals itself 1,000,000 times, with 0, 6 and 64 observers of every
                              activity; ns per iteration. Also the engine on the virtual clock (no system calls), to
                              tell the core's own cost from the kernel's.
              recorder        The per-iteration workload on the real CFRunLoop, 100,000 iterations, recorded by
                              LoopRecorder (to a temporary file) against the same loop unrecorded; ns per iteration.
              wake            Another thread signals a source and wakes the loop up; µs until the perform, one way,
                              every thread on core 0 and unpinned. Baselines: a raw eventfd, CF↔CF ping-pong.
              timer           A 10 ms repeating timer for 5 s: lateness (median, p99), loop-thread CPU. Baseline: a
                              raw timerfd.
              idle            A kept-alive loop with nothing to do for 10 s: the loop thread's voluntary context
                              switches and CPU time.
              virtual         The per-iteration workload on the virtual clock with a TraceRecorder, 6 observers,
                              against the same workload without a sink.
              scale           Many items in one loop on the virtual clock, at 4,000 and 16,000 items; µs of CPU time
                              per item, and the ratio of the two totals (4× the items should take about 4× the
                              time, not 16×):
                              ports (each sent one message, a 50 ms run), one-shot timers (two per deadline, until
                              the last fires), repeating 100 ms timers (four per deadline, a 1 s run); and 100
                              1 ms timers in 1,000 modes the file runs against in one mode, µs per fire (goal:
                              at most 2×; each fire re-arms every run mode's timer port, as CF does).
              memory          The virtual workload recorded for 1,000,000 events in a fresh child process: bytes
                              per event of its resident-set growth (judged) and of the trace's storedBytes.
              run-jsonl       `loopviz run FILE --trace jsonl -o OUT` of a 1 ms timer, stopped by the event budget at
                              1,000,000 events, started from a fresh process: wall time and peak RSS.
              run-text        The same run writing the text trace (`run`'s default output), against the same run
                              as jsonl in the same round: wall time and peak RSS.
              ui              The interactive UI's update + render, in process, on a session of 1,000,000 events: a
                              step, `g` from event 1, a poke (`s`) at the last event (the event budget's: nothing
                              runs again), the CPU of playing near it at 30 frames a second, a search, a filter
                              changed to one that keeps every event, and the timeline's `>`, `<` and `0`; also near
                              event 1,000 and event 999,000 (a poke there runs the scenario again).
              hangs           `loopviz hangs FILE.jsonl` of the same timer's recording of 10,000,000 events (1.3 GB,
                              written first by `run --trace jsonl`, not timed), from a fresh process: wall time, peak
                              RSS and wall time per MB of the file; then the UI's replay of the file, as `loopviz
                              screen FILE --step N` draws it at its last event: wall time and peak RSS.
            """,
        afterOptions: """
            Measure a release build: swift build -c release && .build/release/loopviz bench (about 7 minutes).
            Progress goes to standard error. The goals are judged here, never by timed unit tests.

            EXIT STATUS:
              0    measured (whether the goals are met or not)
              2    invalid usage
              4    output could not be written; the message names standard output and why
              128+N ended by signal N (129 SIGHUP, 130 SIGINT or Ctrl-C, 131 SIGQUIT or Ctrl-\\, 143 SIGTERM, 138
                   SIGUSR1, 152 SIGXCPU, … every signal that ends a process), its child run and temporary folder removed
              141  standard output is a closed pipe (`| head`): the command ends quietly
            """)

    static let callgrindHelp = """
        Instruction counts are stable to a few parts per million, unlike times on a shared machine. Count two
        runs of one workload with different iteration counts and divide the difference by the difference in
        iterations, so that process start, thread creation and the first run's set-up cancel out:

          swift build -c release
          B=.build/release/loopviz
          for loop in engine cf; do
            for n in 100000 200000; do
              valgrind --tool=callgrind --callgrind-out-file=/tmp/loopviz-cg.$loop.$n \\
                $B bench --workload per-iteration --$loop --observers 0 --iterations $n
            done
          done
          # Ir = the "summary:" line of each file (or `callgrind_annotate FILE | head`):
          #   instructions per iteration = (Ir(200000) - Ir(100000)) / 100000

        Add --virtual after --engine to count the core alone on the virtual clock (no system calls).
        Scripts/bench-callgrind.sh does all of this for 0, 6 and 64 observers and prints a table.
        For orientation: CF ≈ 1,643 instructions per iteration with no observers.
        """

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        if let extra = scanner.positional.first { throw .unexpectedArgument(extra) }
        if scanner.has("--callgrind") {
            print(callgrindHelp)
            return .success
        }
        #if os(Linux)
        if let workload = scanner.value("--workload") { return try runSingle(workload, scanner) }
        for flag in ["--engine", "--cf", "--virtual", "--observers", "--iterations", "--items", "--loop", "--events"]
        where scanner.gave(flag) {
            throw .goesWith(option: flag, other: "--workload")
        }

        var settings = scanner.has("--quick") ? BenchSettings.short : BenchSettings.full
        if let rounds = try scanner.number("--rounds", else: notACount("rounds")) { settings.rounds = rounds }
        var selected = BenchSuite.workloads
        if let text = scanner.value("--only") {
            selected = text.split(separator: ",").map { String($0).trimmingSpaces }
            if let unknown = selected.first(where: { !BenchSuite.workloads.contains($0) }) {
                throw .unknownWorkload(unknown, expected: BenchSuite.workloads, someOf: true)
            }
        }

        let groups = BenchSuite.groups(settings).filter { selected.contains($0.workload) }
        let loadBefore = BenchPlatform.loadAverage()
        let started = BenchPlatform.now()
        let rows = BenchSuite.run(groups, rounds: settings.rounds) { message in
            let seconds = Double(BenchPlatform.now() - started) / 1e9
            CommandLine.printError("[\(BenchReport.fixed(seconds, 0))s] \(message)")
        }
        let report = BenchReport(
            rounds: settings.rounds, quick: settings.quick, cores: BenchPlatform.coreCount,
            cpuModel: BenchPlatform.cpuModel(), loadBefore: loadBefore, loadAfter: BenchPlatform.loadAverage(),
            rows: rows)
        print(scanner.has("--json") ? report.json : report.text)
        return .success
        #else
        throw .benchLinuxOnly
        #endif
    }

    /// The problem of a whole-number option out of its declared bounds, as `bench` words it.
    static func notACount(_ counting: String) -> (String, ClosedRange<Int>) -> CommandLineProblem {
        { text, bounds in .notACount(text, counting: counting, lower: bounds.lowerBound, upper: bounds.upperBound) }
    }

    #if os(Linux)
    /// `--workload NAME --engine|--cf`: one run, one figure (what callgrind counts).
    private static func runSingle(
        _ workload: String, _ scanner: ArgumentScanner
    ) throws(CommandLineProblem) -> ExitStatus {
        if workload.hasPrefix("scale-") { return try runScale(workload, scanner) }
        if workload == "memory" { return try runMemory(scanner) }
        if workload == "hangs" { return try runHangs(scanner) }
        if let format = RunTraceBench.Format.allCases.first(where: { $0.workload == workload }) {
            return try runTrace(format, scanner)
        }
        if scanner.gave("--events") {
            throw .goesWith(option: "--events", other: "--workload run-jsonl, run-text or hangs")
        }
        for flag in ["--items", "--loop"] where scanner.gave(flag) {
            throw .goesWith(option: flag, other: "--workload scale-…")
        }
        let onEngine = scanner.has("--engine")
        guard onEngine != scanner.has("--cf") else {
            throw .needsExactlyOne(option: "--workload", of: ["--engine", "--cf"])
        }
        guard workload == "per-iteration" || workload == "virtual" else { throw .notASingleWorkload(workload) }
        if !onEngine && scanner.has("--virtual") { throw .goesWith(option: "--virtual", other: "--engine") }
        if workload == "virtual" && !onEngine { throw .virtualHasNoCFSide }
        let observers =
            try scanner.number("--observers", else: notACount("observers")) ?? (workload == "virtual" ? 6 : 0)
        let iterations = try scanner.number("--iterations", else: notACount("iterations")) ?? 1_000_000
        let engine: BenchEngine = scanner.has("--virtual") ? .virtual : .real
        let perIteration: Double
        let variant: String
        if workload == "virtual" {
            perIteration = BenchSuite.virtualWithTrace(iterations: iterations, observers: observers)
            variant = "engine (virtual, TraceRecorder)"
        } else if onEngine {
            perIteration = PerIterationBench.engine(engine, iterations: iterations, observers: observers)
            variant = engine.label
        } else {
            perIteration = PerIterationBench.cf(iterations: iterations, observers: observers)
            variant = "CF"
        }
        print(
            "\(workload), \(observers) observers, \(variant): \(iterations) iterations, "
                + "\(BenchReport.format(perIteration, .nanoseconds)) per iteration")
        return .success
    }
    #endif
}

#if os(Linux)
extension BenchCommand {
    /// `--workload scale-NAME [--items N] [--loop]`: one run of a scale workload, or its scenario file.
    fileprivate static func runScale(
        _ workload: String, _ scanner: ArgumentScanner
    ) throws(CommandLineProblem) -> ExitStatus {
        guard let kind = ScaleBench.Workload(rawValue: String(workload.dropFirst("scale-".count))) else {
            throw .unknownWorkload(
                workload, expected: ScaleBench.Workload.allCases.map { "scale-\($0.rawValue)" }, someOf: false)
        }
        for flag in ["--engine", "--cf", "--virtual", "--observers", "--iterations"] where scanner.gave(flag) {
            throw .doesNotGoWithWorkload(option: flag, workload: workload, reason: .runsOnVirtualClock)
        }
        let items = try scanner.number("--items", else: notACount("items")) ?? ScaleBench.fullSizes.large
        if scanner.has("--loop") {
            print(ScaleBench.script(kind, items: items), terminator: "")
            return .success
        }
        let perItem = ScaleBench.run(kind, items: items)
        print(
            "\(workload), \(items) items, engine (virtual): "
                + "\(BenchReport.format(perItem * Double(items) / 1_000, .milliseconds)) of CPU time, "
                + "\(BenchReport.format(perItem, .microseconds)) per item")
        return .success
    }
}

extension BenchCommand {
    /// `--workload memory [--observers N] [--iterations N]`: one recording in this process, which has done nothing
    /// else before (what the memory row runs as its child).
    fileprivate static func runMemory(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        for flag in ["--engine", "--cf", "--virtual", "--items", "--loop", "--events"] where scanner.gave(flag) {
            throw .doesNotGoWithWorkload(option: flag, workload: "memory", reason: .recordsOnVirtualClock)
        }
        let observers = try scanner.number("--observers", else: notACount("observers")) ?? MemoryBench.observers
        let iterations = try scanner.number("--iterations", else: notACount("iterations"))
        let count = iterations ?? MemoryBench.iterations(forEvents: 1_000_000, observers: observers)
        print(MemoryBench.line(MemoryBench.record(iterations: count, observers: observers), observers: observers))
        return .success
    }
}

extension BenchCommand {
    /// `--workload run-jsonl|run-text [--events N]`: one `loopviz run --trace jsonl|text` of N events (default
    /// 1,000,000) started from this fresh process (what the run-jsonl and run-text rows run as their child).
    fileprivate static func runTrace(
        _ format: RunTraceBench.Format, _ scanner: ArgumentScanner
    ) throws(CommandLineProblem) -> ExitStatus {
        for flag in ["--engine", "--cf", "--virtual", "--observers", "--iterations", "--items", "--loop"]
        where scanner.gave(flag) {
            throw .doesNotGoWithWorkload(option: flag, workload: format.workload, reason: nil)
        }
        let events = try scanner.number("--events", else: notACount("events")) ?? 1_000_000
        print(RunTraceBench.line(RunTraceBench.measure(format, events: events)))
        return .success
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
#endif
