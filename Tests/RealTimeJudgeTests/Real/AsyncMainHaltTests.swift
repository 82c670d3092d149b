#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// An async main on real threads (docs/concurrency.md, "The async main"): its main thread, left to serve the main
    /// queue without a loop, ends with the run whether the body's `exit(0)` or the time limit ends it.
    @Suite("an async main on real threads")
    struct AsyncMainHaltTests {
        @Test("the time limit ends a run whose async main still sleeps: the main queue's wait is woken by the halt")
        func theTimeLimitWakesTheMainQueuesWait() throws {
            try RealTimeGate.exclusive {
                let scenario = try ScenarioParser.parse(
                    "thread app main async\n  await sleep 20s\n  mainqueue never\n", file: "t.loop"
                ).scenario
                let outcome = RealScenarioRunner.run(scenario, timeLimit: .milliseconds(300))
                #expect(outcome.haltReason == .horizon)
                #expect(!outcome.events.contains { $0.kind == .mainQueue })
                // Not held up by the twenty-second sleep (a wide margin: this is no timing test).
                #expect(outcome.endTime < .zero + .seconds(4))
            }
        }

        @Test("the body's exit(0) ends a run whose other thread would run for seconds more")
        func exitEndsTheRun() throws {
            try RealTimeGate.exclusive {
                let scenario = try ScenarioParser.parse(
                    "thread app main async\n  await sleep 50ms\nthread worker\n  run default for 10s\n", file: "t.loop"
                ).scenario
                let outcome = RealScenarioRunner.run(scenario, timeLimit: .seconds(20))
                #expect(outcome.haltReason == nil)
                #expect(
                    outcome.events.last?.fact == .note(.asyncMainExits(task: "app", because: .returned)),
                    "\(outcome.events.suffix(3))")
                #expect(outcome.endTime < .zero + .seconds(4))
            }
        }
    }
}
#endif
