import LoopEngine

/// Scenarios the export tests run: small enough to read, rich enough to cover every event family.
enum ExportScenarios {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    /// A nested run, a port, a repeating timer, an observer, and a signal plus wake-up from outside.
    ///
    /// Without the iteration cost: the tests that run it check how the exporters map events to slices, flows and
    /// counters against instants they can state (a callout's slice is 5 ms, a sleep starts at 35 ms), which the
    /// cost model would shift by microseconds for no gain to what they check. `small`, whose exports are golden
    /// files, runs with the cost.
    static let rich = Scenario(
        name: "rich",
        items: [
            .source0("A"),
            .port("P"),
            .timer("T1", first: ms(30), every: ms(40), [ScriptStep(.work(ms(5)))]),
            .observer("O", [.beforeWaiting, .afterWaiting, .exit]),
            .source0(
                "Nest", order: 1,
                [ScriptStep(.run(.inMode("Inner", seconds: 0.03, returnAfterSourceHandled: false)))]),
            .timer("Tick", first: ms(65), modes: ["Inner"]),
        ],
        program: [
            .signal("A"), .send("P", count: 2),
            .run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false)),
        ],
        outside: [
            OutsideEvent(at: ms(50), [.signal("Nest"), .wakeUp]),
            OutsideEvent(at: ms(120), [.send("P", count: 1)]),
            OutsideEvent(at: ms(150), [.signal("A"), .wakeUp]),
        ], iterationCost: .zero)
}

extension ExportScenarios {
    /// Two loop threads in one trace: the rich scenario on `T`, the same run of `small` on `U`, merged by time
    /// (the virtual runner hosts one thread, so a multi-thread trace is assembled from two runs).
    static var twoThreads: [LoopEvent] {
        let first = ScenarioRunner.run(rich).events
        let second = ScenarioRunner.run(small).events.map { event -> LoopEvent in
            var copy = event
            copy.loop = "U"
            return copy
        }
        return (first + second).enumerated()
            .sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
    }

    /// The snapshot scenario: a timer, an observer, a port, an outside signal plus wake-up whose source runs a
    /// nested run until a timer of its mode fires, all in 0.1 s.
    static let small = Scenario(
        name: "small",
        items: [
            .source0("A", [ScriptStep(.run(.inMode("Inner", seconds: 0.02, returnAfterSourceHandled: false)))]),
            .port("P"), .timer("T1", first: ms(20)), .timer("Tick", first: ms(45), modes: ["Inner"]),
            .observer("O", [.beforeWaiting, .afterWaiting]),
        ],
        program: [.send("P", count: 1), .run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false))],
        outside: [OutsideEvent(at: ms(40), [.signal("A"), .wakeUp])])
}

extension ExportScenarios {
    /// Names that Mermaid would choke on unescaped (`;`, `#`, `%%`, `<`, newlines, keywords), ignored
    /// wake-ups and stops, an empty mode, and a stop from outside.
    static let awkward = Scenario(
        name: "awkward",
        items: [
            .source0("end; loop #1 %%x <b>", [ScriptStep(.note("say \"hi\"; #2 %% <br> \n next"))]),
            .observer("loop", [.entry, .exit]), .timer("Participant as", first: ms(5)),
            .port("é-port"), .source0("end_ loop _1 x b"),
        ],
        program: [
            .wakeUp, .stop, .signal("end; loop #1 %%x <b>"), .send("é-port", count: 1),
            .run(.inMode("mode;#%", seconds: 0.05, returnAfterSourceHandled: false)),
            .run(.inMode(.default, seconds: 0.05, returnAfterSourceHandled: false)),
        ],
        outside: [OutsideEvent(at: ms(20), [.stop, .wakeUp])])
}
