import LoopEngine

/// The scenario being shown plus everything the user did to it, and the trace that results.
///
/// The engine is deterministic, so the session never keeps a live engine around: every poke becomes an outside
/// event at the virtual time it was made, and the whole trace is computed again. Stepping back is just showing
/// fewer events; it is instant.
struct Session: Equatable {
    /// What the user did, at which virtual time.
    struct Intervention: Equatable {
        var time: Duration
        var label: String
        var actions: [Action]
        var newItem: ItemSpec?
    }

    var script: LoopScript
    var interventions: [Intervention] = []
    /// How far the virtual clock is run.
    var horizon: Duration
    private(set) var trace: [LoopEvent] = []
    private(set) var haltReason: VirtualWorld.HaltReason?

    static let maximumEvents = 50_000

    init(script: LoopScript, horizon: Duration = .seconds(20)) {
        self.script = script
        self.horizon = script.until ?? horizon
        recompute()
    }

    /// The thread the keys act on: the first one.
    var primaryThread: ThreadSpec { effectiveScenario.threads[0] }

    /// The scenario with the user's interventions added.
    var effectiveScenario: Scenario {
        var scenario = script.scenario
        for intervention in interventions {
            if let item = intervention.newItem { scenario.threads[0].items.append(item) }
            scenario.outside.append(
                OutsideEvent(at: intervention.time, thread: scenario.threads[0].name, intervention.actions))
        }
        return scenario
    }

    /// True when running longer would show more (the clock stopped at the horizon, not because the loop is done).
    var canExtend: Bool { haltReason == .horizon || haltReason == .requested }

    mutating func recompute() {
        let outcome = ScenarioRunner.run(effectiveScenario, horizon: horizon, maxEvents: Self.maximumEvents)
        trace = outcome.events
        haltReason = outcome.haltReason
    }

    /// Runs further, for a live session that reached the end of what was computed.
    mutating func extend() {
        guard canExtend, trace.count < Self.maximumEvents else { return }
        horizon = horizon + horizon
        recompute()
    }

    mutating func intervene(_ intervention: Intervention) {
        interventions.append(intervention)
        recompute()
    }

    /// The state of every thread after the first `count` events.
    func snapshots(after count: Int) -> [LoopSnapshot] {
        let scenario = effectiveScenario
        let oneShot = Set(
            scenario.threads.flatMap(\.items).compactMap { item -> String? in
                if case .observer(_, let repeats, _) = item.kind, !repeats { return item.name }
                return nil
            })
        var snapshots = scenario.threads.map { LoopSnapshot(thread: $0.name) }
        for event in trace.prefix(count) {
            for index in snapshots.indices { snapshots[index].apply(event, observers: oneShot) }
        }
        return snapshots
    }

    /// The operation queues after the first `count` events.
    func poolSnapshot(after count: Int) -> PoolSnapshot {
        PoolSnapshot(queues: script.scenario.queues, trace: trace, count: count)
    }

    /// True when the scenario has an operation queue (the pool view has something to show).
    var hasQueues: Bool { !script.scenario.queues.isEmpty }
}
