import LoopEngine
import Testing

/// docs/cfrunloop.md, "One item, two loops": an item of one thread added to another thread's loop (`add X to M on
/// THREAD`). A timer or an observer belongs to one loop until it leaves its last mode there; a source may be in
/// many loops. Each runs a small scenario on the virtual clock and checks every step but the loop's own passes.
@Suite("one item in the loops of two threads")
struct SharedItemTests {
    static func steps(_ source: String) throws -> [String] {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        let passes: Set<LoopEvent.Kind> = [
            .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .sleep, .wake, .entry, .exit,
        ]
        return outcome.events.filter { !passes.contains($0.kind) }.map { event in
            "\(event.time) \(event.loop): \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("a timer still in a mode of its loop is not added to another; out of its last mode, the other takes it")
    func timerBelongsToOneLoop() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread U
              timer tick at 20ms every 20ms in default, Other
              add tick to default on T
              remove tick from default
              add tick to default on T
              work 30ms
              remove tick from Other
              add tick to default on T
            thread T
              port K
              run default for 70ms
            """)
        #expect(
            steps == [
                "0.000 T: schedule K (mode default)",
                "0.000 T: note tick (timer tick is in U's loop: CF silently does not add it here (one loop per timer))",
                "0.000 T: note tick (timer tick is in U's loop: CF silently does not add it here (one loop per timer))",
                "0.000 T: runStart default (limit 0.070s)",
                "0.030 T: timer tick (due 0.020, added late)",
                "0.040 T: timer tick",
                "0.060 T: timer tick",
                "0.070 T: wakeUp (timeout)", "0.070 T: result timedOut",
            ])
    }

    @Test("an observer of another loop is not added; removed from its loop, it is called by the other")
    func observerBelongsToOneLoop() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread U
              port K
              observer watch on entry
              add watch to default on T
              run default for 10ms
              remove watch from default
              add watch to common on T
            thread T
              port K2
              work 5ms
              run default for 10ms
              work 10ms
              run default for 10ms
            """)
        #expect(
            steps == [
                "0.000 U: schedule K (mode default)",
                "0.000 T: schedule K2 (mode default)",
                "0.000 T: note watch (observer watch is in U's loop: CF silently does not add it here (one loop per "
                    + "observer))",
                "0.000 U: runStart default (limit 0.010s)",
                "0.000 U: observer watch (entry)",
                "0.005 T: runStart default (limit 0.010s)",
                "0.010 U: wakeUp (timeout)", "0.010 U: result timedOut",
                "0.015 T: wakeUp (timeout)", "0.015 T: result timedOut",
                "0.025 T: runStart default (limit 0.010s)",
                "0.025 T: observer watch (entry)",
                "0.035 T: wakeUp (timeout)", "0.035 T: result timedOut",
            ])
    }

    @Test("a source in two loops: the loop that looks performs the one signal; removed from one, the other keeps it")
    func sourceInTwoLoops() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread U
              port K
              source0 s
                say "performed"
              add s to default on T
              run default for 100ms
            thread T
              port K2
              run default for 100ms
            at 10ms on U
              signal s
              wakeup on T
            at 30ms on U
              signal s
              wakeup
              wakeup on T
            at 50ms on U
              remove s from default on T
              signal s
              wakeup on T
            at 70ms on U
              invalidate s
            """)
        #expect(
            steps == [
                "0.000 U: schedule K (mode default)",
                "0.000 U: schedule s (mode default)",
                "0.000 T: schedule K2 (mode default)",
                "0.000 T: schedule s (mode default)",
                "0.000 U: runStart default (limit 0.100s)",
                "0.000 T: runStart default (limit 0.100s)",
                "0.010 U: signal s", "0.010 T: signal s", "0.010 T: wakeUp",
                "0.010 T: source0 s", "0.010 T: note (performed)",
                "0.030 U: signal s", "0.030 T: signal s", "0.030 U: wakeUp", "0.030 T: wakeUp",
                "0.030 U: source0 s", "0.030 U: note (performed)",
                "0.050 T: cancel s (mode default)", "0.050 U: signal s", "0.050 T: wakeUp",
                "0.070 U: invalidate s (version-0 source, left default)", "0.070 U: cancel s (mode default)",
                "0.100 U: wakeUp (timeout)", "0.100 T: wakeUp (timeout)",
                "0.100 U: result timedOut", "0.100 T: result timedOut",
            ])
    }

    @Test("a callout performed by another thread's loop is that thread's code: its stop stops that loop")
    func calloutIsThePerformersCode() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread U
              port K
              source0 s in nothing
                stop
              add s to default on T
              run default for 50ms
            thread T
              port K2
              run default for 50ms
            at 10ms on U
              signal s
              wakeup on T
            """)
        #expect(
            steps == [
                "0.000 U: schedule K (mode default)",
                "0.000 T: schedule K2 (mode default)",
                "0.000 T: schedule s (mode default)",
                "0.000 U: runStart default (limit 0.050s)",
                "0.000 T: runStart default (limit 0.050s)",
                "0.010 T: signal s", "0.010 T: wakeUp",
                "0.010 T: source0 s", "0.010 T: stop", "0.010 T: wakeUp (stop)",
                "0.010 T: result stopped",
                "0.050 U: wakeUp (timeout)", "0.050 U: result timedOut",
            ])
    }

    @Test(
        "the common modes of another loop decline a timer of this one too, and a later common mode there gets nothing")
    func commonModesDecline() throws {
        let steps = try Self.steps(
            """
            iteration cost 0s
            thread U
              timer tick at 20ms
              add tick to common on T
            thread T
              port K in common
              work 5ms
              common Tracking
              run Tracking for 40ms
            """)
        #expect(
            steps == [
                "0.000 T: schedule K (mode default)",
                "0.000 T: note tick (timer tick is in U's loop: CF silently does not add it here (one loop per timer))",
                "0.005 T: schedule K (mode Tracking)",
                "0.005 T: runStart Tracking (limit 0.040s)",
                "0.045 T: wakeUp (timeout)", "0.045 T: result timedOut",
            ])
    }

    @Test("`on THREAD` names a loop; naming that thread's own item, a thread that does not exist, or itself")
    func parserCases() throws {
        do {
            _ = try ScenarioParser.parse(
                """
                thread U
                  timer tick at 20ms
                  add own to default on T
                  add tick to default on Nobody
                thread T
                  timer own at 10ms
                """, file: "t.loop")
            Issue.record("expected diagnostics")
        } catch {
            #expect(
                error.diagnostics.map { "\($0.line):\($0.column) \($0.message)" } == [
                    "3:7 'own' is an item of T; `on T` hands that loop an item of this thread (in T's own program, "
                        + "write `add own to …`)",
                    "4:26 unknown thread 'Nobody' (known: U, T)",
                ])
        }
        let own = try ScenarioParser.parse(
            """
            iteration cost 0s
            thread U
              timer tick at 20ms in nothing
              add tick to default on U
              remove tick from default on U
            """, file: "t.loop")
        #expect(own.scenario.threads[0].program == [.add("tick", .default), .remove("tick", .default)])
        let other = try ScenarioParser.parse(
            """
            iteration cost 0s
            thread U
              source0 s
              add s to Other on T
              remove s from Other on T
            thread T
              port K
            """, file: "t.loop")
        #expect(
            other.scenario.threads[0].program == [
                .addOn(thread: "T", item: "s", ModeName("Other")), .removeOn(thread: "T", item: "s", ModeName("Other")),
            ])
    }
}
