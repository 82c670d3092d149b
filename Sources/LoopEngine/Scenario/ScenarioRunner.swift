/// Runs a ``Scenario`` on the engine's virtual clock and returns its trace. Deterministic: the same scenario
/// always gives the same events.
public enum ScenarioRunner {
    /// How many operations a queue at the default limit executes at once on the virtual clock: libdispatch runs about
    /// one thread per core, and the virtual machine has four.
    public static var defaultQueueWidth: Int { OperationQueueCore.virtualDefaultWidth }

    /// The outcome of a headless run.
    public struct Outcome: Sendable {
        /// The events recorded, stored compactly.
        public var trace: LoopTrace
        /// The events recorded, as an array (made on each call: prefer ``trace`` for a long run).
        public var events: [LoopEvent] { Array(trace) }
        /// Why the world stopped: nil when every program ran to its end.
        public var haltReason: VirtualWorld.HaltReason?
        public var endTime: LoopInstant
        /// True when the run stopped because `maxEvents` events had been recorded (the budget, not the scenario,
        /// ended it).
        public var reachedEventLimit = false
        /// How many events were recorded (also when they were handed to a consumer instead of kept).
        public var eventCount = 0
        /// When the world went idle (``VirtualWorld/HaltReason/idle``): the threads left blocked in a wait nothing
        /// could end, in declaration order. The real program would hang there.
        public var stuckWaits: [StuckWait] = []
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
        var outcome: Outcome?
        let body = {
            outcome = runHosted(scenario, horizon: horizon, maxEvents: maxEvents, consume: consume).outcome
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
    /// world ended (its OS threads, its clock).
    package static func runHosted(
        _ scenario: Scenario, horizon: Duration = .seconds(60), maxEvents: Int? = nil,
        consume: ((LoopEvent) -> Bool)? = nil
    ) -> (outcome: Outcome, world: VirtualWorld) {
        precondition(!scenario.threads.isEmpty, "a scenario has at least one thread")
        precondition(
            Set(scenario.threads.map(\.name)).count == scenario.threads.count, "thread names are unique")
        let world = VirtualWorld(profile: scenario.profile, iterationCost: scenario.iterationCost)
        world.horizon = .zero + horizon
        let recorder = TraceRecorder()
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
        let shared = ScenarioHost.Shared(sink: sink)
        for event in scenario.outside {
            guard let count = event.afterEvent, count > 0 else { continue }
            let time = LoopInstant.zero + event.time
            // The host is looked up when the actions happen: the first events (items scheduled as the hosts are
            // made) come before every host exists, and what is due then happens at the first wait or callout.
            anchored[count, default: []].append { [unowned world, unowned shared] in
                world.perform(after: time) { shared.host(named: event.thread)?.perform(event.actions) }
            }
        }
        for spec in scenario.threads {
            let loop = RunLoopCore(name: spec.name, clock: world, waiter: world, isMainThread: spec.isMain)
            world.bind(loop, to: world.addThread(named: spec.name))
            loop.sink = sink
            shared.hosts.append(ScenarioHost(loop: loop, world: world, spec: spec, shared: shared))
        }
        // One directory for the run's queues: an operation may depend on operations of another queue.
        let directory = PoolDirectory()
        shared.queues = scenario.queues.map {
            OperationQueueCore(
                $0, world: world, directory: directory, sink: sink,
                defaultWidth: OperationQueueCore.virtualDefaultWidth)
        }
        for event in scenario.outside where (event.afterEvent ?? 0) <= 0 {
            // An event for a thread the scenario does not have addresses nobody.
            guard let host = shared.host(named: event.thread) else { continue }
            world.at(.zero + event.time) { host.perform(event.actions) }
        }
        world.runThreads(shared.hosts.map { host in { host.perform(host.program) } })
        // The hosts and the outside events still scheduled hold each other and the world: let them all go.
        world.discardPendingEvents()
        shared.hosts = []
        shared.queues = []
        let count = forwarder?.count ?? recorder.trace.count
        let outcome = Outcome(
            trace: recorder.trace, haltReason: world.haltReason, endTime: world.now,
            reachedEventLimit: world.haltReason == .requested && maxEvents.map { count >= $0 } == true,
            eventCount: count, stuckWaits: world.stuckWaits)
        return (outcome, world)
    }
}

/// What the scenario interpreter needs from the world it runs in: the virtual world, or real threads on the real
/// backend (`RealScenarioRunner`). Everything else goes through the loops, which are the same core in both.
protocol ScenarioWorld: PoolWorld {
    /// True once the world stops: every program and callout script then stops acting.
    var isHalted: Bool { get }
    /// The interpreter is between two steps of a thread (a callout or a block starts, a program or script goes
    /// on to its next action), without the engine lock: outside events due now (``VirtualWorld/perform(after:_:)``)
    /// may happen here, as another thread's call could.
    func otherThreadsMayAct()
}

extension ScenarioWorld {
    func otherThreadsMayAct() {}
}

extension VirtualWorld: ScenarioWorld {
    var clock: any LoopClock { self }
    var kernel: any LoopWaiter { self }

