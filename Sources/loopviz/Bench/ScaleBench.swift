import LoopEngine

/// The scale workload: many items in one loop on the virtual clock, to show how the engine's time grows with their
/// number (issue 10: it used to grow with its square). Each workload is a `.loop` file generated for `items`
/// items, parsed once, then run headless (`ScenarioRunner.run`, every event recorded) and timed; the figure is
/// microseconds per item of CPU time of the thread that runs it. The run is one thread's work (a world of one
/// virtual thread starts no OS thread), and its CPU time is what wall time would be on an idle machine, without
/// the other processes of a busy one.
///
/// - `ports`: N ports in `default`; outside events send them one message each, four ports per event (in reverse
///   order, so the readiness order is the send order, not the declaration order), between 1 ms and 41 ms; the
///   run lasts 50 ms. Adding ports, scheduling outside events, and one wait per message.
/// - `timers`: N one-shot timers, two per deadline (deadlines 0.5 ms apart, declared in a scrambled order);
///   `run default forever` ends `finished` when the last has fired.
/// - `repeating`: N timers every 100 ms, four per first deadline (spread over the first 100 ms, declared
///   scrambled), for 1 s: ten fires each, every fire moving the timer to its next deadline.
enum ScaleBench {
    enum Workload: String, CaseIterable {
        case ports, timers, repeating

        /// How the table names it.
        var title: String {
            switch self {
            case .ports: "scale: ports, one message each"
            case .timers: "scale: one-shot timers"
            case .repeating: "scale: repeating 100 ms timers, 1 s"
            }
        }
    }

    /// The sizes a row compares: the small and the large (4× as many).
    static let fullSizes = (small: 4_000, large: 16_000)
    static let quickSizes = (small: 500, large: 2_000)
    /// The most items `--workload scale-… --items N` accepts.
    static let maximumItems = 1_000_000

    /// The scenario file of `workload` with `items` items.
    static func script(_ workload: Workload, items: Int) -> String {
        let count = max(items, 1)
        var lines = ["# loopviz bench scale workload '\(workload.rawValue)', \(count) items", ""]
        lines.append("scenario \"scale: \(count) \(workload.rawValue)\"")
        lines.append("")
        lines.append("thread T")
        switch workload {
        case .ports:
            for index in 0..<count { lines.append("  port p\(index) in default") }
            lines.append("  run default for 50ms")
            let groups = (count + 3) / 4
            for group in 0..<groups {
                // Spread over 40 ms, in whole nanoseconds.
                let time = 1_000_000 + group * 40_000_000 / groups
                lines.append("at \(time)ns on T")
                for index in (group * 4..<min(group * 4 + 4, count)).reversed() { lines.append("  send p\(index)") }
            }
        case .timers:
            for index in 0..<count {
                let deadline = 1_000_000 + scrambled(index, count) / 2 * 500_000
                lines.append("  timer t\(index) at \(deadline)ns in default")
            }
            lines.append("  run default forever")
        case .repeating:
            let groups = (count + 3) / 4
            for index in 0..<count {
                // Four timers per first deadline, the deadlines spread over the first 100 ms in whole nanoseconds.
                let first = 1_000_000 + scrambled(index, count) / 4 * 100_000_000 / groups
                lines.append("  timer t\(index) at \(first)ns every 100ms in default")
            }
            lines.append("  run default for 1s")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A permutation of `0..<count` that is neither ascending nor descending: multiplication by a prime larger
    /// than any count, modulo the count.
    static func scrambled(_ index: Int, _ count: Int) -> Int {
        (index * 1_000_003) % count
    }

    /// The parsed scenario (the generator only writes valid files).
    static func scenario(_ workload: Workload, items: Int) -> Scenario {
        do {
            return try ScenarioParser.parse(script(workload, items: items), file: "scale-\(workload.rawValue)")
                .scenario
        } catch {
            preconditionFailure("the scale workload does not parse: \(error)")
        }
    }

    /// How far a scale run may go: beyond the end of every workload at the largest size.
    static let horizon: Duration = .seconds(3_600)

    #if os(Linux)
    /// Runs `workload` with `items` items once: microseconds of CPU time per item of the run (the parse is not
    /// timed).
    static func run(_ workload: Workload, items: Int) -> Double {
        let scenario = scenario(workload, items: items)
        let start = BenchPlatform.threadCPUTime()
        let outcome = ScenarioRunner.run(scenario, horizon: horizon)
        let elapsed = BenchPlatform.threadCPUTime() - start
        precondition(outcome.haltReason == nil, "the scale workload did not run to its end")
        return Double(elapsed) / 1_000 / Double(max(items, 1))
    }
    #endif
}
