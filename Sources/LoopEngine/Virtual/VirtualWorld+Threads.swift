/// Identifies a virtual thread hosted by a ``VirtualWorld``: its place in declaration order.
struct VirtualThreadID: Hashable, Sendable {
    let rawValue: Int
}

/// A hosted thread as the scheduler sees it: why it is not running, if it is not.
struct VirtualThread {
    enum Phase {
        /// Not started yet: it can start whenever it gets the baton.
        case ready
        /// It holds the baton.
        case running
        /// Blocked in a wait on a port set until a port of it is ready.
        case waiting(PortSetID)
        /// A callout working until that instant (meanwhile time moves and the other threads run).
        case spending(until: LoopInstant)
        /// Blocked until the condition holds (the caller of a perform-on-thread that waits until done, of a
        /// queue's wait for all its operations): `wait` says which, should the world go idle meanwhile.
        case blocked(until: () -> Bool, wait: StuckWait.Wait)
        /// A synchronous operation working with check points (`VirtualWorld+CheckPoints.swift`).
        case checking(CheckPoints)
        /// It gave the baton away at a yield point (`VirtualWorld.yieldPoint()`) and can go on whenever it
        /// gets it back.
        case yielded
        /// Its program has ended; so has its OS thread, or it is about to.
        case ended
    }

    let name: String
    var phase: Phase = .ready

    var isEnded: Bool {
        if case .ended = phase { return true }
        return false
    }
}

/// Hosting several threads, each with its own loop, on one virtual clock.
///
/// Each hosted thread runs on its own OS thread, but a baton (``VirtualBaton``) lets exactly one run at a time,
/// and it changes hands only at the seams where a real thread would give its CPU away or wait for another:
/// a blocking wait, a callout that works for a while (`spend`), a wait for another thread (`block(until:)`) and
/// the end of the thread's program. There the world decides, as a pure function of its state, what comes next:
///
/// 1. Outside events due now are performed first (as the one-thread world always did), one at a time.
/// 2. Else the first thread *in declaration order* that can go on at the current instant gets the baton: a waiter
///    whose port set has a ready port, a worker whose time is up, a blocked thread whose condition holds, a
///    thread not started yet.
///
/// Steps 1 and 2 are the default of a `Schedule`: where more than one could go on (an outside event due now
/// and a thread, or two threads), the world has met a branch point (`ScheduleBranchPoint`), and its schedule
/// may pick another (`VirtualWorld+Schedule.swift`).
/// 3. Else time moves to the earliest of: outside events, the targets of working threads, the armed timer ports
///    of waiting threads' sets. Nothing at all: the world halts `.idle`; past the horizon: `.horizon`.
///
/// Time stands still while a thread runs, so everything a thread does between two seams happens at one instant,
/// and the same scenario always interleaves the same way. When the world halts, every thread that has not
/// ended gets the baton in turn and unwinds (its wait returns `.halted`, its work returns at once).
extension VirtualWorld {
    /// Declares a thread to host; declaration order breaks every tie. Call before ``runThreads(_:)``.
    func addThread(named name: String) -> VirtualThreadID {
        precondition(baton == nil, "threads are declared before they run")
        threads.append(VirtualThread(name: name))
        return VirtualThreadID(rawValue: threads.count - 1)
    }

    /// Makes `loop` belong to `thread`: from every other thread, ``callerIsOutside(_:)`` is then true for it.
    func bind(_ loop: RunLoopCore, to thread: VirtualThreadID) {
        loop.waiterThread = thread.rawValue
    }

    /// The hosted thread that is calling; nil for an outside event (it is on no virtual thread) and when the
    /// world is not hosting threads (its caller drives it, as a single thread).
    var hostedCaller: VirtualThreadID? { outsideDepth > 0 ? nil : runningThread }

    /// The name of the hosted thread that is calling (see `hostedCaller`): who handed work to another loop
    /// (`HandOver`). Read by the baton's holder only, as every other part of the threads' state.
    var callingThreadName: String? { hostedCaller.map { threads[$0.rawValue].name } }

    /// The calling thread, or an outside event (``LoopWaiter/caller``).
    public var caller: LoopCaller { callingThreadName.map(LoopCaller.thread) ?? .outside }

