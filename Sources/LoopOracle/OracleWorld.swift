#if os(Linux)
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine
import Synchronization

/// One scenario's run on the real CFRunLoop: every thread's host, the shared trace, flags and the state that ends
/// the run. The twin of the engine's `ScriptInterpreter.Shared`.
///
/// Each scenario thread is a real thread (the main thread's spec runs on the process's main thread, the caller of
/// ``CFOracle/run(_:timeLimit:maxEvents:horizon:)``); all of them create their items, then wait for each other, so
/// that an action naming another thread's item finds it, and then run their programs from one start. A thread
/// declared `later` waits for a `start` (``start(_:)``), as the engine's does.
///
/// `@unchecked Sendable`: the host table is written under `hostLock` and read after the set-up barrier; everything
/// else is in `LoopLocked`/`Atomic` or immutable.
final class OracleWorld: @unchecked Sendable {
    let scenario: Scenario
    let log: OracleLog
    /// `CFAbsoluteTimeGetCurrent()` at the scenario start: timers' fire dates are measured from here.
    var originAbsolute: CFAbsoluteTime { CFAbsoluteTime(bitPattern: originBits.load(ordering: .acquiring)) }
    private let originBits = Atomic<UInt64>(0)
    /// The threads that start with the scenario: all but those declared `later`.
    let atStart: [ThreadSpec]
    /// What the CF names of the scenario's own modes start with on the main thread's loop: that loop outlives the
    /// scenario (a mode made common there stays common), so each main-thread scenario gets fresh mode names. Empty
    /// on secondary threads, whose loops are fresh.
    let mainModePrefix: String

    private let hostLock = LoopLock()
    /// The scenario threads' hosts, in declaration order (set up before any program runs).
    private var declared: [OracleHost] = []
    /// The threads declared `later` that no `start` has started yet.
    private var laterThreads: [String: ThreadSpec] = [:]
    /// The hosts of the threads started on the way, in the order they started (each once its items exist).
    private var lateHosts: [OracleHost] = []
    /// The hosts of threads started on the way whose items are still being made: their loop exists (CF makes a
    /// thread's loop on demand, docs/cfrunloop.md §17.1), so a perform, a wake-up or an add can reach it.
    private var startingHosts: [OracleHost] = []
    /// Every host, detached threads' included: what a halt or the end invalidates.
    private var everyHost: [OracleHost] = []
    /// The scenario's flags and owners, under the engine's rules (``ScenarioFlags``): every thread reads and sets them.
    let flags: ScenarioFlags
    private let setUpError = LoopLocked<(any Error)?>(nil)
    private let halted = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    /// Every thread of the scenario (declared and detached) while it runs.
    let threads = DispatchGroup()
    /// The declared threads until each has created its items.
    private let setUp = DispatchGroup()
    /// The declared threads until each is running: the scenario starts once all are, so that no thread's start-up
    /// latency counts as scenario time.
    private let arrived = DispatchGroup()
    /// Signalled once per declared thread by ``start()``.
    private let go = DispatchSemaphore(value: 0)
    /// Until ``start()``.
    private let started = DispatchGroup()
    /// The outside events' threads.
    let outsideThreads = DispatchGroup()
    /// Main-actor tasks not yet done and asyncAfter handlers not yet run: each touches this world when it resumes,
    /// so the settling after a main-thread scenario waits for them (``CFOracle``), and the next scenario's main
    /// loop never runs a job of this one.
    let mainJobs = DispatchGroup()
    /// What `exit(0)` does in this process (an async `main`'s end, ``CFOracle/runAsyncMainEndingProcess``):
    /// deliver the trace and end the process. Nil outside such a process (the scenario was refused then).
    var exitProcess: (@Sendable () -> Void)?

    init(_ scenario: Scenario, maxEvents: Int, mainModePrefix: String) {
        self.scenario = scenario
        atStart = scenario.threads.filter { !$0.startsLater }
        flags = ScenarioFlags(owners: scenario.owners)
        self.mainModePrefix = mainModePrefix
        log = OracleLog(maxEvents: maxEvents)
        for spec in scenario.threads where spec.startsLater { laterThreads[spec.name] = spec }
        for _ in atStart {
            threads.enter()
            setUp.enter()
            arrived.enter()
        }
        started.enter()
    }

    /// Waits until every declared thread is running, then starts the scenario's clock and lets them go.
    func start() {
        arrived.wait()
        log.start()
        originBits.store(CFAbsoluteTimeGetCurrent().bitPattern, ordering: .releasing)
        for _ in atStart { go.signal() }
        started.leave()
    }

    /// Blocks until ``start()`` has started the clock.
    func waitUntilStarted() { started.wait() }

    var isHalted: Bool { halted.load(ordering: .acquiring) }
    /// Every program has ended: outside events that have not happened yet never will.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// The host of thread `name`: a declared thread, or one started on the way (nil while it has not started).
    func host(named name: String) -> OracleHost? {
        hostLock.withLock { declared.first { $0.spec.name == name } ?? lateHosts.first { $0.spec.name == name } }
    }

    /// The host of thread `name` for what reaches its loop alone (a perform, a wake-up, an add): also a thread
    /// just started whose items are being made (docs/cfrunloop.md §17.1).
    func loopHost(named name: String) -> OracleHost? {
        // One look under the lock: a thread moves from `startingHosts` to `lateHosts` under it, and two looks
        // could miss it in both.
        hostLock.withLock {
            declared.first { $0.spec.name == name } ?? lateHosts.first { $0.spec.name == name }
                ?? startingHosts.first { $0.spec.name == name }
        }
    }

    /// The main thread's host, if the scenario has one.
    var mainHost: OracleHost? {
        hostLock.withLock { declared.first { $0.spec.isMain } }
    }