    /// Virtual time stops moving once the world halts, so `spend` returns at once then.
    func work(_ duration: Duration) { spend(duration) }

    /// The interpreter is between two steps without the engine lock: another thread may act now.
    func otherThreadsMayAct() { performDuePokes() }

    func startThread(
        named name: String, sink: (any TraceSink)?, _ body: @escaping (RunLoopCore) -> Void
    )
        -> RunLoopCore
    {
        let loop = RunLoopCore(name: name, clock: self, waiter: self, isMainThread: false)
        loop.sink = sink
        bind(loop, to: spawnThread(named: name) { body(loop) })
        return loop
    }
}

/// The items of one thread's loop and the interpreter of their scripts.
///
/// Actions run on the thread whose host performs them (its program, its items' callouts, tasks performed on it)
/// or as an outside event addressed to it. An action naming an item the thread does not have reaches the item of
/// that name on another thread (the first in declaration order): a thread holding a reference to another
/// thread's timer or port, as real programs do.
final class ScenarioHost {
    /// What every thread of a scenario shares.
    final class Shared {
        /// Every thread's host, in declaration order.
        var hosts: [ScenarioHost] = []
        /// The scenario's operation queues, in declaration order.
        var queues: [OperationQueueCore] = []
        /// Where every loop's events go (threads created while the scenario runs get it too).
        let sink: (any TraceSink)?

        init(sink: (any TraceSink)?) {
            self.sink = sink
        }

        func queue(named name: String) -> OperationQueueCore? {
            queues.first { $0.name == name }
        }

        /// The queue that has the operation named `name` (the first in declaration order).
        func queue(having name: String) -> OperationQueueCore? {
            queues.first { $0.has(name) }
        }
        /// The scenario's named flags (`set flag`), which any thread may set or test: guarded by `flagLock` (on
        /// real threads they are set and read at the same time).
        private var flags: Set<String> = []
        private let flagLock = LoopLock()

        func setFlag(_ flag: String) {
            flagLock.withLock { _ = flags.insert(flag) }
        }

        func isSet(_ flag: String) -> Bool {
            flagLock.withLock { flags.contains(flag) }
        }

        func host(named name: String) -> ScenarioHost? {
            hosts.first { $0.loop.name == name }
        }
    }

    let loop: RunLoopCore
    let world: any ScenarioWorld
    let program: [Action]
    let shared: Shared
    var sources: [String: LoopSource] = [:]
    var timers: [String: LoopTimer] = [:]
    var observers: [String: LoopObserver] = [:]
    var calls: [String: Int] = [:]

