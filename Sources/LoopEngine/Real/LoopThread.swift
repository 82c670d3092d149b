#if os(Linux)
import CLoopKernel
import Glibc

/// A thread kept alive by its run loop, ready to run tasks: the keep-alive-thread article's "permanent thread",
/// with each of its pitfalls dealt with.
///
/// ```swift
/// let worker = LoopThread(name: "uploader")
/// worker.perform { upload(file) }                    // queued; returns at once
/// worker.perform(waitUntilDone: true) { flush() }    // returns once flush() has run on the worker
///
/// let tick = LoopTimer(name: "tick", fireDate: worker.loop.clock.now + .seconds(1), interval: .seconds(1)) { _ in
///     report()
/// }
/// worker.loop.add(tick, to: .default)                // the loop's API is safe from any thread
///
/// worker.stop()                                      // runs the stop on the worker, ends its loop, joins it
/// worker.perform { upload(file) }                    // false: the thread has stopped; the task never runs
/// ```
///
/// What it does about each pitfall:
/// - A loop with nothing in its mode returns at once and its thread ends: the loop holds a port source that
///   nobody writes (`addPort:[NSPort port]`), so it sleeps in the kernel until there is work.
/// - `RunLoop.run()` cannot be stopped, and a bare `CFRunLoopStop` ends only the current run: the thread runs
///   `CFRunLoopRunInMode(default, forever, false)` in a loop that only ``stop()`` ends (it sets the loop thread's
///   own flag, then stops the run). A stray `loop.stop()` from elsewhere just starts a new run.
/// - `CFRunLoopStop` must be called on the loop's own thread: ``stop()`` performs it there as a task, behind the
///   tasks already queued (they still run), then waits for the thread to end and joins it. Called from the thread
///   itself (inside a task) it stops without waiting, since a thread cannot join itself.
/// - Waiting for a task performed on one's own thread would deadlock: `perform(waitUntilDone: true)` from the
///   loop's thread runs the task inline, as Foundation does.
/// - Work sent to a stopped thread is lost silently: ``perform(_:waitUntilDone:_:)`` returns false once
///   ``stop()`` has begun, and a caller waiting for a task that can no longer run (the thread stopped first) is
///   released with false rather than left waiting forever.
/// - Retain cycles keep the thread alive forever: the OS thread holds only the loop and its own bookkeeping,
///   never the `LoopThread`, so dropping the last reference to it stops the thread (and joins it, unless the
///   reference was dropped on the thread itself, which then ends on its own).
/// - Many owners stopping at once: ``stop()`` is idempotent; every caller returns once the thread has ended.
///
/// A task that runs a nested run of the loop is on its own: a ``stop()`` performed inside that nested run ends
/// the nested run, and the thread's own run ends only when the task returns and the loop iterates again.
public final class LoopThread: @unchecked Sendable {
    // @unchecked Sendable: everything mutable lives in `host`, which guards it (see `LoopThreadHost`).

    /// The thread's name (also the loop's, and the OS thread's, cut to 15 bytes).
    public let name: String
    private let host: LoopThreadHost

    /// Starts the thread and its loop.
    ///
    /// - Parameters:
    ///   - name: the thread's name, and its loop's in the trace.
    ///   - profile: the CoreFoundation to imitate (the darwin profile performs each port message separately).
    ///   - sink: where the loop's events go, set before the loop runs. It is called on the loop thread with the
    ///     engine lock held: give it a ``BufferedTraceSink`` to read the events from another thread.
    public init(name: String = "LoopThread", profile: PlatformProfile = .linux, sink: (any TraceSink)? = nil) {
        self.name = name
        host = LoopThreadHost(name: name, profile: profile, sink: sink)
        host.start()
    }

    deinit {
        host.release()
    }

    /// The thread's run loop. Its methods, and those of the items added to it, may be called from any thread.
    public var loop: RunLoopCore { host.loop }

    /// True from the start until ``stop()`` begins.
    public var isRunning: Bool { host.isRunning }

    /// True when the caller is this thread (a task, or a callout of its loop).
    public var isCurrent: Bool { host.isCurrent }

    /// `performSelector:onThread:withObject:waitUntilDone:`: runs `task` on the thread.
    ///
    /// The task is queued on the loop's perform source (a version-0 source in the common modes), which is
    /// signalled, and the loop is woken; tasks run in the order they were performed.
    ///
    /// - Parameters:
    ///   - name: the task's name in the trace (`perform NAME`).
    ///   - waitUntilDone: return only once the task has run. On the thread itself the task runs at once, inline.
    ///   - task: the work, run on the loop's thread.
    /// - Returns: true when the task was queued (or, waiting, has run); false when the thread has stopped, or
    ///   stopped before the task could run. A task refused or abandoned never runs.
    @discardableResult
    public func perform(
        _ name: String = "task", waitUntilDone: Bool = false, _ task: @escaping @Sendable () -> Void
    )
        -> Bool
    {
        host.perform(name, waitUntilDone: waitUntilDone, task)
    }

    /// Stops the thread: a task queued behind the others ends the loop on the thread itself; then this waits for
    /// the thread to end and joins it. From the thread itself it only requests the end (the current task finishes,
    /// then the loop returns and the thread ends). Safe to call from any number of threads at once, and again.
    public func stop() {
        host.stop()
    }
}

