#if os(Linux)
import Glibc
/// Runs a ``Scenario`` on real threads and the real clock: each scenario thread is an OS thread with its own loop on
/// one ``EpollWaiter`` backend, asleep in the kernel when idle; outside events come from threads of their own at
/// their times. The interpreter of programs and scripts is the virtual runner's (`ScenarioHost`); only the world
/// differs.
///
/// Unlike the virtual clock the result is not deterministic: times carry scheduling noise, and where two things
/// happen at nearly the same time their order may vary from run to run.
public enum RealScenarioRunner {
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
    /// `haltReason` is `.horizon` when the time limit ended it, nil when every program ended by itself.
    ///
    /// - Precondition: ``unsupportedReason(_:)`` is nil.
    public static func run(_ scenario: Scenario, timeLimit: Duration = .seconds(10)) -> ScenarioRunner.Outcome {
        precondition(!scenario.threads.isEmpty, "a scenario has at least one thread")
        precondition(Set(scenario.threads.map(\.name)).count == scenario.threads.count, "thread names are unique")
        precondition(unsupportedReason(scenario) == nil, unsupportedReason(scenario) ?? "")
        let waiter = EpollWaiter(profile: scenario.profile)
        let clock = waiter.clock
        let world = RealScenarioWorld(waiter: waiter)
        // One recorder for every loop: they share the backend's engine lock, under which every event is recorded.
        let recorder = TraceRecorder()
        let shared = ScenarioHost.Shared(sink: recorder)
        for spec in scenario.threads {
            let loop = waiter.makeLoop(named: spec.name, isMainThread: spec.isMain)
            loop.sink = recorder
            shared.hosts.append(ScenarioHost(loop: loop, world: world, spec: spec, shared: shared))
        }
        shared.queues = scenario.queues.map {
            OperationQueueCore($0, world: world, sink: recorder, defaultWidth: RealScenarioWorld.coreCount)
        }
        let ended = AtomicCounter()
        var threads: [HostedThread] = []
        for host in shared.hosts {
            threads.append(
                HostedThread {
                    host.perform(host.program)
                    ended.increment()
                })
        }
        for (time, events) in groupedByTime(scenario.outside) {
            let actions = events.compactMap { event in
                // An event for a thread the scenario does not have addresses nobody.
                shared.host(named: event.thread).map { host in (host, event.actions) }
            }
            threads.append(
                HostedThread {
                    guard world.sleep(until: .zero + time) else { return }
                    for (host, actions) in actions { host.perform(actions) }
                })
        }
        let limit = LoopInstant.zero + timeLimit
        // Threads started on the way (pool workers, detached threads) count too, as on the virtual clock.
        func allEnded() -> Bool { ended.value >= shared.hosts.count && world.liveThreads == 0 }
        while !allEnded() && clock.now < limit {
            clock.spend(.milliseconds(1))
        }
        let timedOut = !allEnded()
        // Halting ends whatever still runs and drops the outside events to come, as the virtual world does.
        waiter.halt()
        for thread in threads { thread.join() }
        world.joinStartedThreads()
        let events = waiter.engineLock.withLock { recorder.events }
        // The hosts hold each other through `shared`: let them go.
        shared.hosts = []
        shared.queues = []
        return ScenarioRunner.Outcome(events: events, haltReason: timedOut ? .horizon : nil, endTime: clock.now)
    }

    private static func groupedByTime(_ events: [OutsideEvent]) -> [(Duration, [OutsideEvent])] {
        var groups: [(Duration, [OutsideEvent])] = []
        for event in events {
            if let index = groups.firstIndex(where: { $0.0 == event.time }) {
                groups[index].1.append(event)
            } else {
                groups.append((event.time, [event]))
            }
        }
        return groups.sorted { $0.0 < $1.0 }
    }
}

/// The real world of a scenario: the backend, and waiting the way real threads wait.
final class RealScenarioWorld: ScenarioWorld, @unchecked Sendable {
    // @unchecked Sendable: `started` is guarded by `startedLock`.
    let waiter: EpollWaiter
    private let startedLock = LoopLock()
    private var started: [HostedThread] = []
    private let running = AtomicCounter()
    private let finished = AtomicCounter()

    /// This machine's online cores: the width of a queue whose limit is the default.
    static var coreCount: Int { max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1) }

    init(waiter: EpollWaiter) {
        self.waiter = waiter
    }

    var clock: any LoopClock { waiter.clock }
    var kernel: any LoopWaiter { waiter }
    var isHalted: Bool { waiter.isHalted }

    /// Threads started while the scenario runs that have not ended yet.
    var liveThreads: Int { running.value - finished.value }

    func startThread(
        named name: String, sink: (any TraceSink)?, _ body: @escaping (RunLoopCore) -> Void
    )
        -> RunLoopCore
    {
        let loop = waiter.makeLoop(named: name)
        loop.sink = sink
        running.increment()
        let thread = HostedThread { [finished] in
            body(loop)
            finished.increment()
        }
        startedLock.withLock { started.append(thread) }
        return loop
    }

    /// Joins every thread started while the scenario ran (after the backend halted, so they all end).
    func joinStartedThreads() {
        while let thread = startedLock.withLock({ started.popLast() }) { thread.join() }
    }

    /// A caller of `perform … wait` waits for the target's loop to run the task: it checks every 200 µs, and gives
    /// up when the world halts (the target may never run it).
    @discardableResult
    func block(until condition: @escaping () -> Bool) -> Bool {
        while !condition() && !isHalted { waiter.clock.spend(.microseconds(200)) }
        return condition()
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