    /// Runs one body per declared thread, each on its own virtual thread, and returns when all of them have
    /// ended, every OS thread joined.
    ///
    /// The first body runs on the calling OS thread, so a world of one thread starts no OS thread at all; the
    /// others get an OS thread each, which waits for the baton before it runs anything.
    func runThreads(_ bodies: [() -> Void]) {
        precondition(bodies.count == threads.count, "one body per declared thread")
        precondition(baton == nil && runningThread == nil, "a world runs its threads once")
        guard !bodies.isEmpty else { return }
        let baton = VirtualBaton(holder: 0)
        self.baton = baton
        runningThread = VirtualThreadID(rawValue: 0)
        threads[0].phase = .running
        var hosted: [HostedThread] = []
        for index in bodies.indices.dropFirst() {
            if index >= ThreadLimit.maximumThreads {
                refuse(index, ThreadLimit(thread: threads[index].name, running: index, osError: nil))
            } else if case .threadLimit = haltReason {
                // A thread before it was refused: the run is over before it began, and this one never starts.
                threads[index].phase = .ended
            } else if let thread = host(index, bodies[index]) {
                hosted.append(thread)
            }
        }
        bodies[0]()
        end(VirtualThreadID(rawValue: 0))
        baton.awaitFinish()
        for thread in hosted + spawned {
            thread.join()
            osThreadsJoined += 1
        }
        spawned = []
    }

    /// Creates a thread while the world runs (`Thread.detachNewThread`, a pool's new worker): it comes last in
    /// declaration order and starts when the scheduler gives it the baton, at the current instant at the
    /// earliest. Only the holder of the baton (a hosted thread, or an outside event) may call this.
    @discardableResult
    ///
    /// Past ``ThreadLimit/maximumThreads`` threads at once, or when the OS refuses the thread, the world halts with a
    /// ``ThreadLimit`` and the thread ends without running (its loop is never run).
    func spawnThread(named name: String, _ body: @escaping () -> Void) -> VirtualThreadID {
        let running = threads.count { !$0.isEnded }
        threads.append(VirtualThread(name: name))
        let index = threads.count - 1
        if running >= ThreadLimit.maximumThreads {
            refuse(index, ThreadLimit(thread: name, running: running, osError: nil))
        } else if let thread = host(index, body) {
            spawned.append(thread)
        }
        return VirtualThreadID(rawValue: index)
    }

    /// Starts the OS thread of virtual thread `index`, which waits for the baton; nil when the OS refuses it, the
    /// world then halted with a ``ThreadLimit`` (and that thread ended before it began).
    private func host(_ index: Int, _ body: @escaping () -> Void) -> HostedThread? {
        guard let baton else { preconditionFailure("threads are hosted while the world runs its threads") }
        do {
            let thread = try HostedThread { [self] in
                baton.await(index)
                threads[index].phase = .running
                body()
                end(VirtualThreadID(rawValue: index))
            }
            osThreadsStarted += 1
            return thread
        } catch {
            let running = threads.indices.count { $0 != index && !threads[$0].isEnded }
            refuse(index, ThreadLimit(thread: threads[index].name, running: running, osError: error.code))
            return nil
        }
    }

    /// Halts the world because thread `index` cannot be had; it ends without running.
    private func refuse(_ index: Int, _ limit: ThreadLimit) {
        threads[index].phase = .ended
        if haltReason == nil { haltReason = .threadLimit(limit) }
    }

    /// Blocks the calling hosted thread until `condition` holds or the world halts; returns the condition.
    ///
    /// Only the holder of the baton evaluates `condition`, so it may read state other threads write. An outside
    /// event, or the caller of a world that hosts no threads, cannot block: it gets the condition as it is.
    @discardableResult
    func block(for wait: StuckWait.Wait, until condition: @escaping () -> Bool) -> Bool {
        guard let thread = hostedCaller, !condition() else { return condition() }
        suspend(thread, as: .blocked(until: condition, wait: wait))
        return condition()
    }

    /// Gives up the baton until `thread` (the caller) can go on again in `phase`, or the world halts.
    func suspend(_ thread: VirtualThreadID, as phase: VirtualThread.Phase) {
        threads[thread.rawValue].phase = phase
        schedule(from: thread)
        threads[thread.rawValue].phase = .running
    }

    /// True when `thread` (the caller, holding the baton) could work until `until` with nothing else happening
    /// meanwhile: no outside event, no other thread able to go on now or before then, the horizon not passed. The
    /// scheduler would then just move the clock to `until` and give the baton back to `thread`, so ``spend(_:)``
    /// does that itself. An event at `until` itself is not "after": the scheduler would perform it (or run an
    /// earlier-declared thread) before `thread` goes on, so that spend takes the scheduler's way.
    func nothingElseHappens(until: LoopInstant, besides thread: VirtualThreadID) -> Bool {
        if until > horizon { return false }
        if let next = nextEventTime(), next <= until { return false }
        for index in threads.indices where index != thread.rawValue && canProceed(threads[index].phase) {
            return false
        }
        return true
    }

