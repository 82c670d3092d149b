#if os(Linux)
import Glibc
import LoopEngine

/// `loopviz hangs FILE.jsonl` of a long recording: the long trace (``LongTrace``) written once as JSONL by `loopviz
/// run` (not timed), then read by `hangs`, as a grandchild for the same reason as ``RunTraceBench``: the bench
/// starts `loopviz bench --workload hangs --events N`, a fresh process, which writes the files in a temporary
/// folder (removed afterwards), starts the two commands and waits for them. It measures the `hangs` run's wall time
/// (process start, reading and parsing every line, the segments, the report), its peak resident set and the file's
/// bytes over that time, and checks that it read the file (exit status 0: the 1 ms timer has no hang). Then the
/// UI's replay of the same file, as `loopviz screen FILE --step N` draws it (reading the file, keeping the events a
/// replay keeps, the screen at the last of them): its wall time and peak resident set; and the UI's jumps across it.
enum HangsBench {
    struct Figures {
        var events: Int
        var bytes: Int
        var wallNanoseconds: Int
        var peakBytes: Int
        /// The spawner's own high-water mark when it started the run: a floor under `peakBytes`.
        var spawnerPeakBytes: Int
        /// `loopviz screen FILE --step N`: the replay opened at its last event.
        var screenWallNanoseconds: Int
        var screenPeakBytes: Int
        /// The UI on the same file opened a window at a time (in this process): the slowest of five jumps (`g N`
        /// and Enter, then the frame drawn) to the first event, a quarter, the half, three quarters and the last.
        var jumpNanoseconds: Int

        var wallSeconds: Double { Double(wallNanoseconds) / 1e9 }
        /// 10⁶ bytes.
        var peakMegabytes: Double { Double(peakBytes) / 1e6 }
        /// 10⁶ bytes of the file read a second.
        var megabytesPerSecond: Double { wallNanoseconds > 0 ? Double(bytes) / 1e6 / wallSeconds : 0 }
        var screenWallSeconds: Double { Double(screenWallNanoseconds) / 1e9 }
        var screenPeakMegabytes: Double { Double(screenPeakBytes) / 1e6 }
        var jumpMilliseconds: Double { Double(jumpNanoseconds) / 1e6 }
    }

    /// The recording and the `hangs` run, from this process (what `--workload hangs` does).
    static func measure(events: Int) -> Figures {
        let folder = BenchTemporaryFolder()
        precondition(folder.save(LongTrace.script(events: events), as: "long.loop"), "cannot write \(folder.path)")
        let trace = folder.file("recording.jsonl")
        let record = [
            "run", folder.file("long.loop"), "--trace", "jsonl", "-o", trace, EventBudget.option, "\(events)",
        ]
        guard let recorded = BenchChild.run(record, captureOutput: false, quiet: true),
            recorded.status == ExitStatus.budget.rawValue
        else { preconditionFailure("loopviz \(record.joined(separator: " ")) did not end at the event budget") }
        var status = stat()
        precondition(stat(trace, &status) == 0, "cannot read \(trace)")
        let arguments = ["hangs", trace, EventBudget.option, "\(events)"]
        let spawner = BenchChild.peakResidentBytes() ?? 0
        guard let outcome = BenchChild.run(arguments, captureOutput: true, quiet: true) else {
            preconditionFailure("cannot start loopviz \(arguments.joined(separator: " "))")
        }
        precondition(
            outcome.status == ExitStatus.success.rawValue && outcome.output.contains("0 hangs"),
            "loopviz \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.output)")
        let replay = ["screen", trace, "--step", "\(events)", "--size", "80x24", EventBudget.option, "\(events)"]
        guard let screen = BenchChild.run(replay, captureOutput: true, quiet: true) else {
            preconditionFailure("cannot start loopviz \(replay.joined(separator: " "))")
        }
        precondition(
            screen.status == ExitStatus.success.rawValue && screen.output.contains("read-only"),
            "loopviz \(replay.joined(separator: " ")) exited \(screen.status): \(screen.output)")
        return Figures(
            events: events, bytes: Int(status.st_size), wallNanoseconds: Int(outcome.wallNanoseconds),
            peakBytes: outcome.peakResidentBytes, spawnerPeakBytes: spawner,
            screenWallNanoseconds: Int(screen.wallNanoseconds), screenPeakBytes: screen.peakResidentBytes,
            jumpNanoseconds: slowestJump(trace, events: events))
    }

