import LoopEngine
import Testing

/// docs/cfrunloop.md §18: a custom source's schedule and cancel scripts, its command queue, and their words in
/// the language. Each runs a small scenario on the virtual clock and checks every step but the loop's own
/// passes (activities, sleeps and wakes), with its time.
@Suite("a custom source's schedule and cancel callouts and its command queue")
struct SourceCalloutTests {
    static func steps(_ source: String) throws -> [String] {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        let passes: Set<LoopEvent.Kind> = [.beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .sleep, .wake]
        return outcome.events.filter { !passes.contains($0.kind) }.map { event in
            "\(event.time) \(event.loop): \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("§11.1 an add to the common modes schedules in CF's set order of their names, and a remove cancels so too")
    func commonModesInSetOrder() throws {
        let steps = try Self.steps(
            """
            thread T
              common ModeA, ModeB, ModeC, ModeD
              source0 s in nothing
                on schedule: work 1ms
              add s to common
              remove s from common
            """)
        #expect(
            steps == [
                "0.000 T: schedule s (mode ModeD)", "0.001 T: schedule s (mode default)",
                "0.002 T: schedule s (mode ModeC)", "0.003 T: schedule s (mode ModeB)",
                "0.004 T: schedule s (mode ModeA)", "0.005 T: cancel s (mode ModeD)",
                "0.005 T: cancel s (mode default)",
                "0.005 T: cancel s (mode ModeC)", "0.005 T: cancel s (mode ModeB)", "0.005 T: cancel s (mode ModeA)",
            ])
    }

    @Test("§11.1 an invalidation cancels a source mode by mode from the end of CF's set of the loop's modes")
    func invalidationInReverseSetOrder() throws {
        // CFRunLoopSourceInvalidate walks CFRunLoopCopyAllModes from its end (the set of every mode, not of the
        // common ones), then the common modes, which the source has left by then.
        let steps = try Self.steps(
            """
            thread T
              common ModeA, ModeB, ModeC, ModeD
              source0 s in common
                on schedule: work 1ms
              invalidate s
            """)
        #expect(
            steps == [
                "0.000 T: schedule s (mode ModeD)", "0.001 T: schedule s (mode default)",
                "0.002 T: schedule s (mode ModeC)", "0.003 T: schedule s (mode ModeB)",
                "0.004 T: schedule s (mode ModeA)",
                "0.005 T: invalidate s (version-0 source, left ModeD, default, ModeC, ModeB and ModeA)",
                "0.005 T: cancel s (mode ModeA)", "0.005 T: cancel s (mode ModeB)", "0.005 T: cancel s (mode default)",
                "0.005 T: cancel s (mode ModeC)", "0.005 T: cancel s (mode ModeD)",
            ])
    }

