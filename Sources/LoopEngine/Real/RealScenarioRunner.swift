#if os(Linux)
import Glibc
/// Runs a ``Scenario`` on real threads and the real clock: each scenario thread is an OS thread with its own loop on
/// one ``EpollWaiter`` backend, asleep in the kernel when idle; outside events come from threads of their own at
/// their times. The interpreter of programs and scripts is the virtual runner's
/// (`ScriptInterpreter`); only the world differs.
///
/// Unlike the virtual clock the result is not deterministic: times carry scheduling noise, and where two things
/// happen at nearly the same time their order may vary from run to run.
public enum RealScenarioRunner {
    /// How many operations a queue at the default limit executes at once on real threads: this machine's cores.
    package static var defaultQueueWidth: Int { RealScenarioWorld.coreCount }

    /// Why a scenario cannot run on real threads, or nil when it can.
    public static func unsupportedReason(_ scenario: Scenario) -> String? {
        for event in scenario.outside {
            for action in event.actions {
                if case .run = action {
                    // It would run the target thread's loop from the outside thread, while its own thread may too.
                    return "a run in an outside event (on real threads it would run another thread's loop)"
                }
            }
        }
        return nil
    }

    /// Runs `scenario` until every program has ended or `timeLimit` has passed; then the backend halts, every run
    /// unwinds without further callouts, and outside events still to come are dropped. The outcome's
    /// `haltReason` is `.nestingLimit` when a loop reached the nesting limit (which halts the backend at once),
    /// `.threadLimit` when the scenario asked for a thread it could not have (the same), `.descriptorLimit` when
    /// the kernel refused a port for too many open files (the same), `.horizon` when the time limit ended it, nil when every program ended by itself.
    ///
    /// With `maxEvents`, the run also stops within a millisecond of that many events, and keeps exactly that
    /// many (the outcome's `reachedEventLimit` says so).
    ///
    /// - Precondition: ``unsupportedReason(_:)`` is nil.
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), maxEvents: Int? = nil
    ) -> ScenarioRunner.Outcome {
        // One recorder for every loop: they share the backend's engine lock, under which every event is recorded.
        let recorder = TraceRecorder()
        let full = AtomicFlag()
        if let maxEvents {
            recorder.limit = maxEvents
            recorder.onRecord = { count in if count >= maxEvents { full.set(true) } }
        }
        let run = LiveScenarioRun(scenario, sink: recorder)
        let limit = LoopInstant.zero + timeLimit
        // Threads started on the way (pool workers, detached threads) count too, as on the virtual clock.
        while !run.hasEnded && run.clock.now < limit && !full.value {
            run.clock.spend(.milliseconds(1))
        }
        let timedOut = !run.hasEnded && !full.value
        // Halting ends whatever still runs and drops the outside events to come, as the virtual world does.
        run.stop()
        let trace = recorder.trace
        let reason: VirtualWorld.HaltReason? =
            run.limitReason ?? (timedOut ? .horizon : full.value ? .requested : nil)
        return ScenarioRunner.Outcome(
            trace: trace, haltReason: reason, endTime: run.clock.now, reachedEventLimit: full.value,
            eventCount: trace.count)
    }
}

/// The real world of a scenario: the backend, and waiting the way real threads wait.
final class RealScenarioWorld: ScenarioWorld, @unchecked Sendable {
    // @unchecked Sendable: `started` and `closed` are guarded by `startedLock`.
    let waiter: EpollWaiter
    private let startedLock = LoopLock()
    private var started: [HostedThread] = []
    /// Set once every started thread has been joined.
    private var closed = false
    private let running = AtomicCounter()
    private let finished = AtomicCounter()

    /// This machine's online cores: the width of a queue whose limit is the default.
    static var coreCount: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    init(waiter: EpollWaiter, declared: Int = 0) {
        self.waiter = waiter
        self.declared = declared
    }

    var clock: any LoopClock { waiter.clock }
    var kernel: any LoopWaiter { waiter }
    var isHalted: Bool { waiter.isHalted }

    /// `exit(0)`: the backend halts, so every thread unwinds and the run ends (a normal end).
    func exitProcess() { waiter.halt() }

    /// Threads started while the scenario runs that have not ended yet.
    var liveThreads: Int { running.value - finished.value }

    /// How many threads the scenario declares, and how many of their programs have ended (the run counts them).
    let declared: Int
    let programsEnded = AtomicCounter()

    /// The scenario's declared threads still running: with ``liveThreads``, what ``ThreadLimit`` counts.
    var declaredThreads: Int { max(0, declared - programsEnded.value) }

    func startThread(
        named name: String, sink: (any TraceSink)?, _ body: @escaping (RunLoopCore) -> Void
    )
        -> RunLoopCore
    {
        let loop = waiter.makeLoop(named: name)
        loop.sink = sink
        let alive = liveThreads + declaredThreads
        // Past the limit, or refused by the OS: the run halts (the thread's loop is never run), no trap.
        guard alive < ThreadLimit.maximumThreads else {
            waiter.halt(atThreadLimit: ThreadLimit(thread: name, running: alive, osError: nil))
            return loop
        }
        running.increment()
        let thread: HostedThread
        do {
            thread = try HostedThread { [finished] in
                body(loop)
                finished.increment()
            }
        } catch {
            finished.increment()
            waiter.halt(atThreadLimit: ThreadLimit(thread: name, running: alive, osError: error.code))
            return loop
        }
        let late = startedLock.withLock {
            if !closed { started.append(thread) }
            return closed
        }
        // Started after the run was over (a race with the halt): the body sees the halt and returns at once.
        if late { thread.join() }
        return loop
    }

    /// Joins every thread started while the scenario ran (after the backend halted, so they all end); a thread
    /// started after this is joined by whoever starts it.
    func joinStartedThreads() {
        while true {
            let next: HostedThread? = startedLock.withLock {
                if let thread = started.popLast() { return thread }
                closed = true
                return nil
            }
            guard let next else { return }
            next.join()
        }
    }

    /// A caller of `perform … wait` waits for the target's loop to run the task: it checks every 200 µs, and gives
    /// up when the world halts (the target may never run it).
    @discardableResult
    func block(for wait: StuckWait.Wait, until condition: @escaping () -> Bool) -> Bool {
        while !condition() && !isHalted { waiter.clock.spend(.microseconds(200)) }
        return condition()
    }

    /// A callout's `work`, or a synchronous operation's: busy for `duration`, unless the world halts first.
    func work(_ duration: Duration) {
        _ = sleep(until: waiter.clock.now + duration)
    }

    /// Sleeps until `instant`, a few milliseconds at a time so that a halt is noticed; false when it halted first.
    func sleep(until instant: LoopInstant) -> Bool {
        while !isHalted {
            let left = instant - waiter.clock.now
            if left <= .zero { return true }
            waiter.clock.spend(min(left, .milliseconds(5)))
        }
        return false
    }
}
#endif
