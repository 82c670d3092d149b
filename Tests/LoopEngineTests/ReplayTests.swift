import LoopEngine
import Testing

@Suite("stepping by replay")
struct ReplayTests {
    static let scenario = Scenario(
        name: "replay",
        items: [
            .source0("A"), .timer("T", first: .milliseconds(30), every: .milliseconds(40)),
            .observer("O", [.beforeWaiting, .afterWaiting]),
        ],
        program: [.signal("A"), .run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false))],
        outside: [OutsideEvent(at: .milliseconds(55), [.signal("A"), .wakeUp])])

    @Test("a replay halted at step N holds exactly the first N events of the full run")
    func replayToStepIsAPrefix() {
        let full = ScenarioRunner.run(Self.scenario).events
        #expect(full.count > 40)
        for steps in [1, 2, 7, full.count / 2, full.count - 1] {
            let partial = ScenarioRunner.run(Self.scenario, maxEvents: steps)
            #expect(partial.events == Array(full.prefix(steps)))
            #expect(partial.haltReason == .requested)
        }
    }

    @Test("running to a horizon stops the clock there and keeps everything before it")
    func horizonStopsTheClock() {
        let full = ScenarioRunner.run(Self.scenario).events
        let partial = ScenarioRunner.run(Self.scenario, horizon: .milliseconds(100))
        #expect(partial.haltReason == .horizon)
        #expect(partial.endTime == .zero + .milliseconds(100))
        #expect(partial.events == full.filter { $0.time <= .zero + .milliseconds(100) })
    }
}
