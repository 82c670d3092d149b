import LoopEngine
import Testing

/// `ask` lines: quiz points anchored as `say` lines are, with the lesson's own choices in parentheses.
@Suite("ask lines mark where the quiz asks what runs next")
struct QuestionParserTests {
    @Test("at TIME, at step N and after EVENT, with and without choices")
    func anchors() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              port K in default
              source0 s in default
              run default for 200ms
            ask "first?" at 0ms
            ask "then?" after beforeWaiting (sleep, T: source0 s, 0.100 wake)
            ask "last?" at step 9
            """)
        #expect(
            script.questions == [
                Question(anchor: .time(.zero), prompt: "first?", line: 5),
                Question(
                    anchor: .after(Expectation.Step(kind: .beforeWaiting, line: 6)), prompt: "then?",
                    choices: [
                        Expectation.Step(kind: .sleep, line: 6),
                        Expectation.Step(thread: "T", kind: .source0, name: "s", line: 6),
                        Expectation.Step(
                            time: .milliseconds(100), resolution: .milliseconds(1), kind: .wake, line: 6),
                    ], line: 6),
                Question(anchor: .step(9), prompt: "last?", line: 7),
            ])
        #expect(script.narration.isEmpty)
    }

    @Test("an ask line without an anchor, with an unclosed list or too many choices, is an error with its column")
    func errors() {
        let cases: [(String, Int, String)] = [
            (
                "ask \"x\" 100ms", 9,
                "expected 'at' and a time or a step, or 'after' and an event: "
                    + "`ask \"What runs next?\" after beforeSources`"
            ),
            (
                "ask \"x\" after sleep (wake, exit", 32,
                "expected ')' after the choices: `(sleep, source0 render, wake)`"
            ),
            (
                "ask \"x\" at 1ms (wake, exit, sleep, entry, beforeTimers)", 1,
                "a question offers at most 4 choices; this one has 5"
            ),
            ("ask \"x\" at step 0", 17, "steps are counted from 1"),
        ]
        for (source, column, message) in cases {
            let error = #expect(throws: ScenarioDiagnostics.self) {
                try ScenarioParser.parse("thread T\n  run default for 1s\n" + source)
            }
            #expect(error?.diagnostics.map { "\($0.line):\($0.column) \($0.message)" } == ["3:\(column) \(message)"])
        }
    }
}
