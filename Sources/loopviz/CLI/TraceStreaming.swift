import LoopEngine

/// `loopviz run` on the virtual clock for the formats that can be written as the run goes (text, jsonl): each
/// event is formatted and written when it is recorded, none is kept, so a long run shows output at once and its
/// memory does not grow with the trace. Chrome and Mermaid need the whole trace (nested slices, per-thread
/// stories) and are rendered once the run, bounded by the event budget, has ended.
enum TraceStreaming {
    /// Runs `scenario` writing its trace in `format` (text or jsonl) to `output`. The run halts early when
    /// the output fails (a closed pipe, a full disk).
    static func run(
        _ scenario: Scenario, horizon: Duration, maxEvents: Int, format: TraceFormat, to output: OutputFile
    ) -> ScenarioRunner.Outcome {
        let writer = output.writer
        switch format {
        case .jsonl:
            // The header gives the number of events. A new file is written through a temporary one: the events
            // go there as they come and the header is put before them at the end. Elsewhere (standard output, a
            // device) a first run counts the events, keeping none; the engine is deterministic, so the second run
            // records the very same events.
            let header = { (count: Int) in
                JSONLTraceFormatter.header(scenario: scenario.name, clock: .virtual, count: count) + "\n"
            }
            // Each line is built straight into the writer's buffer.
            let writeLines = { (event: LoopEvent) -> Bool in
                writer.write(building: { bytes in
                    JSONLTraceFormatter.appendLine(event, to: &bytes)
                    bytes.append(0x0A)
                })
                return writer.isWorking
            }
            if output.canPrepend {
                let outcome = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents, consume: writeLines)
                if writer.isWorking { output.prepend(header(outcome.eventCount)) }
                return outcome
            }
            let counted = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents) { _ in true }
            writer.write(header(counted.eventCount))
            return ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents, consume: writeLines)
        default:
            // The stream lives behind a pointer, not in a variable the closure captures: a captured variable costs
            // every event a dynamic exclusivity check.
            let stream = UnsafeMutablePointer<TextTraceFormatter.Stream>.allocate(capacity: 1)
            stream.initialize(to: TextTraceFormatter.Stream())
            defer {
                stream.deinitialize(count: 1)
                stream.deallocate()
            }
            let outcome = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents) { event in
                writer.write(building: { bytes in stream.pointee.append(event, to: &bytes) })
                return writer.isWorking
            }
            writer.write(stream.pointee.finish())
            return outcome
        }
    }
}
