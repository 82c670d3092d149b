import LoopEngine
import Testing

/// A wait nothing left can end leaves the world idle; the outcome names the thread and what it waited for.
@Suite("waits that never end")
struct StuckWaitTests {
    static func outcome(_ text: String) throws -> ScenarioRunner.Outcome {
        ScenarioRunner.run(try ScenarioParser.parse(text).scenario)
    }

    @Test("a wait for a suspended queue's operations never ends: the world goes idle naming the thread and queue")
    func waitForASuspendedQueue() throws {
        let outcome = try Self.outcome(
            """
            queue q limit 1 suspended
            thread A
              operation o on q work 10ms
              wait for q
            """)
        #expect(outcome.haltReason == .idle)
        #expect(outcome.stuckWaits == [StuckWait(thread: "A", wait: .allOperations(queue: "q"))])
        #expect(outcome.events.last.map { "\($0.kind) \($0.name ?? "")" } == "queue waitAll")
    }

    @Test("a perform that waits for a thread whose program has ended never returns")
    func performOnAnEndedThread() throws {
        let outcome = try Self.outcome(
            """
            thread main main
              work 10ms
              perform task on worker wait
                say "never"
              say "main goes on"
            thread worker
              say "worker ends"
            """)
        #expect(outcome.haltReason == .idle)
        #expect(outcome.stuckWaits == [StuckWait(thread: "main", wait: .performed(task: "task", target: "worker"))])
        #expect(!outcome.events.contains { $0.detail == "never" || $0.detail == "main goes on" })
    }

    @Test("waits that end leave nothing stuck, and a world that ends idle with loops asleep names no thread")
    func nothingStuck() throws {
        let finished = try Self.outcome(
            """
            queue q limit 1
            thread A
              operation o on q work 10ms
              wait for q
            """)
        #expect(finished.haltReason == nil && finished.stuckWaits.isEmpty)
        let asleep = try Self.outcome(
            """
            thread T
              port p in default
              run default forever
            """)
        #expect(asleep.haltReason == .idle && asleep.stuckWaits.isEmpty)
    }
}
