import LoopEngine

/// `loopviz run` on the virtual clock for the formats that can be written as the run goes (text, jsonl): each
/// event is formatted and written when it is recorded, none is kept, so a long run shows output at once and its
/// memory does not grow with the trace. Chrome and Mermaid need the whole trace (nested slices, per-thread
/// stories) and are rendered once the run, bounded by the event budget, has ended.
enum TraceStreaming {
    /// Runs `scenario` writing its trace in `format` (text or jsonl) to `writer`. The run halts early when
    /// `writer` fails (a closed pipe, a full disk).
    static func run(
        _ scenario: Scenario, horizon: Duration, maxEvents: Int, format: TraceFormat, to writer: OutputWriter
    ) -> ScenarioRunner.Outcome {
        switch format {
        case .jsonl:
            // The header gives the number of events, so a first run counts them, keeping none. The engine is
            // deterministic: the second run records the very same events.
            let counted = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents) { _ in true }
            writer.write(
                JSONLTraceFormatter.header(scenario: scenario.name, clock: .virtual, count: counted.eventCount) + "\n")
            var line: [UInt8] = []
            line.reserveCapacity(256)
            return ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents) { event in
                line.removeAll(keepingCapacity: true)
                JSONLTraceFormatter.appendLine(event, to: &line)
                line.append(0x0A)
                writer.write(bytes: line)
                return writer.isWorking
            }
        default:
            var stream = TextTraceFormatter.Stream()
            let outcome = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents) { event in
                writer.write(stream.append(event))
                return writer.isWorking
            }
            writer.write(stream.finish())
            return outcome
        }
    }
}
