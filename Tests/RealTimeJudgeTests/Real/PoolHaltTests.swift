#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// Ending a run on real threads while a pool works: the halt interrupts the work, nothing that did not finish is
    /// reported finished, and every thread is joined.
    @Suite("the pool when a real run ends")
    struct PoolHaltTests {
        @Test func aHaltInterruptsALongOperationAndLeavesItUnfinished() {
            RealTimeGate.exclusive {
                let scenario = Scenario(
                    name: "long",
                    threads: [
                        ThreadSpec(
                            name: "main", items: [],
                            program: [
                                .addOperation(
                                    queue: "Q", OperationSpec(name: "big", body: .work(.seconds(5), checkEvery: nil))),
                                .addOperation(queue: "Q", OperationSpec(name: "up", body: .async)),
                                .waitUntilAllFinished(queue: "Q"),
                            ])
                    ],
                    queues: [QueueSpec(name: "Q", limit: 2)])
                let outcome = RealScenarioRunner.run(scenario, timeLimit: .milliseconds(300))
                #expect(outcome.haltReason == .horizon)
                #expect(Set(outcome.events.filter { $0.kind == .opStart }.compactMap(\.name)) == ["big", "up"])
                #expect(!outcome.events.contains { $0.kind == .opFinish }, "\(outcome.events.filter(\.kind.isPool))")
                // The five-second operation did not hold the halt up (a wide margin: this is no timing test).
                #expect(outcome.endTime < .zero + .seconds(4))
            }
        }

        @Test("a thread past the limit halts a real run with the same ThreadLimit as the virtual clock's")
        func theThreadLimitHaltsARealRun() {
            RealTimeGate.exclusive {
                // Replies long after the limit is reached: no worker comes free to take a later upload.
                let uploads = (1...600).map { index in
                    Action.addOperation(
                        queue: "Q", OperationSpec(name: "u\(index)", body: .async, replyAfter: .seconds(5)))
                }
                let scenario = Scenario(
                    name: "pool",
                    threads: [
                        ThreadSpec(name: "main", items: [], program: uploads + [.waitUntilAllFinished(queue: "Q")])
                    ],
                    queues: [QueueSpec(name: "Q", limit: 600, idleTimeout: .seconds(1))])
                let outcome = RealScenarioRunner.run(scenario, timeLimit: .seconds(20))
                // main and workers Q.1 to Q.511 are the 512 threads there may be at once.
                #expect(outcome.haltReason == .threadLimit(ThreadLimit(thread: "Q.512", running: 512, osError: nil)))
                #expect(!outcome.events.contains { $0.kind == .opFinish })
            }
        }
    }
}
#endif
