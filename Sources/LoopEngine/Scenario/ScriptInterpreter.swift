/// The items of one thread's loop, and the engine's adapter of the `.loop` language (``ScenarioLoop``): the
/// language is interpreted in `ScenarioLoop+Interpreter.swift`, and what it does to a loop is done here and in
/// `ScriptInterpreter+Loop.swift`, on `RunLoopCore`.
///
/// Actions run on the thread whose host performs them (its program, its items' callouts, tasks performed on it)
/// or as an outside event addressed to it. An action naming an item the thread does not have reaches the item of
/// that name on another thread (the first in declaration order): a thread holding a reference to another
/// thread's timer or port, as real programs do.
final class ScriptInterpreter {
    let loop: RunLoopCore
    let world: any ScenarioWorld
    let program: [Action]
    /// The thread it runs (its program is an async `main` when `spec.isAsyncMain`).
    let spec: ThreadSpec
    let shared: Shared
    var sources: [String: LoopSource] = [:]
    var timers: [String: LoopTimer] = [:]
    var observers: [String: LoopObserver] = [:]
    /// Each item's callout (`Timer.fire()` runs a timer's outside the loop).
    var scripts: [String: [ScriptStep]] = [:]
    /// Each source0's command queue (`post CMD to SOURCE`).
    var commandQueues: [String: SourceCommandQueue] = [:]
    let callCounts = ScriptCallCounts()

    init(loop: RunLoopCore, world: any ScenarioWorld, spec: ThreadSpec, shared: Shared) {
        self.loop = loop
        self.world = world
        self.program = spec.program
        self.spec = spec
        self.shared = shared
        for mode in spec.commonModes { loop.addCommonMode(mode) }
        for item in spec.items { create(item) }
        for item in spec.items {
            for mode in item.modes { add(item.name, mode, onThread: nil) }
        }
    }

    private func create(_ item: ItemSpec) {
        let name = item.name
        let script = item.script
        scripts[name] = script
        switch item.kind {
        case .source0(let order):
            sources[name] = makeSource0(name, order: order, script: script, callouts: item.sourceCallouts)
        case .port:
            sources[name] = LoopSource(portNamed: name, on: world.kernel) { [unowned self] _ in
                self.callout(name, script, activity: nil)
            }
        case .timer(let first, let interval, let tolerance):
            let now = world.clock.now
            // A Foundation convenience dates its timer from its creation, as its call does on this profile.
            let fireDate =
                item.foundationTimer.map { now + $0.firstFire(interval: first, profile: loop.profile) }
                ?? .zero + first
            timers[name] = LoopTimer(
                name: name, fireDate: fireDate, interval: interval, tolerance: tolerance, order: item.timerOrder,
                createdAt: now
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
        // An item in another thread's loop too (`add … on THREAD`) is performed there: its script is that
        // thread's code then (`stop` stops that loop, `say` is that thread's).
        runScript(name, script, activity: activity, as: performingHost())
    }

    func hasItem(_ name: String) -> Bool {
        sources[name] != nil || timers[name] != nil || observers[name] != nil
    }

    /// `Thread.detachNewThread`: a thread of its own for one task, which ends with it.
    func detach(_ task: String, _ inner: [Action]) {
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
    func startThread(_ name: String) {
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
}