    /// The slowest of five jumps across the replay of `trace` opened a window at a time, as the UI makes them.
    static func slowestJump(_ trace: String, events: Int) -> Int {
        guard case .success(var model) = UICommand.loadModel(trace, maxEvents: events, windowedFrom: 0) else {
            preconditionFailure("cannot open \(trace) in the UI")
        }
        _ = updateInline(&model, .resize(width: 80, height: 24))
        model.isPaused = true
        var slowest = 0
        for target in [1, events / 4, events / 2, events * 3 / 4, events] {
            let keys = [Key.character("g")] + String(target).map { Key.character($0) }
            for key in keys { _ = updateInline(&model, .key(key)) }
            let start = BenchPlatform.now()
            _ = updateInline(&model, .key(.enter))
            let screen = render(model)
            let elapsed = Int(BenchPlatform.now() - start)
            precondition(
                model.session.eventNumberOffset + model.cursor == target && !screen.lines.isEmpty,
                "the jump to \(target) showed \(model.session.eventNumberOffset + model.cursor)")
            slowest = max(slowest, elapsed)
        }
        return slowest
    }

    /// The line `--workload hangs` prints; ``parse(_:)`` reads it back.
    static func line(_ figures: Figures) -> String {
        "hangs: loopviz hangs FILE.jsonl, events \(figures.events), bytes \(figures.bytes), "
            + "wall \(figures.wallNanoseconds) ns (\(BenchReport.format(figures.wallSeconds, .seconds)), "
            + "\(BenchReport.fixed(figures.megabytesPerSecond, 0)) MB/s), "
            + "peak RSS \(figures.peakBytes) bytes (\(BenchReport.format(figures.peakMegabytes, .megabytes))), "
            + "spawner peak \(figures.spawnerPeakBytes) bytes; "
            + "screen wall \(figures.screenWallNanoseconds) ns (\(BenchReport.format(figures.screenWallSeconds, .seconds))), "
            + "screen peak RSS \(figures.screenPeakBytes) bytes; "
            + "slowest jump \(figures.jumpNanoseconds) ns (\(BenchReport.format(figures.jumpMilliseconds, .milliseconds)))"
    }

    static func parse(_ text: String) -> Figures? {
        guard let events = BenchChild.integer(after: "events ", in: text),
            let bytes = BenchChild.integer(after: "bytes ", in: text),
            let wall = BenchChild.integer(after: "wall ", in: text),
            let peak = BenchChild.integer(after: "peak RSS ", in: text),
            let spawner = BenchChild.integer(after: "spawner peak ", in: text),
            let screenWall = BenchChild.integer(after: "screen wall ", in: text),
            let screenPeak = BenchChild.integer(after: "screen peak RSS ", in: text),
            let jump = BenchChild.integer(after: "slowest jump ", in: text)
        else { return nil }
        return Figures(
            events: events, bytes: bytes, wallNanoseconds: wall, peakBytes: peak, spawnerPeakBytes: spawner,
            screenWallNanoseconds: screenWall, screenPeakBytes: screenPeak, jumpNanoseconds: jump)
    }

    /// One recording read by `hangs`, from a fresh spawner.
    static func inChild(events: Int) -> Figures {
        let arguments = ["bench", "--workload", "hangs", "--events", "\(events)"]
        guard let outcome = BenchChild.run(arguments, captureOutput: true, quiet: false), outcome.status == 0,
            let figures = parse(outcome.output), figures.events == events
        else {
            preconditionFailure("the hangs workload's child process failed: \(arguments.joined(separator: " "))")
        }
        return figures
    }
}

