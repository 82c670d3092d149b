#if os(Linux)
import LoopEngine

/// The long trace of the `run` and `ui` rows: one thread with a 1 ms repeating timer (seven events a
/// millisecond: beforeTimers, beforeSources, beforeWaiting, sleep, wake, afterWaiting, timer) and a version-0
/// source nobody signals (what the UI's `s` pokes), run for far longer than `events` events take. The event budget
/// (`--max-events`, `Session(maxEvents:)`) stops it at exactly `events`.
enum LongTrace {
    static func script(events: Int) -> String {
        // Twice the virtual time the events take, and ten seconds more: the budget, never the clock, ends it.
        let seconds = events / 7_000 * 2 + 10
        return """
            # loopviz bench: a long trace of \(events) events (the event budget stops the run)

            scenario "bench: a 1 ms timer, \(events) events"
            until \(seconds)s

            thread T
              source0 work in default
              timer tick at 1ms every 1ms in default
              run default forever

            """
    }
}

/// `loopviz run FILE --trace FORMAT -o OUT --max-events N` of the long trace (FORMAT jsonl or text, the default),
/// as a grandchild: the bench starts `loopviz bench --workload run-jsonl|run-text --events N`, a fresh process,
/// which writes the files in a temporary folder (removed afterwards), starts the `run` and waits for it. It
/// measures wall time from spawn to exit (process start, parse, run, every line written) and the run's peak
/// resident set (`wait4`'s `ru_maxrss`), and checks that the run ended at the event budget (exit status 3) with the
/// header and exactly N events in the file.
///
/// Why a grandchild: `posix_spawn` starts the child in its parent's memory (`CLONE_VM`), and Linux counts the
/// parent's high-water mark in the child's `ru_maxrss` at its `exec` (measured: 78 MB after the virtual workload
/// ran in the bench, 23 MB for the same run from a fresh process). A fresh spawner's mark is that of a loopviz
/// that has only started, below any run's; the line says what it was, and the row notes a peak not above it.
enum RunTraceBench {
    /// The formats measured, each a workload of its own (`run-jsonl`, `run-text`).
    enum Format: String, CaseIterable {
        case jsonl, text

        /// The workload's name.
        var workload: String { "run-\(rawValue)" }

        /// How the file's first line begins: the jsonl header, or the text's column titles.
        var headerPrefix: String {
            switch self {
            case .jsonl: "{\"format\":\"loopviz-trace\""
            case .text: "time "
            }
        }
    }

    struct Figures {
        var format: Format
        var events: Int
        var wallNanoseconds: Int
        var peakBytes: Int
        /// The spawner's own high-water mark when it started the run: a floor under `peakBytes`.
        var spawnerPeakBytes: Int

        var wallSeconds: Double { Double(wallNanoseconds) / 1e9 }
        /// 10⁶ bytes.
        var peakMegabytes: Double { Double(peakBytes) / 1e6 }
    }

    /// The `run`, from this process (what `--workload run-jsonl|run-text` does).
    static func measure(_ format: Format, events: Int) -> Figures {
        let folder = BenchTemporaryFolder()
        precondition(folder.save(LongTrace.script(events: events), as: "long.loop"), "cannot write \(folder.path)")
        let output = "trace.\(format.rawValue)"
        let arguments = [
            "run", folder.file("long.loop"), "--trace", format.rawValue, "-o", folder.file(output),
            EventBudget.option, "\(events)",
        ]
        let spawner = BenchChild.peakResidentBytes() ?? 0
        guard let outcome = BenchChild.run(arguments, captureOutput: false, quiet: true) else {
            preconditionFailure("cannot start loopviz \(arguments.joined(separator: " "))")
        }
        // Exit status 3: the budget stopped the run, which is how this workload ends.
        precondition(
            outcome.status == ExitStatus.budget.rawValue,
            "loopviz \(arguments.joined(separator: " ")) exited \(outcome.status), not 3 (the event budget)")
        let counted = folder.countLines(in: output, firstLinePrefix: format.headerPrefix)
        precondition(
            counted?.prefixed == true && counted.map { $0.lines - 1 } == events,
            "the \(format.rawValue) trace does not hold a header and \(events) events: \(String(describing: counted))")
        return Figures(
            format: format, events: events, wallNanoseconds: Int(outcome.wallNanoseconds),
            peakBytes: outcome.peakResidentBytes, spawnerPeakBytes: spawner)
    }

    /// The line `--workload run-jsonl|run-text` prints; ``parse(_:format:)`` reads it back.
    static func line(_ figures: Figures) -> String {
        "\(figures.format.workload): loopviz run --trace \(figures.format.rawValue) -o FILE, events \(figures.events), "
            + "wall \(figures.wallNanoseconds) ns (\(BenchReport.format(figures.wallSeconds, .seconds))), "
            + "peak RSS \(figures.peakBytes) bytes (\(BenchReport.format(figures.peakMegabytes, .megabytes))), "
            + "spawner peak \(figures.spawnerPeakBytes) bytes"
    }

    static func parse(_ text: String, format: Format) -> Figures? {
        guard let events = BenchChild.integer(after: "events ", in: text),
            let wall = BenchChild.integer(after: "wall ", in: text),
            let peak = BenchChild.integer(after: "peak RSS ", in: text),
            let spawner = BenchChild.integer(after: "spawner peak ", in: text)
        else { return nil }
        return Figures(
            format: format, events: events, wallNanoseconds: wall, peakBytes: peak, spawnerPeakBytes: spawner)
    }

    /// One run of `events` events, from a fresh spawner.
    static func inChild(_ format: Format, events: Int) -> Figures {
        let arguments = ["bench", "--workload", format.workload, "--events", "\(events)"]
        guard let outcome = BenchChild.run(arguments, captureOutput: true, quiet: false), outcome.status == 0,
            let figures = parse(outcome.output, format: format), figures.events == events
        else {
            preconditionFailure(
                "the \(format.workload) workload's child process failed: \(arguments.joined(separator: " "))")
        }
        return figures
    }
}
#endif
