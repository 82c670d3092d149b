import LoopEngine
import Testing

/// `perform TASK [target T] afterDelay D [in M, …]`, `cancelPrevious TASK [target T]` and `cancelPrevious target
/// T`: what each line parses into, and what a bad one is told.
@Suite("the .loop parser reads delayed performs and their cancelling")
struct ScenarioParserDelayedPerformTests {
    static func program(_ lines: String) throws -> [Action] {
        let script = try ScenarioParser.parse("thread T\n  port K\n" + lines, file: "t.loop")
        return script.scenario.threads[0].program
    }

    static func messages(_ source: String) -> [String] {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            return []
        } catch {
            return error.diagnostics.map(\.message)
        }
    }

    @Test("each form, with its defaults: target self, the default mode")
    func forms() throws {
        let program = try Self.program(
            """
              perform save target doc afterDelay 200ms in default, Tracking
                say "saved"
              perform tick afterDelay 0ms
              cancelPrevious save target doc
              cancelPrevious tick
              cancelPrevious target doc

            """)
        #expect(
            program == [
                .performDelayed(
                    task: "save", target: "doc", delay: .milliseconds(200), modes: [.default, ModeName("Tracking")],
                    [.note("saved")]),
                .performDelayed(task: "tick", target: "self", delay: .zero, modes: [.default], []),
                .cancelDelayedPerforms(task: "save", target: "doc"),
                .cancelDelayedPerforms(task: "tick", target: "self"),
                .cancelDelayedPerforms(task: nil, target: "doc"),
            ])
    }

    @Test(
        "a bad line is told what it lacks, at its column",
        arguments: [
            ("  perform a afterDelay\n", "expected the delay, e.g. `afterDelay 20ms` (0 waits for the timer too)"),
            ("  perform a afterDelay -5ms\n", "a duration cannot be negative here"),
            ("  cancelPrevious\n", "expected 'target' and a name, or a task: `cancelPrevious target view`"),
            ("  cancelPrevious target\n", "expected the target's name"),
        ])
    func problems(_ line: String, _ message: String) {
        #expect(Self.messages("thread T\n  port K\n" + line) == [message])
    }

    @Test("an `at` block has no loop of its own to queue a delayed perform on, or to cancel one of")
    func notFromOutside() {
        let source = """
            thread T
              port K
              run default for 1s
            at 10ms on T
              perform a afterDelay 5ms
              cancelPrevious target self

            """
        #expect(
            Self.messages(source) == [
                "perform … afterDelay from outside: an `at` block has no run loop of its own; let a thread perform it",
                "cancelPrevious from outside: it cancels the current thread's requests, and an `at` block has no "
                    + "thread",
            ])
    }
}
