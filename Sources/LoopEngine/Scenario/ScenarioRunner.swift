/// Runs a ``Scenario`` on the engine's virtual clock and returns its trace. Deterministic: the same scenario
/// always gives the same events.
public enum ScenarioRunner {
    /// How many operations a queue at the default limit executes at once on the virtual clock: libdispatch runs about
    /// one thread per core, and the virtual machine has four.
    package static var defaultQueueWidth: Int { OperationQueueCore.virtualDefaultWidth }

    /// The outcome of a headless run.
    public struct Outcome: Sendable {
        /// The events recorded, stored compactly.
        public var trace: LoopTrace
        /// The events recorded, as an array (made on each call: prefer ``trace`` for a long run).
        public var events: [LoopEvent] { Array(trace) }
        /// Why the world stopped: nil when every program ran to its end, `.exited` when an async main's `exit(0)`
        /// ended them (a normal end too).
        public var haltReason: VirtualWorld.HaltReason?
        /// The virtual time when the run ended.
        public var endTime: LoopInstant
        /// True when the run stopped because `maxEvents` events had been recorded (the budget, not the scenario,
        /// ended it).
        public var reachedEventLimit = false
        /// How many events were recorded (also when they were handed to a consumer instead of kept).
        public var eventCount = 0
        /// When the world went idle (``VirtualWorld/HaltReason/idle``): the threads left blocked in a wait nothing
        /// could end, in declaration order. The real program would hang there.
        public var stuckWaits: [StuckWait] = []
        /// Where the run could have gone another way (`ScheduleBranchPoint`), in order, and the option taken.
        package var branchPoints: [ScheduleBranchPoint] = []
        /// True when the run met more branch points than `Schedule.maximumBranchPoints` (option 0 at the rest).
        package var branchPointsCut = false
        /// The first branch point whose option the scenario's schedule names does not exist in this run: the
        /// schedule was made for another scenario (option 0 was taken there).
        package var unfittedBranchPoint: ScheduleBranchPoint?
        /// Work handed from one thread to another's loop (`HandOver`; the exports' flow arrows). Empty when the
        /// events were handed to a consumer instead of kept.
        package var handOvers: [HandOver] = []
    }

    /// Runs `scenario` until every program ends, every loop would sleep forever, `horizon` is reached, or (when
    /// `maxEvents` is given) that many events have been recorded.
    ///
    /// Every thread of the scenario gets its own loop and virtual thread on one clock (see `VirtualWorld`); they
    /// interleave deterministically, and one recorder takes every loop's events in the order they happen.
    ///
    /// Stepping is replay: the engine is deterministic, so "the state after step N" is the run halted at its
    /// N-th event, and stepping back one event is a replay to N - 1.
    ///
    /// The run happens on an OS thread of its own (joined before this returns), whose stack
    /// (`HostedThread.stackSize`) holds the nesting limit's 256 runs whatever the caller's: a main thread
    /// under a low `ulimit -s` would overflow long before the limit in a debug build.
    ///
    /// With `consume`, each event is handed to it as it is recorded instead of being kept (the outcome's `events`
    /// is then empty): a streaming output whose memory does not grow with the trace. `consume` returns false to
    /// halt the run (its reader has gone). It is called on the run's thread.
    public static func run(
        _ scenario: Scenario, horizon: Duration = .seconds(60), maxEvents: Int? = nil,
        consume: ((LoopEvent) -> Bool)? = nil
    ) -> Outcome {
        run(scenario, horizon: horizon, maxEvents: maxEvents, consume: consume, reusing: nil)
    }

    /// ``run(_:horizon:maxEvents:consume:)`` of a scenario whose first `reusing.count` events are known to be
    /// those of `reusing.trace` (a replay changed only after them: the UI's poke): they are counted as they come
    /// and taken from that trace, not recorded again.
    package static func run(
        _ scenario: Scenario, horizon: Duration = .seconds(60), maxEvents: Int? = nil,
        consume: ((LoopEvent) -> Bool)? = nil, reusing: (trace: LoopTrace, count: Int)?
    ) -> Outcome {
        var outcome: Outcome?
        let body = {
            outcome =
                runHosted(scenario, horizon: horizon, maxEvents: maxEvents, consume: consume, reusing: reusing)
                .outcome
        }
        if let thread = try? HostedThread(body) {
            thread.join()
        } else {
            // No OS thread to spare: the caller's stack will do (the nesting limit may then overflow it).
            body()
        }
        guard let outcome else { preconditionFailure("a joined run has its outcome") }
        return outcome
    }

