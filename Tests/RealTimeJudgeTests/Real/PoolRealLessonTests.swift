#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

/// The pool lessons on real threads: which worker takes which operation, and the order of different workers'
/// events at one instant, are the OS scheduler's choice there, so they are compared on what must agree
/// (`PoolComparison`: start order where the limit is 1, the limit, outcomes, dependency order) rather than step
/// for step.
@Suite("the pool lessons on real threads")
struct PoolRealLessonTests {
    static let poolLessons = ExampleFiles.lessons.filter { name in
        !((try? ExampleFiles.load(name))?.scenario.queues.isEmpty ?? true)
    }

    @Test("the pool lessons are the examples that declare a queue")
    func lessonsExist() {
        // A new pool lesson belongs here, so that it is known to run on real threads.
        #expect(
            Self.poolLessons == [
                "18-upload-pool.loop", "19-queue-priorities.loop", "20-operation-dependencies.loop",
                "21-thread-per-task-vs-pool.loop", "22-download-then-process.loop",
                "28-one-async-operation-step-by-step.loop", "44-gcd-block-cannot-be-cancelled.loop",
            ])
    }

    /// Per queue, how many workers it created in `events` (from each `threadCreate`'s origin).
    static func workersPerQueue(_ events: [LoopEvent]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in events where event.kind == .threadCreate {
            if case .origin(.worker(of: let queue)) = event.fact { counts[queue, default: 0] += 1 }
        }
        return counts
    }

    @Test("each pool lesson on real threads does what it does on the virtual clock", arguments: poolLessons)
    func poolLessonOnRealThreads(_ name: String) throws {
        try RealTimeGate.exclusive {
            let script = try ExampleFiles.load(name)
            let scenario = script.scenario
            let virtual = ScenarioRunner.run(scenario, horizon: script.until ?? .seconds(60))
            #expect(virtual.haltReason == nil)
            let real = RealScenarioRunner.run(scenario, timeLimit: virtual.endTime - .zero + .seconds(5))
            #expect(real.haltReason == nil, "the programs and workers did not end on real threads")
            let comparison = PoolComparison(engine: real.events, reference: virtual.events, scenario: scenario)
            #expect(comparison.agrees, "\(name): \(comparison.verdict)\n\(comparison.eventListing())")
            // How many workers were needed depends on which of two things at one instant came first (lesson 20);
            // every one of them ended (retired after its idle timeout). The same queues needed workers, each at least
            // one and at most one per operation it was given.
            let created = real.events.filter { $0.kind == .threadCreate }.map(\.loop)
            #expect(Set(real.events.filter { $0.kind == .threadExit }.map(\.loop)) == Set(created))
            let workers = Self.workersPerQueue(real.events)
            #expect(Set(workers.keys) == Set(Self.workersPerQueue(virtual.events).keys))
            for (queue, count) in workers {
                let operations = real.events.filter { $0.kind == .opAdd && $0.loop == queue }.count
                #expect(
                    (1...max(operations, 1)).contains(count), "\(queue): \(count) workers for \(operations) operations")
            }
        }
    }
}
#endif
