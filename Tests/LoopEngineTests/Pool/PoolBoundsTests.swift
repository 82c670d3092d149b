import Testing

@testable import LoopEngine

/// What a pool costs the virtual world: check points that nothing observes, and many workers.
@Suite("a pool's cost on the virtual clock is that of its events")
struct PoolBoundsTests {
    static func checking(_ name: String, _ work: Duration, every: Duration) -> Action {
        .addOperation(queue: "Q", OperationSpec(name: name, body: .work(work, checkEvery: every)))
    }

    /// The pool's events, as `ns thread kind name (detail)`.
    static func lines(_ events: [LoopEvent]) -> [String] {
        events.filter(\.kind.isPool).map { event in
            "\(event.time.nanoseconds) \(event.loop) \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    static func scenario(limit: Int, _ program: [Action], outside: [OutsideEvent] = []) -> Scenario {
        Scenario(
            name: "pool", threads: [ThreadSpec(name: "main", items: [], program: program)], outside: outside,
            queues: [QueueSpec(name: "Q", limit: limit, idleTimeout: .seconds(1))])
    }

    @Test("two operations checking every microsecond hand the baton over at their events, not at 2,000 check points")
    func checkPointsNobodyObservesCostNothing() {
        let (outcome, world) = ScenarioRunner.runHosted(
            Self.scenario(
                limit: 2,
                [
                    Self.checking("a", .milliseconds(1), every: .microseconds(1)),
                    Self.checking("b", .milliseconds(1), every: .microseconds(1)),
                    .waitUntilAllFinished(queue: "Q"),
                ]))
        #expect(
            Self.lines(outcome.events) == [
                "0 Q opAdd a (priority normal, work 0.001s check every 0.000001s)",
                "0 Q opReady a",
                "0 Q.1 threadCreate Q.1 (worker of Q)",
                "0 Q opAdd b (priority normal, work 0.001s check every 0.000001s)",
                "0 Q opReady b",
                "0 Q.2 threadCreate Q.2 (worker of Q)",
                "0 Q queue waitAll",
                "0 Q.1 opStart a (new thread)",
                "0 Q.2 opStart b (new thread)",
                "1000000 Q.1 opFinish a (done)",
                "1000000 Q.2 opFinish b (done)",
                "1001000000 Q.1 threadExit Q.1 (idle for 1.000s: retired after 1 operation)",
                "1001000000 Q.2 threadExit Q.2 (idle for 1.000s: retired after 1 operation)",
            ])
        // Looking at each check point took the baton from one worker to the other 2,000 times.
        #expect(world.batonHandOvers < 40)
    }

    @Test("a cancel is seen at the first check point after it, among 10⁹ of them")
    func aCancelStopsAtItsCheckPoint() {
        let (outcome, world) = ScenarioRunner.runHosted(
            Self.scenario(
                limit: 2,
                [
                    Self.checking("a", .seconds(1), every: .nanoseconds(1)),
                    Self.checking("b", .seconds(1), every: .nanoseconds(3)),
                    .waitUntilAllFinished(queue: "Q"),
                ],
                outside: [
                    OutsideEvent(at: .nanoseconds(1_000_001), thread: "main", [.cancelOperation("a")]),
                    OutsideEvent(at: .nanoseconds(1_000_001), thread: "main", [.cancelOperation("b")]),
                ]))
        let finishes = Self.lines(outcome.events).filter { $0.contains("opFinish") || $0.contains("opCancel") }
        #expect(
            finishes == [
                // Both outside events come before any thread looks at the instant's check points.
                "1000001 Q opCancel a (executing: it stops at its next check)",
                "1000001 Q opCancel b (executing: it stops at its next check)",
                "1000001 Q.1 opFinish a (cancelled while running)",
                "1000002 Q.2 opFinish b (cancelled while running)",
            ])
        #expect(world.batonHandOvers < 40)
    }

    @Test("a baton handed over wakes only its new holder, however many workers wait")
    func aHandOverWakesOneThread() {
        let uploads = (1...200).map { index in
            Action.addOperation(
                queue: "Q", OperationSpec(name: "u\(index)", body: .async, replyAfter: .milliseconds(1)))
        }
        let (outcome, world) = ScenarioRunner.runHosted(
            Self.scenario(limit: 200, uploads + [.waitUntilAllFinished(queue: "Q")]))
        #expect(outcome.events.filter { $0.kind == .opFinish }.count == 200)
        // One shared condition woke every waiting worker at every hand-over: about 200 times as many.
        #expect(world.batonWakeUps <= world.batonHandOvers)
    }

    @Test("a thread past the limit halts the run with a ThreadLimit, every OS thread joined")
    func theThreadLimitHalts() {
        let uploads = (1...600).map { index in
            Action.addOperation(
                queue: "Q", OperationSpec(name: "u\(index)", body: .async, replyAfter: .milliseconds(1)))
        }
        let (outcome, world) = ScenarioRunner.runHosted(
            Self.scenario(limit: 600, uploads + [.waitUntilAllFinished(queue: "Q")]))
        // main and workers Q.1 to Q.511 are the 512 threads there may be at once.
        #expect(outcome.haltReason == .threadLimit(ThreadLimit(thread: "Q.512", running: 512, osError: nil)))
        #expect(outcome.endTime == .zero)
        #expect(!outcome.events.contains { $0.kind == .opFinish })
        #expect(world.osThreadsStarted == 511 && world.osThreadsJoined == 511)
    }
}