    /// ``run(_:horizon:maxEvents:)`` that also hands back the world it ran in, for tests that look at how the
    /// world ended (its OS threads, its clock). `armingEveryTimerPort`: the loops arm every mode's timer port, not
    /// only those of the modes their runs can wait on (the same trace, at a cost per mode; for tests that say so).
    /// `resting`: when the loops' idle modes rest (`RunLoopCore+RestingModes.swift`; the same trace whatever it is).
    package static func runHosted(
        _ scenario: Scenario, horizon: Duration = .seconds(60), maxEvents: Int? = nil,
        consume: ((LoopEvent) -> Bool)? = nil, reusing: (trace: LoopTrace, count: Int)? = nil,
        armingEveryTimerPort: Bool = false, resting: RestingPolicy = .standard
    ) -> (outcome: Outcome, world: VirtualWorld) {
        precondition(!scenario.threads.isEmpty, "a scenario has at least one thread")
        precondition(
            Set(scenario.threads.map(\.name)).count == scenario.threads.count, "thread names are unique")
        let world = VirtualWorld(profile: scenario.profile, iterationCost: scenario.iterationCost)
        world.horizon = .zero + horizon
        world.workLimit = maxEvents.map(WorkLimit.operations(forEvents:))
        let recorder = TraceRecorder()
        if let reusing, consume == nil { recorder.reuse(reusing.trace, count: reusing.count) }
        let forwarder = consume.map {
            ForwardingTraceSink(limit: maxEvents, consume: $0) { [weak world] in world?.halt() }
        }
        // Outside events anchored to an event count: performed once the sink has taken that many. The hooks are in
        // place before the first event.
        var anchored: [Int: [() -> Void]] = [:]
        let anchors = scenario.outside.contains { ($0.afterEvent ?? 0) > 0 }
        if let forwarder {
            if anchors { forwarder.onRecord = { count in anchored.removeValue(forKey: count)?.forEach { $0() } } }
        } else if maxEvents != nil || anchors {
            recorder.limit = maxEvents
            recorder.onRecord = { [unowned world] count in
                if anchors, let due = anchored.removeValue(forKey: count) { due.forEach { $0() } }
                if let maxEvents, count >= maxEvents { world.halt() }
            }
        }
        let sink: any TraceSink = forwarder ?? recorder
        world.schedule = scenario.schedule
        world.eventCount = { [unowned recorder] in forwarder?.count ?? recorder.trace.count }
        let shared = ScriptInterpreter.Shared(sink: sink)
        for event in scenario.outside {
            guard let count = event.afterEvent, count > 0 else { continue }
            let time = LoopInstant.zero + event.time
            // The host is looked up when the actions happen: the first events (items scheduled as the hosts are
            // made) come before every host exists, and what is due then happens at the first wait or callout.
            anchored[count, default: []].append { [unowned world, unowned shared] in
                world.perform(after: time) { shared.host(named: event.thread)?.perform(event.actions) }
            }
        }
        let waitedModes = armingEveryTimerPort ? nil : scenario.modesRunsCanWaitOn
        shared.start(scenario, world: world, defaultWidth: OperationQueueCore.virtualDefaultWidth) { spec in
            let loop = RunLoopCore(name: spec.name, clock: world, waiter: world, isMainThread: spec.isMain)
            loop.limitTimerPorts(toModes: waitedModes)
            loop.restingPolicy = resting
            world.bind(loop, to: world.addThread(named: spec.name))
            return loop
        }
        for event in scenario.outside where (event.afterEvent ?? 0) <= 0 {
            // An event for a thread the scenario does not have addresses nobody.
            guard let host = shared.host(named: event.thread) else { continue }
            world.at(.zero + event.time, target: event.thread) { host.perform(event.actions) }
        }
        world.runThreads(shared.hosts.map { host in { host.runProgram(of: host.spec) } })
        // The hosts and the outside events still scheduled hold each other and the world: let them all go.
        world.discardPendingEvents()
        shared.hosts = []
        shared.discardLateHosts()
        shared.queues = []
        let count = forwarder?.count ?? recorder.trace.count
        let outcome = Outcome(
            trace: recorder.trace, haltReason: world.haltReason, endTime: world.now,
            reachedEventLimit: world.haltReason == .requested && maxEvents.map { count >= $0 } == true
                || world.reachedWorkLimit,
            eventCount: count, stuckWaits: world.stuckWaits, branchPoints: world.branchPoints,
            branchPointsCut: world.branchPointsCut, unfittedBranchPoint: world.unfittedBranchPoint,
            handOvers: forwarder == nil ? recorder.handOvers : [])
        world.eventCount = nil
        return (outcome, world)
    }
}