    init(loop: RunLoopCore, world: any ScenarioWorld, spec: ThreadSpec, shared: Shared) {
        self.loop = loop
        self.world = world
        self.program = spec.program
        self.shared = shared
        for mode in spec.commonModes { loop.addCommonMode(mode) }
        for item in spec.items { create(item) }
        for item in spec.items {
            for mode in item.modes { add(item.name, mode) }
        }
    }

    private func create(_ item: ItemSpec) {
        let name = item.name
        let script = item.script
        switch item.kind {
        case .source0(let order):
            sources[name] = LoopSource(name: name, order: order) { [unowned self] in
                self.callout(name, script, activity: nil)
            }
        case .port:
            sources[name] = LoopSource(portNamed: name, on: world.kernel) { [unowned self] _ in
                self.callout(name, script, activity: nil)
            }
        case .timer(let first, let interval, let tolerance):
            timers[name] = LoopTimer(
                name: name, fireDate: .zero + first, interval: interval, tolerance: tolerance
            ) { [unowned self] _ in
                self.callout(name, script, activity: nil)
            }
        case .observer(let activities, let repeats, let order):
            observers[name] = LoopObserver(name: name, activities: activities, repeats: repeats, order: order) {
                [unowned self] activity in
                self.callout(name, script, activity: activity)
            }
        }
    }

    private func callout(_ name: String, _ script: [ScriptStep], activity: Activity?) {
        world.otherThreadsMayAct()
        let call = (calls[name] ?? 0) + 1
        calls[name] = call
        for step in script where step.applies(call: call, activity: activity) {
            if world.isHalted { return }
            perform([step.action])
        }
    }

    /// Adds this thread's item `name` to a mode of this thread's loop.
    func add(_ name: String, _ mode: ModeName) {
        if let source = sources[name] { loop.add(source, to: mode) }
        if let timer = timers[name] { loop.add(timer, to: mode) }
        if let observer = observers[name] { loop.add(observer, to: mode) }
    }

    private func remove(_ name: String, _ mode: ModeName) {
        if let source = sources[name] { loop.remove(source, from: mode) }
        if let timer = timers[name] { loop.remove(timer, from: mode) }
        if let observer = observers[name] { loop.remove(observer, from: mode) }
    }

    private func hasItem(_ name: String) -> Bool {
        sources[name] != nil || timers[name] != nil || observers[name] != nil
    }

    /// The host of the thread that owns item `name`: this one, else the first other thread that has it.
    private func owner(of name: String) -> ScenarioHost {
        if hasItem(name) { return self }
        return shared.hosts.first { $0.hasItem(name) } ?? self
    }

    func perform(_ actions: [Action]) {
        for action in actions {
            world.otherThreadsMayAct()
            if world.isHalted { return }
            perform(action)
        }
    }

