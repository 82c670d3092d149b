#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// Dependencies across queues on real threads: two threads add operations to two queues at once, each operation
    /// waiting for operations of the other queue - often added a moment later by the other thread, or finishing
    /// just as it is added. Both queues keep finishing operations the other waits for, so a queue that called into
    /// the other with its own lock held would deadlock, and a finish published between "not finished yet" and "tell
    /// me" would be lost. Every operation must finish exactly once and start only after its dependencies finished.
    /// Clean under ThreadSanitizer (`Scripts/tsan-real.sh`).
    @Suite("stress: dependencies across two queues, added from two threads")
    struct PoolCrossQueueStressTests {
        static let perQueue = 600

        /// `a1 …` on queue A from thread `addA`, `b1 …` on B from `addB`: `aK` waits for `bK-1` and `bK-2`, `bK` for
        /// `aK-1`; every 25th of each thread cancels an operation of the other queue.
        static func scenario() -> Scenario {
            func program(_ mine: String, _ theirs: String, waitsFor: [Int]) -> [Action] {
                var program: [Action] = []
                for index in 1...perQueue {
                    let after = waitsFor.map { index - $0 }.filter { $0 >= 1 }.map { "\(theirs)\($0)" }
                    let body: OperationSpec.Body =
                        index % 40 == 0
                        ? .work(.microseconds(300), checkEvery: .microseconds(100)) : .work(.zero, checkEvery: nil)
                    program.append(
                        .addOperation(
                            queue: mine.uppercased(),
                            OperationSpec(name: "\(mine)\(index)", dependencies: after, body: body)))
                    if index % 25 == 0 { program.append(.cancelOperation("\(theirs)\(index - 3)")) }
                }
                return program + [.waitUntilAllFinished(queue: mine.uppercased())]
            }
            return Scenario(
                name: "across queues",
                threads: [
                    ThreadSpec(name: "addA", items: [], program: program("a", "b", waitsFor: [1, 2])),
                    ThreadSpec(name: "addB", items: [], program: program("b", "a", waitsFor: [1])),
                ],
                queues: [
                    QueueSpec(name: "A", limit: 2, idleTimeout: .milliseconds(20)),
                    QueueSpec(name: "B", limit: 3, idleTimeout: .milliseconds(20)),
                ])
        }

        @Test func everyOperationFinishesOnceAndNoneStartsBeforeItsDependenciesOnTheOtherQueue() {
            RealTimeGate.exclusive {
                let scenario = Self.scenario()
                let outcome = RealScenarioRunner.run(scenario, timeLimit: .seconds(120))
                #expect(outcome.haltReason == nil, "the queues did not drain within the time limit")
                let events = outcome.events
                var finished: [String: Int] = [:]
                var started: [String: Int] = [:]
                for event in events {
                    guard let name = event.name else { continue }
                    if event.kind == .opFinish { finished[name, default: 0] += 1 }
                    if event.kind == .opStart { started[name, default: 0] += 1 }
                }
                #expect(finished.count == 2 * Self.perQueue, "never finished: \(2 * Self.perQueue - finished.count)")
                #expect(finished.values.allSatisfy { $0 == 1 }, "an operation finished twice")
                #expect(started.values.allSatisfy { $0 == 1 }, "an operation started twice")
                var dependencies: [String: [String]] = [:]
                for spec in PoolComparison.operations(in: scenario) { dependencies[spec.name] = spec.dependencies }
                let side = PoolComparison.Side(
                    title: "real threads", trace: events, limits: ["A": 2, "B": 3], dependencies: dependencies)
                #expect(side.dependencyViolations.isEmpty, "\(side.dependencyViolations.prefix(5))")
                #expect(side.limitViolations.isEmpty, "\(side.limitViolations.prefix(5))")
                let cancelled = events.filter { $0.kind == .opFinish && $0.detail?.hasPrefix("cancelled") == true }
                #expect(!cancelled.isEmpty, "some cancels must have reached an operation not finished yet")
            }
        }
    }
}
#endif
