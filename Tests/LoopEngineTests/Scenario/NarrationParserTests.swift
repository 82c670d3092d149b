import LoopEngine
import Testing

/// `say` lines: tied to a time, a step or an event named as an `expect` line names it.
@Suite("say lines name the event they are shown from")
struct NarrationParserTests {
    static let source = """
        thread T
          port K in default
          timer tick at 100ms
          run default for 200ms
        say "starts" at 0ms
        say "sleeps" after sleep
        say "fires" after 0.100 T: timer tick
        say "ends" at step 12
        """

    @Test("at TIME, after EVENT (time, thread, kind and name as in expect) and at step N")
    func anchors() throws {
        let script = try ScenarioParser.parse(Self.source)
        #expect(
            script.narration == [
                Narration(anchor: .time(.zero), text: "starts"),
                Narration(anchor: .after(Expectation.Step(kind: .sleep, line: 6)), text: "sleeps"),
                Narration(
                    anchor: .after(
                        Expectation.Step(
                            time: .milliseconds(100), resolution: .milliseconds(1), thread: "T", kind: .timer,
                            name: "tick", line: 7)),
                    text: "fires"),
                Narration(anchor: .step(12), text: "ends"),
            ])
    }

    @Test("a say line without at or after, or with an unknown event, is an error with its column")
    func errors() {
        let cases: [(String, Int, String)] = [
            (
                "say \"x\" 100ms", 9,
                "expected 'at' and a time or a step, or 'after' and an event: `say \"…\" at 250ms`, "
                    + "`say \"…\" after timer tick`"
            ),
            ("say \"x\" after tick", 15, "unknown event 'tick'; " + ScenarioProblemTests.eventsExpected),
        ]
        for (source, column, message) in cases {
            let error = #expect(throws: ScenarioDiagnostics.self) {
                try ScenarioParser.parse("thread T\n  run default for 1s\n" + source)
            }
            #expect(error?.diagnostics.map { "\($0.line):\($0.column) \($0.message)" } == ["3:\(column) \(message)"])
        }
    }
}