/// What the OS thread and the owners of a ``LoopThread`` share. The OS thread holds this, never the `LoopThread`,
/// so that dropping the last `LoopThread` reference stops the thread.
final class LoopThreadHost: @unchecked Sendable {
    // @unchecked Sendable: `phase`, `threadID`, `handle`, `joining` and `pending` are guarded by `mutex`;
    // `exitRequested` is touched only by the loop's own thread; the loop is thread-safe.

    enum Phase {
        /// Created; the OS thread may not have run yet (tasks queue up meanwhile).
        case starting
        case running
        /// `stop()` began: no more tasks are accepted.
        case stopping
        /// The OS thread's body returned.
        case ended
        /// Joined (or detached): the OS thread is gone.
        case joined
    }

    /// A caller waiting for its task; guarded by the host's `mutex`.
    final class Completion {
        enum State { case pending, done, abandoned }
        var state = State.pending
    }

    let name: String
    let loop: RunLoopCore
    private let keepAlive: LoopSource
    private let mutex = PosixMutex()
    private let condition = PosixCondition()
    private var phase = Phase.starting
    private var threadID: pthread_t?
    private var handle = pthread_t()
    private var joining = false
    private var pending: [Completion] = []
    /// Loop thread only: set by the stop, checked each time a run returns.
    private var exitRequested = false

    init(name: String, profile: PlatformProfile, sink: (any TraceSink)?) {
        self.name = name
        let waiter = EpollWaiter(profile: profile)
        loop = waiter.makeLoop(named: name)
        loop.sink = sink
        // The article's `addPort:[NSPort port]`: a port nobody writes keeps the default mode from being empty.
        keepAlive = LoopSource(portNamed: "keepAlive", on: waiter) { _ in }
        loop.add(keepAlive, to: .default)
    }

    /// Starts the OS thread, which holds one retain of the host until its body returns.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var created = pthread_t()
        let result = pthread_create(
            &created, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<LoopThreadHost>.fromOpaque(argument).takeRetainedValue().main()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed for \(name) (\(result))")
        locked { handle = created }
    }

    // MARK: - The thread

    private func main() {
        locked {
            threadID = pthread_self()
            if phase == .starting { phase = .running }
        }
        lv_set_thread_name(name)
        // CFRunLoopRunInMode(default, forever, false) until stop() says so; a halted backend ends it too.
        while !exitRequested && !loop.waiter.isHalted {
            loop.run(mode: .default, seconds: .infinity)
        }
        locked {
            phase = .ended
            // Tasks still queued will never run: release whoever waits for them.
            for completion in pending { completion.state = .abandoned }
            pending = []
            condition.broadcast()
        }
    }

    /// The stop itself, on the loop's thread: end the thread's run loop after this iteration.
    private func stopOnThread() {
        exitRequested = true
        loop.stop()
    }

    // MARK: - Owners

    var isRunning: Bool { locked { phase == .starting || phase == .running } }

    var isCurrent: Bool { locked { isCurrentLocked } }

    private var isCurrentLocked: Bool {
        guard let threadID else { return false }
        return pthread_equal(threadID, pthread_self()) != 0
    }

    func perform(_ name: String, waitUntilDone: Bool, _ task: @escaping @Sendable () -> Void) -> Bool {
        mutex.lock()
        guard phase == .starting || phase == .running else {
            mutex.unlock()
            return false
        }
        if waitUntilDone && isCurrentLocked {
            // Foundation performs at once on the target's own thread: waiting for our own loop would deadlock.
            mutex.unlock()
            task()
            return true
        }
        guard waitUntilDone else {
            // Queued under the mutex, so a stop() that begins later is queued behind this task.
            loop.performTask(name, task)
            mutex.unlock()
            return true
        }
        let completion = Completion()
        pending.append(completion)
        loop.performTask(name) { [self] in
            task()
            locked {
                completion.state = .done
                pending.removeAll { $0 === completion }
                condition.broadcast()
            }
        }
        while completion.state == .pending { condition.wait(releasing: mutex) }
        let ran = completion.state == .done
        mutex.unlock()
        return ran
    }

    func stop() {
        mutex.lock()
        if isCurrentLocked {
            let first = phase == .starting || phase == .running
            if first { phase = .stopping }
            mutex.unlock()
            if first { stopOnThread() }
            return
        }
        if phase == .starting || phase == .running {
            phase = .stopping
            loop.performTask("stop") { [self] in stopOnThread() }
        }
        awaitJoinLocked()
        mutex.unlock()
    }

    /// The last `LoopThread` reference is gone: stop, and join unless this is the thread itself, which cannot
    /// join itself; it is detached instead and ends once the current task returns.
    func release() {
        mutex.lock()
        guard isCurrentLocked else {
            mutex.unlock()
            stop()
            return
        }
        let first = phase == .starting || phase == .running
        if first { phase = .stopping }
        if !joining {
            joining = true
            pthread_detach(handle)
        }
        mutex.unlock()
        if first { stopOnThread() }
    }

    /// Waits (mutex held) until the thread is gone; the first caller to get here joins it.
    private func awaitJoinLocked() {
        while phase != .joined {
            if joining {
                condition.wait(releasing: mutex)
                continue
            }
            joining = true
            let joinable = handle
            mutex.unlock()
            pthread_join(joinable, nil)
            mutex.lock()
            phase = .joined
            condition.broadcast()
        }
    }

    private func locked<T>(_ body: () -> T) -> T { mutex.withLock(body) }
}
#endif
