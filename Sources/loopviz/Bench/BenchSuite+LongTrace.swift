#if os(Linux)
import LoopEngine

extension BenchSuite {
    /// The groups of a million events (`settings.longEvents`): memory per recorded event, `loopviz run --trace
    /// jsonl`, and the UI on a long trace.
    static func longTraceGroups(_ settings: BenchSettings) -> [BenchGroup] {
        let events = settings.longEvents
        let shown = grouped(events)
        var groups: [BenchGroup] = []

        // The child's recording feeds both variants: the resident growth is judged, the trace's account is shown.
        var stored: Double?
        let memoryIterations = Lazy { MemoryBench.iterations(forEvents: events) }
        groups.append(
            BenchGroup(
                workload: "memory",
                rows: [
                    BenchRow(
                        id: "memory/event", workload: "memory",
                        title: "memory per recorded event, \(shown) events (virtual, 6 observers), fresh process",
                        unit: .bytes, variants: [],
                        goals: [
                            BenchGoal(
                                statistic: .median, against: nil, factor: 48, text: "≤ 48 bytes (resident growth)")
                        ])
                ],
                variants: [
                    .init(name: "engine: resident growth / events", role: .engine) {
                        let figures = MemoryBench.inChild(events: events, iterations: memoryIterations.value)
                        stored = figures.storedPerEvent
                        return [BenchResult(figure: figures.residentPerEvent)]
                    },
                    .init(name: "engine: trace.storedBytes / events", role: .reference) {
                        // Alone (the engine variant did not run first), it records for itself.
                        let figure =
                            stored
                            ?? MemoryBench.inChild(events: events, iterations: memoryIterations.value).storedPerEvent
                        stored = nil
                        return [BenchResult(figure: figure)]
                    },
                ]))

        groups.append(
            BenchGroup(
                workload: "run-jsonl",
                rows: [
                    BenchRow(
                        id: "run-jsonl/wall", workload: "run-jsonl",
                        title: "run --trace jsonl -o FILE, \(shown) events: wall time", unit: .seconds, variants: [],
                        goals: [BenchGoal(statistic: .median, against: nil, factor: 1.0, text: "≤ 1.0 s")]),
                    BenchRow(
                        id: "run-jsonl/peak", workload: "run-jsonl",
                        title: "run --trace jsonl -o FILE, \(shown) events: peak RSS", unit: .megabytes,
                        variants: [],
                        goals: [BenchGoal(statistic: .median, against: nil, factor: 150, text: "≤ 150 MB")]
                    ),
                ],
                variants: [
                    .init(name: "loopviz run (a fresh process's child)", role: .engine) {
                        runResults(RunTraceBench.inChild(.jsonl, events: events))
                    }
                ]))

        // The text trace, `run`'s default output, against the same run as jsonl in the same round.
        groups.append(
            BenchGroup(
                workload: "run-text",
                rows: [
                    BenchRow(
                        id: "run-text/wall", workload: "run-text",
                        title: "run -o FILE (text), \(shown) events: wall time", unit: .seconds, variants: [],
                        goals: [
                            BenchGoal(statistic: .median, against: 1, factor: 1.2, text: "median ≤ 1.2× jsonl's")
                        ]),
                    BenchRow(
                        id: "run-text/peak", workload: "run-text",
                        title: "run -o FILE (text), \(shown) events: peak RSS", unit: .megabytes, variants: [],
                        goals: [BenchGoal(statistic: .median, against: nil, factor: 150, text: "≤ 150 MB")]),
                ],
                variants: [
                    .init(name: "loopviz run, text (a fresh process's child)", role: .engine) {
                        runResults(RunTraceBench.inChild(.text, events: events))
                    },
                    .init(name: "loopviz run --trace jsonl (a fresh process's child)", role: .reference) {
                        runResults(RunTraceBench.inChild(.jsonl, events: events))
                    },
                ]))

        let shared = UIBench.Shared()
        let samples = settings.uiStepSamples
        let frames = settings.uiPlayFrames
        let near = min(1_000, events)
        let beforeEnd = max(11, events - 1_000)
        let results: (UIBench.Round) -> [BenchResult] = { round in
            [
                .distribution(round.step), BenchResult(figure: round.goTo), BenchResult(figure: round.poke),
                BenchResult(figure: round.playCPU), BenchResult(figure: round.search),
                BenchResult(figure: round.filterChange), BenchResult(figure: round.zoomIn),
                BenchResult(figure: round.zoomOut), BenchResult(figure: round.fit),
            ]
        }
        let uiGoal = BenchGoal(statistic: .median, against: nil, factor: 50, text: "≤ 50 ms")
        // Issue 35: a search, a filter change and a zoom each answer within 100 ms at 1,000,000 events.
        let searchGoal = BenchGoal(statistic: .median, against: nil, factor: 100, text: "≤ 100 ms")
        groups.append(
            BenchGroup(
                workload: "ui",
                rows: [
                    BenchRow(
                        id: "ui/step", workload: "ui", title: "UI: n, one step to event \(shown) (update + render)",
                        unit: .milliseconds, variants: [], goals: [uiGoal]),
                    BenchRow(
                        id: "ui/goto", workload: "ui",
                        title: "UI: g \(events) from event 1, first jump (update + render)", unit: .milliseconds,
                        variants: [], goals: [uiGoal]),
                    BenchRow(
                        id: "ui/poke", workload: "ui",
                        title: "UI: s, a poke at event \(shown): replay and render", unit: .milliseconds,
                        variants: [],
                        goals: [BenchGoal(statistic: .median, against: nil, factor: 150, text: "≤ 150 ms")]),
                    BenchRow(
                        id: "ui/play", workload: "ui",
                        title: "UI: playing near event \(shown), 30 frames/s: CPU of a core", unit: .percent,
                        variants: [], goals: [BenchGoal(statistic: .median, against: nil, factor: 3, text: "≤ 3 %")]),
                    BenchRow(
                        id: "ui/search", workload: "ui",
                        title: "UI: / a query nothing matches, at event \(shown) (search + filtered log)",
                        unit: .milliseconds, variants: [],
                        goals: [searchGoal]),
                    BenchRow(
                        id: "ui/filter", workload: "ui",
                        title: "UI: / another query, every event kept, at event \(shown) (index remade + filtered log)",
                        unit: .milliseconds, variants: [], goals: [searchGoal]),
                    BenchRow(
                        id: "ui/zoom-in", workload: "ui", title: "UI: >, the timeline zoomed in at event \(shown)",
                        unit: .milliseconds, variants: [], goals: [searchGoal]),
                    BenchRow(
                        id: "ui/zoom-out", workload: "ui", title: "UI: <, the timeline zoomed out at event \(shown)",
                        unit: .milliseconds, variants: [], goals: [searchGoal]),
                    BenchRow(
                        id: "ui/zoom-fit", workload: "ui",
                        title: "UI: 0, the whole run in the timeline at event \(shown)", unit: .milliseconds,
                        variants: [], goals: [searchGoal]),
                ],
                variants: [
                    .init(name: "loopviz UI at event \(shown)", role: .engine) {
                        let fixture = UIBench.Fixture(events: events)
                        shared.fixture = fixture
                        return results(UIBench.measure(fixture, at: events, stepSamples: samples, playFrames: frames))
                    },
                    .init(name: "loopviz UI at event \(grouped(near)) (same trace)", role: .reference) {
                        let fixture = shared.fixture ?? UIBench.Fixture(events: events)
                        return results(UIBench.measure(fixture, at: near, stepSamples: samples, playFrames: frames))
                    },
                    // The last event of a trace the budget stopped is where a poke needs no run: a thousand events
                    // before it, the poke runs the engine over every event before it again.
                    .init(name: "loopviz UI at event \(grouped(beforeEnd)) (same trace)", role: .reference) {
                        let fixture = shared.fixture ?? UIBench.Fixture(events: events)
                        shared.fixture = nil
                        return results(
                            UIBench.measure(fixture, at: beforeEnd, stepSamples: samples, playFrames: frames))
                    },
                ]))
        return groups
    }

    /// A run's wall time and its peak resident set, noting a peak not above its spawner's.
    private static func runResults(_ figures: RunTraceBench.Figures) -> [BenchResult] {
        let floor =
            figures.peakBytes > figures.spawnerPeakBytes
            ? nil : "the peak is not above its spawner's (\(figures.spawnerPeakBytes) bytes): at most that"
        return [BenchResult(figure: figures.wallSeconds), BenchResult(figure: figures.peakMegabytes, note: floor)]
    }
}

/// A value computed the first time it is asked for, then kept.
final class Lazy<Value> {
    private let make: () -> Value
    private var made: Value?

    init(_ make: @escaping () -> Value) { self.make = make }

    var value: Value {
        if let made { return made }
        let value = make()
        made = value
        return value
    }
}
#endif
