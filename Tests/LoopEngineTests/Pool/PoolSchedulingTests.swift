import LoopEngine
import Testing

/// The operation queue's scheduling rules on the virtual clock, as exact pool traces.
@Suite("an operation queue on run-loop threads (virtual clock)")
struct PoolSchedulingTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func work(
        _ name: String, _ millis: Int, priority: QueuePriority = .normal, after: [String] = []
    )
        -> Action
    {
        .addOperation(
            queue: "Q",
            OperationSpec(name: name, priority: priority, dependencies: after, body: .work(ms(millis), checkEvery: nil))
        )
    }

    /// A scenario whose main thread does `program`, with one queue `Q`.
    static func scenario(_ queue: QueueSpec, _ program: [Action], outside: [OutsideEvent] = []) -> Scenario {
        Scenario(
            name: "pool", threads: [ThreadSpec(name: "main", items: [], program: program)], outside: outside,
            queues: [queue])
    }

    /// The pool's events only, as `ms thread kind name (detail)`.
    static func poolLines(_ scenario: Scenario) -> [String] {
        ScenarioRunner.run(scenario).events.filter(\.kind.isPool).map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.loop) \(event.step)"
                + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test func aLimitOfOneRunsOperationsOneAfterAnotherOnOneReusedThread() {
        let lines = Self.poolLines(
            Self.scenario(
                QueueSpec(name: "Q", limit: 1, idleTimeout: .seconds(1)),
                [Self.work("a", 100), Self.work("b", 50), .waitUntilAllFinished(queue: "Q")]))
        #expect(
            lines == [
                "0 Q opAdd a (priority normal, work 0.100s)",
                "0 Q opReady a",
                "0 Q.1 threadCreate Q.1 (worker of Q)",
                "0 Q opAdd b (priority normal, work 0.050s)",
                "0 Q opReady b",
                "0 Q queue waitAll",
                "0 Q.1 opStart a (new thread)",
                "100 Q.1 opFinish a (done)",
                "100 Q.1 opStart b (reused thread (1 before))",
                "150 Q.1 opFinish b (done)",
                "1150 Q.1 threadExit Q.1 (idle for 1.000s: retired after 2 operations)",
            ])
    }
}
