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
    }
}
#endif
