#if os(Linux)
/// A ``Scenario`` running on real threads right now: its threads' loops asleep in the kernel when idle, its outside
/// events arriving from threads of their own at their times, and the caller free to act on it meanwhile - the
/// UI's `--clock real`, and (waited for to the end) ``RealScenarioRunner/run(_:timeLimit:maxEvents:)``.
///
/// ```swift
/// let events = BufferedTraceSink(onFirstEvent: { wakeReader() })
/// let run = LiveScenarioRun(scenario, sink: events)
/// run.perform([.signal("S"), .wakeUp], onThread: "T")   // from this thread, now
/// show(events.drain().events)
/// run.stop()                                              // halts the backend and joins every thread
/// ```
public final class LiveScenarioRun: @unchecked Sendable {
    // @unchecked Sendable: `threads`, `stopped` and `performing` are guarded by `lock`; the hosts are safe from any thread for
    // the actions an outside thread may perform (the loops, items and queues they call are).

    /// The backend's clock: instants measured from the start of the run.
    package let clock: any LoopClock
    private let waiter: EpollWaiter
    private let world: RealScenarioWorld
    private let shared: ScriptInterpreter.Shared
    private let lock = LoopLock()
    private var threads: [HostedThread] = []
    private var stopped = false
    /// `perform` calls under way.
    private var performing = 0

    /// Starts `scenario`: one OS thread per scenario thread, one per instant with outside events.
    ///
    /// - Precondition: ``RealScenarioRunner/unsupportedReason(_:)`` is nil for `scenario`.
    /// - Parameters:
    ///   - scenario: what to run; its threads are named uniquely.
    ///   - sink: where every loop's events go, called with the backend's engine lock held.
    public init(_ scenario: Scenario, sink: any TraceSink) {
        precondition(!scenario.threads.isEmpty, "a scenario has at least one thread")
        precondition(Set(scenario.threads.map(\.name)).count == scenario.threads.count, "thread names are unique")
        let reason = RealScenarioRunner.unsupportedReason(scenario)
        precondition(reason == nil, reason ?? "")
        waiter = EpollWaiter(profile: scenario.profile)
        clock = waiter.clock
        // Threads declared `later` are started on the way, by a `start`, and counted as such.
        let atStart = scenario.threads.filter { !$0.startsLater }
        world = RealScenarioWorld(waiter: waiter, declared: atStart.count)
        shared = ScriptInterpreter.Shared(sink: sink)
        shared.start(scenario, world: world, defaultWidth: RealScenarioWorld.coreCount) { [waiter] spec in
            waiter.makeLoop(named: spec.name, isMainThread: spec.isMain)
        }
        let programsEnded = world.programsEnded
        var started: [HostedThread] = []
        for (index, host) in shared.hosts.enumerated() {
            // Past the limit, or refused by the OS, a thread halts the run (no trap); its program counts as ended.
            let name = atStart[index].name
            guard index < ThreadLimit.maximumThreads else {
                programsEnded.increment()
                waiter.halt(atThreadLimit: ThreadLimit(thread: name, running: index, osError: nil))
                continue
            }
            do {
                started.append(
                    try HostedThread { [programsEnded] in
                        // The loop is this thread's from the start, as CF's loop is its thread's: a program's
                        // `limitDate` before its first run is asked on the loop's own thread.
                        host.loop.lock.withLock { host.loop.recordRunThread() }
                        host.runProgram(of: host.spec)
                        programsEnded.increment()
                    })
            } catch {
                programsEnded.increment()
                waiter.halt(atThreadLimit: ThreadLimit(thread: name, running: index, osError: error.code))
            }
        }
        for (time, events) in OutsideEvent.groupedByTime(scenario.outside) {
            let actions = events.compactMap { event in
                // An event for a thread the scenario does not have addresses nobody.
                shared.host(named: event.thread).map { host in (host, event.actions) }
            }
            if let thread = try? HostedThread({ [world] in
                guard world.sleep(until: .zero + time) else { return }
                for (host, actions) in actions { host.perform(actions) }
            }) {
                started.append(thread)
            } else {
                waiter.halt()
            }
        }
        threads = started
    }

    deinit {
        stop()
    }

    /// The nesting limit a loop reached, which halted the run (a callout re-entered its loop without end); nil if
    /// none did.
    public var nestingLimit: NestingLimit? { waiter.nestingLimit }

    /// The thread the scenario could not have, which halted the run; nil if none.
    public var threadLimit: ThreadLimit? { waiter.threadLimit }

    /// The descriptor the kernel refused (too many open files), which halted the run; nil if none.
    public var descriptorLimit: DescriptorLimit? { waiter.descriptorLimit }

    /// Why a limit halted the run (nesting, threads, descriptors); nil if none did.
    public var limitReason: VirtualWorld.HaltReason? { waiter.limitReason }

    /// True once every program has ended, and every thread started on the way (pool workers, detached threads).
    public var hasEnded: Bool {
        world.programsEnded.value >= shared.hosts.count && world.liveThreads == 0
    }

    /// Performs `actions` on the calling thread as an outside event addressed to the scenario thread `name`: what
    /// another thread (or the user) does now. False when there is no such thread or the run has stopped.
    ///
    /// Keep to actions an outside thread can take: a `work` here blocks the caller, and a `run` would run that
    /// thread's loop from the caller (``RealScenarioRunner/unsupportedReason(_:)`` refuses it in scenarios).
    @discardableResult
    public func perform(_ actions: [Action], onThread name: String) -> Bool {
        // Counted while it runs, so that `stop()` lets it finish before taking the hosts away.
        let admitted = lock.withLock {
            if !stopped { performing += 1 }
            return !stopped
        }
        guard admitted else { return false }
        defer { lock.withLock { performing -= 1 } }
        guard let host = shared.host(named: name) else { return false }
        host.perform(actions)
        return true
    }

    /// Halts the backend (every run unwinds without further callouts, outside events still to come are dropped)
    /// and joins every thread. Idempotent.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        waiter.halt()
        // A `perform` under way on another thread ends quickly once halted (every action checks the halt).
        while lock.withLock({ performing > 0 }) { clock.spend(.microseconds(200)) }
        for thread in threads { thread.join() }
        world.joinStartedThreads()
        // The hosts hold each other through `shared`: let them go.
        shared.hosts = []
        shared.queues = []
    }
}
#endif
