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
    static let poolLessons = ExampleLessonTests.lessons.filter { name in
        !((try? ExampleLessonTests.load(name))?.scenario.queues.isEmpty ?? true)
    }

    @Test("there are pool lessons to check")
    func lessonsExist() {
        #expect(Self.poolLessons.count >= 5)
    }

    @Test("each pool lesson on real threads does what it does on the virtual clock", arguments: poolLessons)
    func poolLessonOnRealThreads(_ name: String) throws {
        try RealTimeGate.exclusive {
            let script = try ExampleLessonTests.load(name)
            let scenario = script.scenario
            let virtual = ScenarioRunner.run(scenario, horizon: script.until ?? .seconds(60))
            #expect(virtual.haltReason == nil)
            let real = RealScenarioRunner.run(scenario, timeLimit: virtual.endTime - .zero + .seconds(5))
            #expect(real.haltReason == nil, "the programs and workers did not end on real threads")
            let comparison = PoolComparison(engine: real.events, reference: virtual.events, scenario: scenario)
            #expect(comparison.agrees, "\(name): \(comparison.verdict)\n\(comparison.eventListing())")
            // How many workers were needed depends on which of two things at one instant came first (lesson 20);
            // every one of them ended (retired after its idle timeout).
            let created = real.events.filter { $0.kind == .threadCreate }.map(\.loop)
            #expect(!created.isEmpty)
            #expect(Set(real.events.filter { $0.kind == .threadExit }.map(\.loop)) == Set(created))
        }
    }
}
#endif
