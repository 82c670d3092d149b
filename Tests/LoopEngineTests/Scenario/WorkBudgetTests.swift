import Testing

@testable import LoopEngine

/// The work budget (`WorkLimit`): an action that touches many items or modes at every iteration does that much
/// work for a handful of events, so the event budget alone let a few lines run for minutes. The world counts item
/// operations and halts past `WorkLimit.perEvent` of them an event of the budget (at least `WorkLimit.minimum`).
@Suite("the work budget stops a run whose every event touches many items")
struct WorkBudgetTests {
    /// A timer every nanosecond that reschedules 1,000 idle timers: 1,000 item operations an iteration.
    static let rescheduleStorm = """
        thread T
          timer u1..1000 at 3600s
          timer s at 0ms every 1ns
            reschedule u1..1000 in 3600s
          run default for 2s
        """

    @Test("a reschedule of 1,000 timers at every iteration halts at the work budget, long before the event budget")
    func rescheduleStormHalts() throws {
        let scenario = try ScenarioParser.parse(Self.rescheduleStorm).scenario
        let (outcome, world) = ScenarioRunner.runHosted(scenario, horizon: .seconds(60), maxEvents: 100_000)
        #expect(outcome.haltReason == .workLimit(WorkLimit(operations: WorkLimit.minimum)))
        #expect(outcome.reachedEventLimit)
        #expect(world.workDone > WorkLimit.minimum)
        // About 2,000 operations a fire of s (each reschedule moves its timer and counts the move): some 500 fires.
        let fires = outcome.events.count { $0.kind == .timer && $0.name == "s" }
        #expect((400...600).contains(fires))
        #expect(outcome.events.count < 100_000)
    }

    @Test("the budget is 4 operations an event of the event budget, and at least a million")
    func budgetFollowsTheEventBudget() {
        #expect(WorkLimit.operations(forEvents: 1_000_000) == 4_000_000)
        #expect(WorkLimit.operations(forEvents: 10) == 1_000_000)
        #expect(WorkLimit.operations(forEvents: Int.max / 2) > 0)
    }

    @Test("a run without an event budget has no work budget; a timer in three modes costs four operations a fire")
    func ordinaryRunsCostLittle() throws {
        let scenario = try ScenarioParser.parse(
            """
            thread T
              timer t at 1ms every 1ms in default, A, B
              run default for 100ms
            """
        ).scenario
        let (outcome, world) = ScenarioRunner.runHosted(scenario, horizon: .seconds(1))
        #expect(outcome.haltReason == nil)
        #expect(world.workLimit == nil)
        // Three adds, then 100 fires: the timer itself and its three modes (A and B rest after their first moves,
        // and their group counts as one).
        let fires = outcome.events.count { $0.kind == .timer }
        #expect(fires == 100)
        #expect(world.workDone <= 3 + 4 * fires + 2 * 4)
    }
}
