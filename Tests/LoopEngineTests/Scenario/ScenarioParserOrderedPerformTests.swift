import LoopEngine
import Testing

/// `perform TASK [target T] order N [in M, …]`, `cancelPerform TASK [target T]` and `cancelPerforms target T`:
/// what each line parses into, and what a bad one is told.
@Suite("the .loop parser reads ordered performs and their cancelling")
struct ScenarioParserOrderedPerformTests {
    static func program(_ lines: String) throws -> [Action] {
        let script = try ScenarioParser.parse("thread T\n  port K\n" + lines, file: "t.loop")
        return script.scenario.threads[0].program
    }

    @Test("each form, with its defaults: target self, the default mode")
    func forms() throws {
        let program = try Self.program(
            """
              perform foo target str order 10 in default, Tracking
                say "foo"
              perform bar order 0
              cancelPerform foo target str
              cancelPerform bar
              cancelPerforms target str

            """)
        #expect(
            program == [
                .performOrdered(
                    task: "foo", target: "str", order: 10, modes: [.default, ModeName("Tracking")], [.note("foo")]),
                .performOrdered(task: "bar", target: "self", order: 0, modes: [.default], []),
                .cancelPerforms(task: "foo", target: "str"),
                .cancelPerforms(task: "bar", target: "self"),
                .cancelPerforms(task: nil, target: "str"),
            ])
    }

    @Test(
        "a bad line is told what it lacks, at its column",
        arguments: [
            (
                "  perform a target str\n", 23,
                "expected 'order' and a number or 'afterDelay' and a delay: `perform a order 10`, "
                    + "`perform a afterDelay 20ms`"
            ),
            ("  perform a order -1\n", 19, "an order is an NSUInteger: 0 or more"),
            ("  cancelPerforms str\n", 18, "expected 'target' and a name: `cancelPerforms target str`"),
        ])
    func problems(_ line: String, _ column: Int, _ message: String) {
        do {
            _ = try Self.program(line)
            Issue.record("expected a diagnostic")
        } catch let error as ScenarioDiagnostics {
            let match = error.diagnostics.first { $0.line == 3 && $0.column == column }
            #expect(match?.message == message, "got: \(error.diagnostics.map(\.description))")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("an `at` block has no loop of its own to queue an ordered perform on")
    func notFromOutside() {
        let source = "thread T\n  port K\n  run default for 1s\nat 10ms on T\n  perform a order 1\n"
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            Issue.record("expected a diagnostic")
        } catch {
            #expect(
                error.diagnostics.map(\.message) == [
                    "perform … order from outside: an `at` block has no run loop of its own; let a thread perform it"
                ])
        }
    }
}