    @Test("the schedule script runs once per common mode and again for a mode made common; cancel once per mode left")
    func scriptsPerMode() throws {
        let steps = try Self.steps(
            """
            thread T
              common Tracking
              source0 s in nothing
                on schedule: say "scheduled"
                on schedule: call 3: say "third schedule"
                on cancel: signal s
              add s to common
              common Modal
              remove s from Tracking
              invalidate s
            """)
        #expect(
            steps == [
                "0.000 T: schedule s (mode Tracking)", "0.000 T: note (scheduled)",
                "0.000 T: schedule s (mode default)", "0.000 T: note (scheduled)",
                "0.000 T: schedule s (mode Modal)", "0.000 T: note (scheduled)", "0.000 T: note (third schedule)",
                "0.000 T: cancel s (mode Tracking)", "0.000 T: signal s",
                "0.000 T: invalidate s (version-0 source, left default and Modal)",
                "0.000 T: cancel s (mode default)", "0.000 T: cancel s (mode Modal)",
            ])
    }

    @Test("the perform drains the queue in order; a post during the perform waits; a full queue refuses")
    func queueInOrder() throws {
        let steps = try Self.steps(
            """
            thread T
              source0 s commands 2 in default
                call 1: post late to s
                work 5ms
              run default for 100ms
            at 20ms on T
              post a to s
              post b to s
              post c to s
              signal s
              wakeup
            at 50ms on T
              signal s
              wakeup
            """)
        #expect(
            steps == [
                "0.000 T: schedule s (mode default)", "0.000 T: runStart default (limit 0.100s)", "0.000 T: entry",
                "0.020 T: command a (posted to s, 1 queued)", "0.020 T: command b (posted to s, 2 queued)",
                "0.020 T: command c (refused: the queue of s is full (2 commands))", "0.020 T: signal s",
                "0.020 T: wakeUp", "0.0200015 T: source0 s", "0.0200015 T: command a (performed by s)",
                "0.0200015 T: command b (performed by s)", "0.0200015 T: command late (posted to s, 1 queued)",
                "0.050 T: signal s", "0.050 T: wakeUp", "0.0500015 T: source0 s",
                "0.0500015 T: command late (performed by s)", "0.100 T: wakeUp (timeout)", "0.1000015 T: exit",
                "0.1000015 T: result timedOut",
            ])
    }

    @Test("a removal keeps the queued commands; the invalidation drops them after its cancel callout")
    func droppedAtInvalidation() throws {
        let steps = try Self.steps(
            """
            thread T
              port K in default
              source0 s in default, Tracking
              post a to s
              remove s from Tracking
              run default for 20ms
              invalidate s
            """)
        #expect(
            steps == [
                "0.000 T: schedule K (mode default)", "0.000 T: schedule s (mode default)",
                "0.000 T: schedule s (mode Tracking)", "0.000 T: command a (posted to s, 1 queued)",
                "0.000 T: cancel s (mode Tracking)", "0.000 T: runStart default (limit 0.020s)", "0.000 T: entry",
                "0.020 T: wakeUp (timeout)", "0.0200015 T: exit", "0.0200015 T: result timedOut",
                "0.0200015 T: invalidate s (version-0 source, left default)", "0.0200015 T: cancel s (mode default)",
                "0.0200015 T: command a (dropped: s was invalidated with it queued)",
            ])
    }

    @Test("the language: on schedule and on cancel lines, commands N, post and wakeup on THREAD")
    func parses() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              source0 s commands 3 in nothing
                on schedule: wakeup on U
                on cancel: say "gone"
                work 1ms
              post x to s
            thread U
              port K
              wakeup on T
              wakeup on U
            """, file: "t.loop")
        let item = try #require(script.scenario.threads.first?.items.first)
        #expect(item.script == [ScriptStep(.work(.milliseconds(1)))])
        #expect(
            item.sourceCallouts
                == SourceCallouts(
                    schedule: [ScriptStep(.wakeUpThread("U"))], cancel: [ScriptStep(.note("gone"))], commandCapacity: 3)
        )
        #expect(script.scenario.threads[0].program == [.post(command: "x", source: "s")])
        #expect(script.scenario.threads[1].program == [.wakeUpThread("T"), .wakeUp])
        #expect(script.scenario.source0Names == ["s"])
    }

    @Test(
        "each problem of the custom source's words has its message",
        arguments: [
            (
                "thread T\n  port K\n    on schedule: wakeup", 3, 8,
                "a port has no schedule or cancel callout (CF calls them for version-0 sources only)"
            ),
            ("thread T\n  source0 s commands 0", 2, 22, "a command queue holds 1 to 1000 commands, not 0"),
            ("thread T\n  source0 s\n  post a s", 3, 10, "expected 'to' and a source: `post addItem to inputSource`"),
            ("thread T\n  port K\n  post a to K", 3, 13, "'K' is a port, but this needs a version-0 source"),
        ])
    func problems(_ source: String, _ line: Int, _ column: Int, _ message: String) {
        do {
            _ = try ScenarioParser.parse(source, file: "t.loop")
            Issue.record("expected a diagnostic")
        } catch {
            let match = error.diagnostics.first { $0.line == line && $0.column == column }
            #expect(match?.message == message, "got: \(error.diagnostics.map(\.description))")
        }
    }
}
