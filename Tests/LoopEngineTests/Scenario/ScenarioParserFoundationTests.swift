import LoopEngine
import Testing

/// The language's Foundation calls and dates: what each line parses into, and what a bad one is told.
@Suite("the .loop parser speaks Foundation")
struct ScenarioParserFoundationTests {
    static func program(_ lines: String) throws -> [Action] {
        let script = try ScenarioParser.parse("thread T\n  port K\n" + lines, file: "t.loop")
        return script.scenario.threads[0].program
    }

    @Test("run(until:), run(mode:before:) and acceptInput(forMode:before:) with every kind of date")
    func foundationCalls() throws {
        let program = try Self.program(
            """
              RunLoop.run until 300ms
              RunLoop.run default until distantFuture
              RunLoop.run default before -100ms
              RunLoop.run Tracking before now
              RunLoop.run default before at 2s
              RunLoop.acceptInput default before distantPast
              RunLoop.acceptInput Tracking before 1.5s
              RunLoop.run

            """)
        #expect(
            program == [
                .run(.foundationUntil(.fromNow(.milliseconds(300)))),
                .run(.foundationUntil(.distantFuture)),
                .run(.foundation(.default, before: .fromNow(.milliseconds(-100)))),
                .run(.foundation(ModeName("Tracking"), before: .fromNow(.zero))),
                .run(.foundation(.default, before: .sinceStart(.seconds(2)))),
                .run(.acceptInput(.default, before: .distantPast)),
                .run(.acceptInput(ModeName("Tracking"), before: .fromNow(.milliseconds(1500)))),
                .run(.foundationForever),
            ])
    }

    @Test("an expect line can say what run(mode:before:) returned")
    func expectReturned() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  port K\n  RunLoop.run default before 0s\nexpect in order\n  0.000 returned true\n  returned false\n",
            file: "t.loop")
        let steps = script.expectations[0].steps
        #expect(steps.map(\.returned) == [true, false])
        #expect(steps.map(\.description) == ["0.000 returned true", "returned false"])
    }

    static let errors: [ScenarioErrorCase] = [
        .init(
            id: "run(until:) in another mode", source: "thread T\n  port K\n  RunLoop.run Tracking until 1s",
            line: 3, column: 24,
            message: "run(until:) always runs the default mode; for Tracking use `RunLoop.run Tracking before …`"),
        .init(
            id: "acceptInput without before", source: "thread T\n  port K\n  RunLoop.acceptInput default 1s",
            line: 3, column: 31,
            message: "expected 'before' and a limit: `RunLoop.acceptInput default before 1s`"),
        .init(
            id: "a date that is not one", source: "thread T\n  port K\n  RunLoop.run default before soon",
            line: 3, column: 30,
            message:
                "expected a date: a time from now (250ms, -100ms), now, `at 2s` (since the start), distantPast or "
                + "distantFuture"),
        .init(
            id: "a date since the start that is negative", source: "thread T\n  port K\n  RunLoop.run until at -1s",
            line: 3, column: 24, message: "a duration cannot be negative here"),
        .init(
            id: "a returned value that is not a Bool",
            source: "thread T\n  port K\n  RunLoop.run default before 0s\nexpect in order\n  returned yes", line: 5,
            column: 12, message: "run(mode:before:) returns true or false, not 'yes'"),
    ]

    @Test("a bad Foundation call is reported at its line and column", arguments: errors)
    func reportsProblem(_ errorCase: ScenarioErrorCase) {
        do {
            _ = try ScenarioParser.parse(errorCase.source, file: "t.loop")
            Issue.record("parsed without a diagnostic")
        } catch {
            let match = error.diagnostics.first { $0.line == errorCase.line && $0.column == errorCase.column }
            #expect(match?.message == errorCase.message, "got: \(error.diagnostics.map(\.description))")
        }
    }
}
