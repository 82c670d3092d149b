import LoopEngine
import Testing

/// docs/cfrunloop.md §17.1: a thread's loop exists from the thread's creation, so what another thread hands it in
/// the instant of its `start` waits there for its first run.
@Suite("§17.1 a thread that was just started")
struct StartedThreadTests {
    /// Every event but the loop's own passes (activities, sleeps and wakes), with its time and thread.
    static func steps(_ source: String) throws -> [String] {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        let passes: Set<LoopEvent.Kind> = [.beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .sleep, .wake]
        return outcome.events.filter { !passes.contains($0.kind) }.map { event in
            "\(event.time) \(event.loop): \(event.step)" + (event.detail.map { " (\($0)" + ")" } ?? "")
        }
    }

    @Test("a perform, a wake-up and an add in the instant a thread starts reach its loop; its first run performs")
    func handedOverAtTheStart() throws {
        let steps = try Self.steps(
            """
            thread A
              timer kick at 30ms in nothing
              start T
              perform hello on T
                say "hello runs on T"
              wakeup on T
              add kick to default on T
              work 10ms

            thread T later
              port keepAlive in default
              run default for 50ms
              say "T's run is over"
            """)
        #expect(
            steps == [
                "0.000 T: schedule performSelector (mode default)", "0.000 T: signal performSelector",
                "0.000 T: wakeUp (ignored: no run)", "0.000 T: wakeUp (ignored: no run)",
                "0.000 T: threadCreate T (detached for one task)", "0.000 T: schedule keepAlive (mode default)",
                "0.000 T: runStart default (limit 0.050s)", "0.000 T: entry", "0.000 T: source0 performSelector",
                "0.000 T: perform hello", "0.000 T: note (hello runs on T)",
                "0.000 T: cancel performSelector (mode default)", "0.030 T: timer kick", "0.050 T: wakeUp (timeout)",
                "0.0500015 T: exit", "0.0500015 T: result timedOut", "0.0500015 T: note (T's run is over)",
                "0.0500015 T: threadExit T (its task is done)",
            ])
    }

    @Test("a perform for a thread declared later and never started reaches nobody, and says so")
    func neverStarted() throws {
        let steps = try Self.steps(
            """
            thread A
              perform hello on T

            thread T later
              port keepAlive in default
              run default for 50ms
            """)
        #expect(steps == ["0.000 A: note (perform hello: there is no thread T)"])
    }
}
