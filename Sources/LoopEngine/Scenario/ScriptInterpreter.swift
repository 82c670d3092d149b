/// The items of one thread's loop and the interpreter of their scripts.
///
/// Actions run on the thread whose host performs them (its program, its items' callouts, tasks performed on it)
/// or as an outside event addressed to it. An action naming an item the thread does not have reaches the item of
/// that name on another thread (the first in declaration order): a thread holding a reference to another
/// thread's timer or port, as real programs do.
final class ScriptInterpreter {
    let loop: RunLoopCore
    let world: any ScenarioWorld
    let program: [Action]
    let shared: Shared
    var sources: [String: LoopSource] = [:]
    var timers: [String: LoopTimer] = [:]
    var observers: [String: LoopObserver] = [:]
    /// Each source0's command queue (`post CMD to SOURCE`).
    var commandQueues: [String: CommandQueue] = [:]
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
            sources[name] = makeSource0(name, order: order, script: script, callouts: item.sourceCallouts)
        case .port:
            sources[name] = LoopSource(portNamed: name, on: world.kernel) { [unowned self] _ in
                self.callout(name, script, activity: nil)
            }
        case .timer(let first, let interval, let tolerance):
            timers[name] = LoopTimer(
                name: name, fireDate: .zero + first, interval: interval, tolerance: tolerance, order: item.timerOrder,
                createdAt: world.clock.now
            ) { [unowned self] _ in
                self.callout(name, script, activity: nil)
            }
            if item.timerOrder != 0 { loop.note(.timerOrderUnused(timer: name, order: item.timerOrder)) }
        case .observer(let activities, let repeats, let order):
            observers[name] = LoopObserver(name: name, activities: activities, repeats: repeats, order: order) {
                [unowned self] activity in
                self.callout(name, script, activity: activity)
            }
        }
    }

    func callout(_ name: String, _ script: [ScriptStep], activity: Activity?) {
        world.otherThreadsMayAct()
        let call = (calls[name] ?? 0) + 1
        calls[name] = call
        // An item in another thread's loop too (`add … on THREAD`) is performed there: its script is that
        // thread's code then (`stop` stops that loop, `say` is that thread's).
        let performer = performingHost()
        for step in script where step.applies(call: call, activity: activity) {
            if world.isHalted { return }
            performer.perform([step.action])
        }
    }

    /// Adds this thread's item `name` to a mode of `target` (this thread's loop unless another thread's is given:
    /// `add tick to default on worker`). The engine core applies CF's rule for an item of another loop.
    func add(_ name: String, _ mode: ModeName, on target: RunLoopCore? = nil) {
        let target = target ?? loop
        if let source = sources[name] { target.add(source, to: mode) }
        if let timer = timers[name] { target.add(timer, to: mode) }
        if let observer = observers[name] { target.add(observer, to: mode) }
    }

    private func remove(_ name: String, _ mode: ModeName, on target: RunLoopCore? = nil) {
        let target = target ?? loop
        if let source = sources[name] { target.remove(source, from: mode) }
        if let timer = timers[name] { target.remove(timer, from: mode) }
        if let observer = observers[name] { target.remove(observer, from: mode) }
    }

    func hasItem(_ name: String) -> Bool {
        sources[name] != nil || timers[name] != nil || observers[name] != nil
    }

    /// The host of the thread that owns item `name`: this one, else the first other thread that has it.
    func owner(of name: String) -> ScriptInterpreter {
        if hasItem(name) { return self }
        return shared.firstHost { $0.hasItem(name) } ?? self
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
        case .sendTo(let thread, let port, let count):
            let source = shared.host(named: thread)?.sources[port]
            for _ in 0..<max(count, 0) {
                if world.isHalted { return }
                source?.send()
            }
        case .start(let thread):
            start(thread)
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
        case .addOn(let thread, let name, let mode):
            guard let target = shared.loop(named: thread) else { return }
            owner(of: name).add(name, mode, on: target)
        case .removeOn(let thread, let name, let mode):
            guard let target = shared.loop(named: thread) else { return }
            owner(of: name).remove(name, mode, on: target)
        case .invalidate(let name):
            let owner = owner(of: name)
            owner.sources[name]?.invalidate()
            owner.dropCommands(of: name)
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
        case .query(let question):
            ask(question)
        case .setFlag(let flag):
            shared.setFlag(flag)
        case .assign(let reference, let value):
            if let note = shared.flags.assign(reference, value) { ownerNote(note) }
        case .ifHolds(let condition, let inner):
            if holds(condition) { perform(inner) }
        case .dealloc(let owner, let inner):
            guard let begun = shared.flags.beginDealloc(owner) else { return }
            ownerNote(begun)
            perform(inner)
            if let freed = shared.flags.endDealloc(owner), !world.isHalted { ownerNote(freed) }
        case .performOn(let thread, let task, let wait, let inner):
            performOn(thread, task, wait: wait, inner)
        case .performOrdered(let task, let target, let order, let modes, let inner):
            loop.performOrdered(task, target: target, order: order, modes: modes) { [unowned self] in
                self.world.otherThreadsMayAct()
                self.perform(inner)
            }
        case .cancelPerforms(let task, let target):
            loop.cancelOrderedPerforms(task: task, target: target)
        case .performDelayed(let task, let target, let delay, let modes, let inner):
            loop.performAfterDelay(task, target: target, delay: delay, modes: modes) { [unowned self] in
                self.world.otherThreadsMayAct()
                self.perform(inner)
            }
        case .cancelDelayedPerforms(let task, let target):
            loop.cancelDelayedPerforms(task: task, target: target)
        case .post(let command, let source):
            post(command, to: source)
        case .wakeUpThread(let thread):
            shared.loop(named: thread)?.wakeUp()
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
            let host = ScriptInterpreter(
                loop: loop, world: world, spec: ThreadSpec(name: task, items: [], program: inner), shared: shared)
            host.perform(host.program)
            loop.record(.threadExit, task, fact: .end(.taskDone))
        }
    }

    /// `[thread start]` of a thread declared `later`: its loop, its items and its program, on a thread of its own.
    private func start(_ name: String) {
        guard let spec = shared.takeLaterThread(name) else { return }
        let shared = shared
        let world = world
        // Its loop exists from the thread's creation (docs/cfrunloop.md §17.1): a perform, a wake-up or an add
        // for it in this very instant reaches that loop, before the thread's program has made its items.
        let loop = world.startThread(named: name, sink: shared.sink) { loop in
            loop.record(.threadCreate, name, fact: .origin(.detached))
            let host = ScriptInterpreter(loop: loop, world: world, spec: spec, shared: shared)
            shared.addLateHost(host)
            host.perform(host.program)
            loop.record(.threadExit, name, fact: .end(.taskDone))
        }
        shared.addStartedLoop(loop)
    }

    /// `performSelector:onThread:withObject:waitUntilDone:` from this thread.
    private func performOn(_ thread: String, _ task: String, wait: Bool, _ inner: [Action]) {
        guard let target = shared.loop(named: thread) else {
            loop.note(.noSuchThread(task: task, thread: thread))
            return
        }
        if target === loop && wait {
            // Foundation performs at once when the target is the calling thread.
            loop.note(.performInline(task: task))
            perform(inner)
            return
        }
        // The task runs on the target's thread, whose host exists by then (a thread just started makes it first).
        let shared = shared
        guard wait else {
            target.performTask(task) { shared.host(named: thread)?.perform(inner) }
            return
        }
        // waitUntilDone: this thread blocks (virtually) until the target's loop has run the task. If it never
        // does - the target's program has ended, or it waits for this thread - the world ends up halting idle.
        let done = AtomicFlag()
        target.performTask(task) {
            shared.host(named: thread)?.perform(inner)
            done.set(true)
        }
        world.block(for: .performed(task: task, target: target.name)) { done.value }
    }

    /// Tests `condition` as this thread's code; a bad access the test makes is recorded on this thread's loop.
    func holds(_ condition: Condition) -> Bool {
        var notes: [LoopEvent.Note] = []
        let result = shared.flags.holds(condition, notes: &notes)
        if !world.isHalted { for note in notes { ownerNote(note) } }
        return result
    }

    /// A note about an owner, named by it.
    private func ownerNote(_ note: LoopEvent.Note) {
        loop.record(.note, note.ownerName, fact: .note(note))
    }
}
