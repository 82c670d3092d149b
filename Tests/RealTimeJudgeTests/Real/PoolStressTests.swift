#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// The pool on real threads under a burst: four threads add 10,000 operations to one queue (and cancel some of
    /// each other's) while its workers run them. Every operation must finish exactly once - done or cancelled -
    /// and the limit must never be exceeded. Clean under ThreadSanitizer (`Scripts/tsan-real.sh`).
    @Suite("stress: a burst of 10,000 operations from four threads")
    struct PoolStressTests {
        static let adders = 4
        static let perAdder = 2_500
        static let limit = 3

        /// Thread `k` adds its operations `pk.1 …`, mixed priorities and some dependencies on its own earlier ones;
        /// every 10th it cancels an operation of the next thread (whatever state it is in by then, or not added yet).
        static func scenario() -> Scenario {
            let threads = (1...adders).map { thread in
                var program: [Action] = []
                for index in 1...perAdder {
                    let priority = QueuePriority.allCases[(index * 7 + thread) % QueuePriority.allCases.count]
                    let after = index % 50 == 0 ? ["p\(thread).\(index - 1)"] : []
                    let body: OperationSpec.Body =
                        index % 100 == 0
                        ? .work(.microseconds(200), checkEvery: .microseconds(50)) : .work(.zero, checkEvery: nil)
                    program.append(
                        .addOperation(
                            queue: "Q",
                            OperationSpec(
                                name: "p\(thread).\(index)", priority: priority, dependencies: after, body: body)))
                    if index % 10 == 0 { program.append(.cancelOperation("p\(thread % adders + 1).\(index - 5)")) }
                }
                program.append(.waitUntilAllFinished(queue: "Q"))
                return ThreadSpec(name: "adder\(thread)", items: [], program: program)
            }
            return Scenario(
                name: "burst", threads: threads,
                queues: [QueueSpec(name: "Q", limit: limit, idleTimeout: .milliseconds(20))])
        }

        @Test func everyOperationFinishesExactlyOnceAndTheLimitIsNeverExceeded() {
            RealTimeGate.exclusive {
                let outcome = RealScenarioRunner.run(Self.scenario(), timeLimit: .seconds(120))
                #expect(outcome.haltReason == nil, "the burst did not drain within the time limit")
                let events = outcome.events
                let total = Self.adders * Self.perAdder
                var added: [String: Int] = [:]
                var finished: [String: Int] = [:]
                var started: [String: Int] = [:]
                var executing = 0
                var most = 0
                for event in events {
                    guard let name = event.name else { continue }
                    switch event.kind {
                    case .opAdd: added[name, default: 0] += 1
                    case .opStart:
                        started[name, default: 0] += 1
                        executing += 1
                        most = max(most, executing)
                    case .opFinish:
                        finished[name, default: 0] += 1
                        if started[name] != nil { executing -= 1 }
                    default: break
                    }
                }
                #expect(added.count == total && added.values.allSatisfy { $0 == 1 })
                #expect(finished.count == total, "operations never finished: \(total - finished.count)")
                #expect(finished.values.allSatisfy { $0 == 1 }, "an operation finished twice")
                #expect(started.values.allSatisfy { $0 == 1 }, "an operation started twice")
                #expect(most <= Self.limit, "executing at once: \(most), limit \(Self.limit)")
                #expect(most >= 1)
                let cancelled = events.filter { $0.kind == .opFinish && $0.detail?.hasPrefix("cancelled") == true }
                #expect(!cancelled.isEmpty, "some cancels must have reached a queued or running operation")
                // Every worker ended: retired after its idle timeout, or unwound when the run ended.
                let created = Set(events.filter { $0.kind == .threadCreate }.map(\.loop))
                let exited = Set(events.filter { $0.kind == .threadExit }.map(\.loop))
                #expect(created == exited)
            }
        }
    }
}
#endif