    /// The first host, declared threads in order and then those started on the way, for which `test` holds.
    func firstHost(where test: (OracleHost) -> Bool) -> OracleHost? {
        hostLock.withLock { declared.first(where: test) ?? lateHosts.first(where: test) }
    }

    // MARK: - Threads

    /// Runs declared thread `spec` on the calling thread: waits for the start (the main thread's spec starts it,
    /// as no other thread may wait for it), makes its host and items, waits until every declared thread has, then
    /// performs its program and the outside events addressed to it.
    func runDeclared(_ spec: ThreadSpec) {
        defer { threads.leave() }
        arrived.leave()
        if spec.isMain { start() }
        go.wait()
        let host = OracleHost(spec: spec, world: self)
        hostLock.withLock {
            declared.append(host)
            everyHost.append(host)
        }
        do {
            try host.setUp()
        } catch {
            setUpError.withLock { $0 = $0 ?? error }
        }
        // Under the lock before the barrier: a thread that looks this host's items up (under the lock, after the
        // barrier) is ordered after their creation, for ThreadSanitizer too (libdispatch's group is not
        // instrumented on Linux).
        hostLock.withLock {
            let order = scenario.threads.map(\.name)
            declared.sort { (order.firstIndex(of: $0.spec.name) ?? 0) < (order.firstIndex(of: $1.spec.name) ?? 0) }
        }
        setUp.leave()
        setUp.wait()
        guard setUpError.withLock({ $0 }) == nil else { return }
        host.startOutside(scenario.outside.filter { $0.thread == spec.name })
        host.runProgram(of: spec)
        host.programEnded.withLock { $0 = true }
    }

    /// `[thread start]` of the thread declared `later` as `name`: a new real thread makes its loop and items, then
    /// performs its program and ends, as the engine's `start` (`threadCreate` first, `threadExit` last). A thread
    /// already started, or not declared `later`, is not started again. Outside events addressed to it address
    /// nobody (the engine looks their host up before anything starts).
    func start(_ name: String) {
        guard !isHalted else { return }
        guard let spec = hostLock.withLock({ laterThreads.removeValue(forKey: name) }) else { return }
        threads.enter()
        let made = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { threads.leave() }
            OracleScheduling.raiseCurrentThread(to: OracleScheduling.scenarioPriority)
            let host = OracleHost(spec: spec, world: self)
            // Its loop exists now (`CFRunLoopGetCurrent()` in the host): the starter may go on (§17.1).
            hostLock.withLock { startingHosts.append(host) }
            made.signal()
            host.trace.record(.threadCreate, name, fact: .origin(.detached))
            do {
                try host.setUp()
            } catch {
                setUpError.withLock { $0 = $0 ?? error }
                return
            }
            // Seen by the others only once its items exist (a send before that reaches nobody, as in the engine).
            // A halt that read the hosts before this one was added is seen here, and its items taken away.
            hostLock.withLock {
                lateHosts.append(host)
                everyHost.append(host)
                startingHosts.removeAll { $0 === host }
            }
            if isHalted { host.invalidateAll() }
            host.perform(spec.program)
            // As for a declared thread: the cancel callouts of CF's teardown at thread exit are not recorded.
            host.programEnded.withLock { $0 = true }
            host.trace.record(.threadExit, name, fact: .end(.taskDone))
        }
        thread.name = "loopviz oracle: \(name)"
        thread.start()
        // `[thread start]` returns with the thread's loop there to be found (a bound: a thread that never runs
        // leaves the starter waiting 5 s at most, and the perform then reaches nobody).
        _ = made.wait(timeout: .now() + .seconds(5))
    }

    /// `Thread.detachNewThread`: a new real thread that performs `actions` and ends, as the engine's `detach`.
    func detach(_ task: String, _ actions: [Action]) {
        guard !isHalted else { return }
        threads.enter()
        let thread = Thread { [self] in
            defer { threads.leave() }
            OracleScheduling.raiseCurrentThread(to: OracleScheduling.scenarioPriority)
            let host = OracleHost(spec: ThreadSpec(name: task, items: [], program: actions), world: self)
            hostLock.withLock { everyHost.append(host) }
            do {
                try host.setUp()
            } catch {
                return
            }
            host.trace.record(.threadCreate, task, fact: .origin(.detached))
            host.perform(actions)
            host.trace.record(.threadExit, task, fact: .end(.taskDone))
        }
        thread.name = "loopviz oracle: detached \(task)"
        thread.start()
    }

    /// The error a thread's set-up ended with, if any.
    var setUpFailure: (any Error)? { setUpError.withLock { $0 } }

    // MARK: - The end

    /// Every program has ended: cancels the outside events still to come, waits for their threads, and invalidates
    /// every item so nothing outlives the scenario.
    func finish() {
        finished.store(true, ordering: .releasing)
        _ = outsideThreads.wait(timeout: .now() + .seconds(2))
        invalidateAll()
    }

    /// The time limit (or the budget, or the horizon) passed: stop performing actions and take the items away so
    /// that even Foundation's `run()` can return. Returns the trace as it was at this moment.
    func halt() -> [LoopEvent] {
        halted.store(true, ordering: .releasing)
        let events = log.events
        invalidateAll()
        return events
    }

    /// Stops every loop of the scenario once (the halt repeats it until the threads notice).
    func stopEveryLoop() {
        for host in hostLock.withLock({ everyHost }) {
            CFRunLoopStop(host.loop)
            CFRunLoopWakeUp(host.loop)
        }
    }

    private func invalidateAll() {
        for host in hostLock.withLock({ everyHost }) { host.invalidateAll() }
    }
}
#endif
