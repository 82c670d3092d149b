#if os(Linux)
import LoopEngine

/// The memory row: what a recorded event keeps. The virtual workload (the per-iteration workload on the virtual
/// clock, 6 observers, a ``TraceRecorder``) runs long enough for about `events` events in a fresh child process,
/// `loopviz bench --workload memory --iterations N`, which reports two figures of the same recording:
///
/// - the growth of its resident set (`/proc/self/statm`) from before the loop is made to after the run, with
///   the recorder still alive, divided by the events: everything recording cost the process (the trace's chunks,
///   its names and facts, the allocator's share) — judged, as a fresh process starts from a clean heap;
/// - the trace's own account, `trace.storedBytes / trace.count`.
///
/// The bench's own process is no place for the first figure: by then it has freed hundreds of megabytes that the
/// allocator keeps resident and hands out again, so a new trace would seem to cost nothing.
enum MemoryBench {
    struct Figures {
        var iterations: Int
        var events: Int
        var storedBytes: Int
        var residentGrowth: Int

        var storedPerEvent: Double { Double(storedBytes) / Double(max(events, 1)) }
        var residentPerEvent: Double { Double(residentGrowth) / Double(max(events, 1)) }
    }

    static let observers = 6

    /// Records `iterations` iterations in this process and measures around it.
    static func record(iterations: Int, observers: Int = observers) -> Figures {
        var recorder: TraceRecorder?
        let before = BenchChild.residentBytes() ?? 0
        _ = PerIterationBench.engine(.virtual, iterations: iterations, observers: observers) {
            let made = TraceRecorder()
            recorder = made
            return made
        }
        let after = BenchChild.residentBytes() ?? 0
        let trace = recorder?.trace ?? LoopTrace()
        let figures = Figures(
            iterations: iterations, events: trace.count, storedBytes: trace.storedBytes, residentGrowth: after - before)
        withExtendedLifetime(recorder) {}
        return figures
    }

    /// Iterations that record at least `events` events, from two short runs here: every iteration records the
    /// same events, and a run a few more (its start and end).
    static func iterations(forEvents events: Int, observers: Int = observers) -> Int {
        let probe = 1_000
        let short = record(iterations: probe, observers: observers).events
        let perIteration = max(1, record(iterations: 2 * probe, observers: observers).events - short) / probe
        let fixed = short - perIteration * probe
        return max(1, (events - fixed + perIteration - 1) / perIteration)
    }

    /// The line `--workload memory` prints; ``parse(_:)`` reads it back.
    static func line(_ figures: Figures, observers: Int) -> String {
        "memory, \(observers) observers, engine (virtual, TraceRecorder): events \(figures.events), "
            + "iterations \(figures.iterations), stored bytes \(figures.storedBytes) "
            + "(\(BenchReport.fixed(figures.storedPerEvent, 1)) per event), resident growth \(figures.residentGrowth) "
            + "bytes (\(BenchReport.fixed(figures.residentPerEvent, 1)) per event)"
    }

    static func parse(_ text: String) -> Figures? {
        guard let events = BenchChild.integer(after: "events ", in: text),
            let iterations = BenchChild.integer(after: "iterations ", in: text),
            let stored = BenchChild.integer(after: "stored bytes ", in: text),
            let resident = BenchChild.integer(after: "resident growth ", in: text)
        else { return nil }
        return Figures(iterations: iterations, events: events, storedBytes: stored, residentGrowth: resident)
    }

    /// One recording of about `events` events in a fresh child process.
    static func inChild(events: Int, iterations: Int) -> Figures {
        let arguments = ["bench", "--workload", "memory", "--iterations", "\(iterations)"]
        guard let outcome = BenchChild.run(arguments, captureOutput: true, quiet: false), outcome.status == 0,
            let figures = parse(outcome.output), figures.events >= events
        else {
            preconditionFailure("the memory workload's child process failed: \(arguments.joined(separator: " "))")
        }
        return figures
    }
}

#endif