extension BenchCommand {
    /// `--workload hangs [--events N]`: one recording of N events (default 10,000,000) read by `loopviz hangs`,
    /// started from this fresh process (what the hangs rows run as their child).
    static func runHangs(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        for flag in ["--engine", "--cf", "--virtual", "--observers", "--iterations", "--items", "--loop"]
        where scanner.gave(flag) {
            throw .doesNotGoWithWorkload(option: flag, workload: "hangs", reason: nil)
        }
        let events = try scanner.number("--events", else: notACount("events")) ?? HangsBench.fullEvents
        print(HangsBench.line(HangsBench.measure(events: events)))
        return .success
    }
}

extension HangsBench {
    /// The recording of an hour of a busy app that issue 37 names: 10⁷ events (about 1.3 GB).
    static let fullEvents = 10_000_000

    /// The group: `hangs` on a recording of `events` events (ten times the long traces').
    static func group(events: Int) -> BenchGroup {
        let shown = BenchSuite.grouped(events)
        // The goals are for 10⁷ events; a shorter recording (--quick) is held to the same rate.
        let seconds = 10 * Double(events) / Double(fullEvents)
        // Issue 37: the UI opens a recording of 10⁷ events in 2 s.
        let openSeconds = 2 * Double(events) / Double(fullEvents)
        return BenchGroup(
            workload: "hangs",
            rows: [
                BenchRow(
                    id: "hangs/wall", workload: "hangs", title: "hangs FILE.jsonl, \(shown) events: wall time",
                    unit: .seconds, variants: [],
                    goals: [
                        BenchGoal(
                            statistic: .median, against: nil, factor: seconds,
                            text: "≤ \(BenchReport.format(seconds, .seconds))")
                    ]),
                BenchRow(
                    id: "hangs/peak", workload: "hangs", title: "hangs FILE.jsonl, \(shown) events: peak RSS",
                    unit: .megabytes, variants: [],
                    goals: [BenchGoal(statistic: .median, against: nil, factor: 400, text: "≤ 400 MB")]),
                BenchRow(
                    id: "hangs/rate", workload: "hangs",
                    title: "hangs FILE.jsonl, \(shown) events: wall time per MB of the file", unit: .milliseconds,
                    variants: [],
                    goals: [
                        BenchGoal(
                            statistic: .median, against: nil, factor: 1_000 / 150,
                            text: "≤ 6.67 ms (≥ 150 MB/s)")
                    ]),
                BenchRow(
                    id: "hangs/replay", workload: "hangs",
                    title: "UI: screen FILE.jsonl at its last event, \(shown) events: wall time", unit: .seconds,
                    variants: [],
                    goals: [
                        BenchGoal(
                            statistic: .median, against: nil, factor: openSeconds,
                            text: "≤ \(BenchReport.format(openSeconds, .seconds))")
                    ]),
                BenchRow(
                    id: "hangs/replay-peak", workload: "hangs",
                    title: "UI: screen FILE.jsonl at its last event, \(shown) events: peak RSS", unit: .megabytes,
                    variants: [], goals: [BenchGoal(statistic: .median, against: nil, factor: 400, text: "≤ 400 MB")]),
                BenchRow(
                    id: "hangs/jump", workload: "hangs",
                    title: "UI: g N to any event of FILE.jsonl, \(shown) events: the slowest of five",
                    unit: .milliseconds,
                    variants: [],
                    goals: [BenchGoal(statistic: .median, against: nil, factor: 50, text: "≤ 50 ms")]),
            ],
            variants: [
                .init(name: "loopviz hangs (a fresh process's child)", role: .engine) {
                    let figures = inChild(events: events)
                    let floor =
                        figures.peakBytes > figures.spawnerPeakBytes
                        ? nil : "the peak is not above its spawner's (\(figures.spawnerPeakBytes) bytes): at most that"
                    return [
                        BenchResult(figure: figures.wallSeconds),
                        BenchResult(figure: figures.peakMegabytes, note: floor),
                        BenchResult(figure: 1_000 / figures.megabytesPerSecond),
                        BenchResult(figure: figures.screenWallSeconds),
                        BenchResult(figure: figures.screenPeakMegabytes),
                        BenchResult(figure: figures.jumpMilliseconds),
                    ]
                }
            ])
    }
}
#endif
