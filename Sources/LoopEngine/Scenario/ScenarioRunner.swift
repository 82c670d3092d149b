/// Runs a ``Scenario`` on the engine's virtual clock and returns its trace. Deterministic: the same scenario
/// always gives the same events.
public enum ScenarioRunner {
    /// The outcome of a headless run.
    public struct Outcome: Sendable {
        public var events: [LoopEvent]
        /// Why the world stopped: nil when every program ran to its end.
        public var haltReason: VirtualWorld.HaltReason?
        public var endTime: LoopInstant
    }

    /// Runs `scenario` until every program ends, the loop would sleep forever, `horizon` is reached, or (when
    /// `maxEvents` is given) that many events have been recorded.
    ///
    /// Stepping is replay: the engine is deterministic, so "the state after step N" is the run halted at its
    /// N-th event, and stepping back one event is a replay to N - 1.
    public static func run(_ scenario: Scenario, horizon: Duration = .seconds(60), maxEvents: Int? = nil) -> Outcome {
        precondition(scenario.threads.count == 1, "the virtual runner hosts one thread per scenario for now")
        let world = VirtualWorld(profile: scenario.profile)
        world.horizon = .zero + horizon
        let recorder = TraceRecorder()
        let spec = scenario.threads[0]
        let loop = RunLoopCore(name: spec.name, clock: world, waiter: world, isMainThread: spec.isMain)
        if let maxEvents {
            recorder.limit = maxEvents
            recorder.onRecord = { count in if count >= maxEvents { world.halt() } }
        }
        loop.sink = recorder
        let host = ScenarioHost(loop: loop, world: world, spec: spec)
        for event in scenario.outside where event.thread == spec.name {
            world.at(.zero + event.time) { host.perform(event.actions) }
        }
        host.perform(spec.program)
        return Outcome(events: recorder.events, haltReason: world.haltReason, endTime: world.now)
    }
}

/// The items of one thread's loop and the interpreter of their scripts.
final class ScenarioHost {
    let loop: RunLoopCore
    let world: VirtualWorld
    var sources: [String: LoopSource] = [:]
    var timers: [String: LoopTimer] = [:]
    var observers: [String: LoopObserver] = [:]
    var calls: [String: Int] = [:]
    /// The scenario's named flags (`set flag`), shared by every thread.
    var flags: Set<String> = []

    init(loop: RunLoopCore, world: VirtualWorld, spec: ThreadSpec) {
        self.loop = loop
        self.world = world
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
            sources[name] = LoopSource(portNamed: name, on: world) { [unowned self] _ in
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
        let call = (calls[name] ?? 0) + 1
        calls[name] = call
        for step in script where step.applies(call: call, activity: activity) {
            if world.isHalted { return }
            perform([step.action])
        }
    }

    func add(_ name: String, _ mode: ModeName) {
        if let source = sources[name] { loop.add(source, to: mode) }
        if let timer = timers[name] { loop.add(timer, to: mode) }
        if let observer = observers[name] { loop.add(observer, to: mode) }
    }

    func perform(_ actions: [Action]) {
        for action in actions {
            if world.isHalted { return }
            perform(action)
        }
    }

    private func perform(_ action: Action) {
        switch action {
        case .work(let duration):
            loop.clock.spend(duration)
        case .signal(let name):
            sources[name]?.signal()
        case .send(let name, let count):
            for _ in 0..<max(count, 0) { sources[name]?.send() }
        case .wakeUp:
            loop.wakeUp()
        case .stop:
            loop.stop()
        case .stopMode(let mode):
            loop.stopMode(mode)
        case .add(let name, let mode):
            add(name, mode)
        case .remove(let name, let mode):
            if let source = sources[name] { loop.remove(source, from: mode) }
            if let timer = timers[name] { loop.remove(timer, from: mode) }
            if let observer = observers[name] { loop.remove(observer, from: mode) }
        case .invalidate(let name):
            sources[name]?.invalidate()
            timers[name]?.invalidate()
            observers[name]?.invalidate()
        case .setNextFireDate(let name, let delay):
            timers[name]?.setNextFireDate(loop.clock.now + delay)
        case .performBlock(let name, let modes, let inner):
            loop.perform(name, modes: modes) { [unowned self] in self.perform(inner) }
        case .mainQueue(let name, let inner):
            loop.performOnMainQueue(name) { [unowned self] in self.perform(inner) }
        case .addCommonMode(let mode):
            loop.addCommonMode(mode)
        case .run(let call):
            run(call)
        case .note(let text):
            loop.note(text)
        case .setFlag(let flag):
            flags.insert(flag)
        case .performOn(let thread, let task, let wait, let inner):
            precondition(thread == loop.name, "perform on another thread needs the multi-thread runner")
            if wait {
                // Foundation performs at once when the target is the calling thread.
                loop.note("perform \(task) inline (waitUntilDone on its own thread)")
                perform(inner)
            } else {
                loop.performTask(task) { [unowned self] in self.perform(inner) }
            }
        }
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
            while !flags.contains(flag) && !world.isHalted {
                guard loop.runFoundation(mode: mode, before: .distantFuture) else {
                    // run(mode:before:) returned NO at once: the real idiom would spin here, burning a core.
                    loop.note("run(mode:before:) returned NO at once: \(mode) is empty, so this loop would spin")
                    return
                }
            }
        }
    }
}
