import LoopEngine

/// The formats `loopviz run --trace` can write.
enum TraceFormat: String, CaseIterable {
    /// Aligned columns for people (the README's and the lessons' form).
    case text
    /// One JSON object per line after a header: the stable contract for tools.
    case jsonl
    /// Chrome Trace Event JSON: open it in Perfetto.
    case chrome
    /// A Mermaid `sequenceDiagram` for slides.
    case mermaid
    /// The Firefox Profiler's processed profile: markers per callout, sleep, phase and hang.
    case firefox

    /// True for the formats `run` writes as the run goes (``TraceStreaming``).
    var streams: Bool { self == .text || self == .jsonl }

    /// Writes the whole trace to `writer`; Chrome's, the largest, in pieces as it is made. `handOvers` are the
    /// run's work handed across threads (Chrome's flow arrows; a converted trace has none).
    func write(
        _ events: LoopTrace, scenario: String, clock: TraceClock, handOvers: [HandOver] = [], to writer: OutputWriter
    ) {
        if self == .chrome {
            ChromeTraceFormatter.write(events, scenario: scenario, clock: clock, handOvers: handOvers) {
                writer.write($0)
            }
        } else {
            writer.write(render(events, scenario: scenario, clock: clock))
        }
    }

    func render(_ events: LoopTrace, scenario: String, clock: TraceClock) -> String {
        switch self {
        case .text: TextTraceFormatter.format(events)
        case .jsonl: JSONLTraceFormatter.format(events, scenario: scenario, clock: clock)
        case .chrome: ChromeTraceFormatter.format(events, scenario: scenario, clock: clock)
        case .mermaid: MermaidTraceFormatter.format(events, scenario: scenario)
        case .firefox: FirefoxProfileFormatter.format(events, scenario: scenario, clock: clock)
        }
    }
}