    /// Baton hand-overs between OS threads so far, and the wake-ups they caused (test hooks).
    package var batonHandOvers: Int { baton?.counts.passes ?? 0 }
    package var batonWakeUps: Int { baton?.counts.wakeUps ?? 0 }

    // MARK: - Scheduling

    /// The end of a thread's program: hands the baton on for good.
    private func end(_ thread: VirtualThreadID) {
        threads[thread.rawValue].phase = .ended
        schedule(from: thread)
    }

    /// Decides what happens next, on behalf of `thread`, which holds the baton and has said (in its phase) why
    /// it stops. Returns when `thread` may go on - at once if nothing else comes first - or, when it has ended,
    /// as soon as the baton is someone else's (or retired, everyone having ended).
    private func schedule(from thread: VirtualThreadID) {
        while true {
            let eventDue = haltReason == nil && happenings.min.map { $0.key.time <= now } == true
            let runnable = runnableThreads()
            if eventDue || !runnable.isEmpty {
                switch choose(eventDue: eventDue, runnable: runnable) {
                case .outsideEvent:
                    // Performed one at a time: a thread may go on between two outside events of one instant.
                    performNextOutsideEvent()
                    continue
                case .thread(let next):
                    markCheckPointsPassed(before: next.rawValue)
                    if next == thread { return }
                    guard let baton else { preconditionFailure("hosted threads run without a baton") }
                    let ending = threads[thread.rawValue].isEnded
                    runningThread = next
                    baton.pass(to: next.rawValue)
                    // From here on the world belongs to `next`: touch nothing until the baton comes back.
                    if !ending { baton.await(thread.rawValue) }
                    return
                }
            }
            markCheckPointsPassed(before: threads.count)
            if threads.allSatisfy(\.isEnded) {
                runningThread = nil
                baton?.finish()
                return
            }
            guard let next = nextEventTime() else {
                // Every thread that is left waits for something nothing can bring.
                haltReason = .idle
                stuckWaits = threads.compactMap { thread in
                    guard case .blocked(_, let wait) = thread.phase else { return nil }
                    return StuckWait(thread: thread.name, wait: wait)
                }
                continue
            }
            if next > now && next <= horizon {
                // Only the clock moves: what is due then (an outside event, a thread) is chosen at the top, so an
                // outside event and a thread due at one instant are a branch point.
                current = next
            } else {
                advance(to: max(next, now))
            }
        }
    }

    /// The threads, in declaration order, that can go on at the current instant. Once the world has halted every
    /// thread that has not ended can: it has to unwind.
    func runnableThreads() -> [VirtualThreadID] {
        threads.indices.filter { canProceed(threads[$0].phase) }.map { VirtualThreadID(rawValue: $0) }
    }

    /// A thread working with check points, declared before the thread that goes on (or any, when none does), that
    /// is reached at a check point of its own and has not been cancelled has had its turn: it looked at
    /// `isCancelled`, saw false and works on, as if it had taken the baton and given it back, so a cancel later at
    /// the same instant is seen at its next check point.
    private func markCheckPointsPassed(before end: Int) {
        guard haltReason == nil else { return }
        for index in 0..<end {
            if case .checking(var checks) = threads[index].phase, checks.isAtCheckPoint(now),
                !checks.canGoOn(at: now)
            {
                checks.passed = now
                threads[index].phase = .checking(checks)
            }
        }
    }

    private func canProceed(_ phase: VirtualThread.Phase) -> Bool {
        switch phase {
        case .ended: false
        case _ where haltReason != nil: true
        case .ready, .running, .yielded: true
        case .waiting(let set): firstReady(in: set) != nil
        case .spending(let until): until <= now
        case .blocked(let condition, _): condition()
        case .checking(let checks): checks.canGoOn(at: now)
        }
    }

    /// The earliest instant at which something can happen: an outside event, a working thread's time being up,
    /// an armed timer port of a waiting thread's set. Nil: nothing ever will.
    private func nextEventTime() -> LoopInstant? {
        var next = happenings.min?.key.time
        for thread in threads {
            let candidate: LoopInstant?
            switch thread.phase {
            case .spending(let until): candidate = until
            case .waiting(let set): candidate = earliestDeadline(in: set)
            case .checking(let checks): candidate = checks.nextTime(from: now)
            default: candidate = nil
            }
            if let candidate, next == nil || candidate < next! { next = candidate }
        }
        return next
    }
}