    private func perform(_ action: Action) {
        switch action {
        case .work(let duration):
            world.work(duration)
        case .signal(let name):
            owner(of: name).sources[name]?.signal()
        case .send(let name, let count):
            let source = owner(of: name).sources[name]
            // Each send is an event: once the budget (or anything else) halts the world, the rest are not sent.
            for _ in 0..<max(count, 0) {
                if world.isHalted { return }
                source?.send()
            }
        case .wakeUp:
            loop.wakeUp()
        case .stop:
            loop.stop()
        case .stopMode(let mode):
            loop.stopMode(mode)
        case .add(let name, let mode):
            owner(of: name).add(name, mode)
        case .remove(let name, let mode):
            owner(of: name).remove(name, mode)
        case .invalidate(let name):
            let owner = owner(of: name)
            owner.sources[name]?.invalidate()
            owner.timers[name]?.invalidate()
            owner.observers[name]?.invalidate()
        case .setNextFireDate(let name, let delay):
            owner(of: name).timers[name]?.setNextFireDate(loop.clock.now + delay)
        case .performBlock(let name, let modes, let inner):
            loop.perform(name, modes: modes) { [unowned self] in
                self.world.otherThreadsMayAct()
                self.perform(inner)
            }
        case .mainQueue(let name, let inner):
            // DispatchQueue.main.async from any thread targets the main thread's loop.
            let main = loop.isMainThread ? self : (shared.hosts.first { $0.loop.isMainThread } ?? self)
            main.loop.performOnMainQueue(name) { [unowned main] in main.perform(inner) }
        case .addCommonMode(let mode):
            loop.addCommonMode(mode)
        case .run(let call):
            run(call)
        case .note(let text):
            loop.note(text)
        case .setFlag(let flag):
            shared.setFlag(flag)
        case .performOn(let thread, let task, let wait, let inner):
            performOn(thread, task, wait: wait, inner)
        case .addOperation(let queue, let spec):
            guard let target = shared.queue(named: queue) else {
                loop.note(.noSuchQueue(operation: spec.name, queue: queue))
                return
            }
            target.add(spec)
        case .cancelOperation(let name):
            shared.queue(having: name)?.cancel(name)
        case .cancelAll(let queue):
            shared.queue(named: queue)?.cancelAll()
        case .setSuspended(let queue, let flag):
            shared.queue(named: queue)?.setSuspended(flag)
        case .setLimit(let queue, let limit):
            shared.queue(named: queue)?.setLimit(limit)
        case .finishOperation(let name):
            shared.queue(having: name)?.finishAsync(name)
        case .waitUntilAllFinished(let queue):
            shared.queue(named: queue)?.waitUntilAllFinished()
        case .detach(let task, let inner):
            detach(task, inner)
        }
    }

    /// `Thread.detachNewThread`: a thread of its own for one task, which ends with it.
    private func detach(_ task: String, _ inner: [Action]) {
        let shared = shared
        let world = world
        _ = world.startThread(named: task, sink: shared.sink) { loop in
            loop.record(.threadCreate, task, fact: .origin(.detached))
            let host = ScenarioHost(
                loop: loop, world: world, spec: ThreadSpec(name: task, items: [], program: inner), shared: shared)
            host.perform(host.program)
            loop.record(.threadExit, task, fact: .end(.taskDone))
        }
    }

    /// `performSelector:onThread:withObject:waitUntilDone:` from this thread.
    private func performOn(_ thread: String, _ task: String, wait: Bool, _ inner: [Action]) {
        guard let target = shared.host(named: thread) else {
            loop.note(.noSuchThread(task: task, thread: thread))
            return
        }
        if target === self && wait {
            // Foundation performs at once when the target is the calling thread.
            loop.note(.performInline(task: task))
            perform(inner)
            return
        }
        guard wait else {
            target.loop.performTask(task) { [unowned target] in target.perform(inner) }
            return
        }
        // waitUntilDone: this thread blocks (virtually) until the target's loop has run the task. If it never
        // does - the target's program has ended, or it waits for this thread - the world ends up halting idle.
        let done = AtomicFlag()
        target.loop.performTask(task) { [unowned target] in
            target.perform(inner)
            done.set(true)
        }
        world.block(for: .performed(task: task, target: target.loop.name)) { done.value }
    }

    private func run(_ call: RunCall) {
        switch call {
        case .inMode(let mode, let seconds, let rash):
            loop.run(mode: mode, seconds: seconds, returnAfterSourceHandled: rash)
        case .untilStopped:
            loop.runUntilStopped()
        case .foundation(let mode, let before):
            loop.runFoundation(mode: mode, before: before.map { loop.clock.now + $0 } ?? .distantFuture)
        case .foundationForever:
            loop.runFoundationForever()
        case .whileNot(let flag, let mode):
            while !shared.isSet(flag) && !world.isHalted {
                guard loop.runFoundation(mode: mode, before: .distantFuture) else {
                    // run(mode:before:) returned NO at once: the real idiom would spin here, burning a core.
                    loop.note(.emptyModeSpins(mode: mode.rawValue))
                    return
                }
            }
        }
    }
}
