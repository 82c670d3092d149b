#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

/// The lessons again, on real threads and the real clock (`loopviz run --clock real`): the same core with the other
/// clock and waiter must tell the same story as on the virtual clock, step for step, times within a tolerance.
///
/// Not nested in the serialized `Real` suite: its cases mostly sleep, so they run side by side.
@Suite("the lessons on real threads")
struct RealLessonTests {
    static let tolerance: Duration = .milliseconds(60)

    /// The lessons without operation queues. With a pool, which worker takes which operation, and the order of
    /// events of different workers at one instant, are the OS scheduler's choice on real threads: pool lessons are
    /// compared on what must agree (`PoolRealLessonTests`).
    /// Race lessons (an `expect in every schedule` section) are left out too: on real threads their outcome is
    /// any one of the outcomes `explore` finds, not the default schedule's (`RaceHonestyTests` judges them so).
    static let loopLessons = ExampleFiles.lessons.filter { name in
        guard let script = try? ExampleFiles.load(name) else { return true }
        return script.scenario.queues.isEmpty && !script.expectations.contains { $0.everySchedule }
    }

    @Test(
        "each lesson's trace on real threads matches its virtual trace, within a tolerance",
        arguments: loopLessons)
    func lessonOnRealThreads(_ name: String) throws {
        try RealTimeGate.exclusive {
            let script = try ExampleFiles.load(name)
            try #require(RealScenarioRunner.unsupportedReason(script.scenario) == nil)
            let virtual = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60))
            // Where the virtual world halted (its horizon, or every loop asleep for good), the real one is halted
            // then too, and only what comes before is compared (the last steps may straddle the end).
            let halted = virtual.haltReason != nil
            let end = virtual.endTime - LoopInstant.zero
            let real = RealScenarioRunner.run(script.scenario, timeLimit: halted ? end : end + .seconds(5))
            #expect(halted || real.haltReason == nil, "the programs did not end on real threads")
            let cut = virtual.endTime - Self.tolerance
            let keep = { (event: LoopEvent) in !halted || event.time < cut }
            let comparison = TraceComparison(
                engine: real.events.filter(keep), reference: virtual.events.filter(keep), tolerance: Self.tolerance)
            #expect(
                comparison.agrees,
                "\(name)\n\(comparison.sideBySide(engineTitle: "real threads", referenceTitle: "virtual clock"))")
        }
    }

    @Test("a scenario with a run in an outside event is refused: it would run another thread's loop")
    func outsideRunIsRefused() {
        let scenario = Scenario(
            name: "outside run", items: [.port("K")],
            program: [.run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: false))],
            outside: [
                OutsideEvent(
                    at: .milliseconds(10), [.run(.inMode(.default, seconds: 0.01, returnAfterSourceHandled: false))])
            ])
        #expect(RealScenarioRunner.unsupportedReason(scenario)?.contains("a run in an outside event") == true)
    }

    @Test("a scenario that never ends on its own is halted at its time limit, and says so")
    func haltedAtTheTimeLimit() {
        let scenario = Scenario(
            name: "forever", items: [.port("K")], program: [.run(.foundationForever)])
        let outcome = RealScenarioRunner.run(scenario, timeLimit: .milliseconds(100))
        #expect(outcome.haltReason == .horizon)
        #expect(outcome.endTime >= .zero + .milliseconds(100))
        #expect(outcome.events.map(\.step).suffix(2) == ["beforeWaiting", "sleep"])
    }
}
#endif
