#if os(Linux)
import CLoopKernel
import Glibc

/// The real kernel side of a loop on Linux, built the way CFRunLoop builds it there (docs/cfrunloop.md §15): every port
/// is a file descriptor and the wait is a system call, so an idle loop is really asleep in the kernel and other threads
/// wake it by writing to a descriptor.
///
/// - The loop's wake-up port, each version-1 source's port and the main queue's port are eventfds; a mode's timer
///   port is a timerfd armed at an absolute `CLOCK_MONOTONIC` time (re-arming resets it; on the linux profile
///   the core never disarms it, which is CF's spurious wake-up after the last timer goes).
/// - A mode's port set is an epoll instance with edge-triggered registrations.
/// - ``wait(on:poll:)`` does what CF's `__CFRunLoopServiceFileDescriptors` does (`ppoll` on the epoll fd, then
///   `epoll_wait` for one event) in one `epoll_wait` for one event (no timeout when blocking, zero when polling),
///   then the 8-byte read that acknowledges it. `EINTR` is retried; a read that finds nothing (`EAGAIN`) is a wake for
/// nothing. A poll skips
///   the system call when nothing can have become ready since the set's last poll found it empty.
/// - A run's time limit is an action on the `DeadlineThread` that calls `wakeUp`, as CF's dispatch timer does.
///
/// On the darwin profile a message port is an `EFD_SEMAPHORE` eventfd: each read takes one message, so each
/// perform gets one, as with a Mach port's queue. (A darwin port that still holds messages after a read is
/// registered again so that its set reports it again; it then queues behind ports already ready.)
///
/// One waiter is one backend: its ``engineLock`` guards every loop made on it, and every item added to them.
/// Writes to a wake-up port are coalesced: while one is unread, further wake-ups write nothing (the eventfd would
/// add them up and one read would take them all anyway).
public final class EpollWaiter: LoopWaiter, @unchecked Sendable {
    // @unchecked Sendable: the registry and the nesting limit are guarded by `registryLock`, `halted` and the
    // statistics are atomic, everything else is immutable; the descriptors themselves are the kernel's business.

    public let profile: PlatformProfile
    public let engineLock = LoopLock()
    /// The clock of every loop made on this waiter; port deadlines are on it.
    public let clock: MonotonicClock

    let halted = AtomicFlag()
    let registryLock = LoopLock()
    /// Every open port and port set, so that the backend can close them when it goes away.
    var openPorts: [Int32: PortKind] = [:]
    var openSets: Set<Int32> = []
    /// Per wake-up port: a write was made that no read has taken yet. Set by `send` and cleared by the read
    /// together with it (`readWakeUp`), both under `registryLock`: cleared apart from the read, it could outlive the
    /// write it stood for and silence the loop's wake-ups for good.
    var wakeUpPending: [Int32: Bool] = [:]
    /// What lets a poll skip its system call (see `wait(on:poll:)`), guarded by `pollLock`. Behind a pointer,
    /// indexed by descriptor: it is read at every iteration, and a class's stored properties and a dictionary's
    /// hashing would cost more than the rest of the check.
    let pollState: UnsafeMutablePointer<PollState>
    let pollLock = LoopLock()
    let counters = Counters()

    /// A kernel of its own (an epoll instance and the timer thread), reading time from `clock`; `profile` names
    /// the platform the loops imitate. Make loops on it with `makeLoop(named:isMainThread:)`.
    public init(profile: PlatformProfile = .linux, clock: MonotonicClock = MonotonicClock()) {
        self.profile = profile
        self.clock = clock
        pollState = .allocate(capacity: 1)
        pollState.initialize(to: PollState())
    }

    deinit {
        pollState.deinitialize(count: 1)
        pollState.deallocate()
        // Loops and sources hold their waiter, so nothing can use these descriptors any more.
        for fd in openPorts.keys { close(fd) }
        for fd in openSets { close(fd) }
    }

    /// A loop on this backend: the same core as the virtual loop's, with the real clock and this waiter.
    public func makeLoop(named name: String, isMainThread: Bool = false) -> RunLoopCore {
        RunLoopCore(name: name, clock: clock, waiter: self, isMainThread: isMainThread)
    }

    // MARK: - Halting

    public var isHalted: Bool { halted.value }
    public var haltFlag: AtomicFlag? { halted }

    /// The nesting limit a loop of this backend reached, which halted it; nil if none did.
    public var nestingLimit: NestingLimit? { registryLock.withLock { nestingLimitStorage } }
    private var nestingLimitStorage: NestingLimit?

    /// Keeps the first limit reached, then halts.
    public func halt(atNestingLimit limit: NestingLimit) {
        registryLock.withLock { if nestingLimitStorage == nil { nestingLimitStorage = limit } }
        halt()
    }

    /// The thread the scenario could not have (past `ThreadLimit.maximumThreads`, or refused by the OS), which
    /// halted the backend; nil if none.
    public var threadLimit: ThreadLimit? { registryLock.withLock { threadLimitStorage } }
    private var threadLimitStorage: ThreadLimit?

    /// Keeps the first thread refused, then halts.
    public func halt(atThreadLimit limit: ThreadLimit) {
        registryLock.withLock { if threadLimitStorage == nil { threadLimitStorage = limit } }
        halt()
    }

    /// The descriptor the kernel refused (too many open files), which halted the backend; nil if none.
    public var descriptorLimit: DescriptorLimit? { registryLock.withLock { descriptorLimitStorage } }
    private var descriptorLimitStorage: DescriptorLimit?

    /// Keeps the first descriptor refused, then halts.
    func halt(atDescriptorLimit limit: DescriptorLimit) {
        registryLock.withLock { if descriptorLimitStorage == nil { descriptorLimitStorage = limit } }
        halt()
    }

    /// Why the backend halted at a limit (nesting, threads, descriptors, the first of them to be asked), or nil.
    public var limitReason: VirtualWorld.HaltReason? {
        nestingLimit.map { .nestingLimit($0) } ?? threadLimit.map { .threadLimit($0) }
            ?? descriptorLimit.map { .descriptorLimit($0) }
    }

    /// Shuts the backend down: every wait returns `.halted` from now on (a sleeping loop is woken for it), so every
    /// run unwinds without further callouts, as on a virtual clock at its horizon.
    public func halt() {
        guard !halted.exchange(true) else { return }
        let wakeUpPorts = registryLock.withLock { openPorts.filter { $0.value == .wakeUp }.map(\.key) }
        for fd in wakeUpPorts { _ = lv_eventfd_post(fd) }
        pollLock.withLock { pollState.pointee.generation &+= 1 }
    }

    // MARK: - Time limits and threads

    public func schedule(at instant: LoopInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        ScheduledAction(rawValue: DeadlineThread.shared.schedule(atMonotonic: clock.absolute(instant), action))
    }

    public func cancel(_ action: ScheduledAction) {
        DeadlineThread.shared.cancel(action.rawValue)
    }

    /// True unless the caller is the OS thread that runs `loop` (recorded when its outermost run starts). A loop
    /// that never ran belongs to no thread yet; nothing it does depends on the answer before it runs.
    public func callerIsOutside(_ loop: RunLoopCore) -> Bool {
        !loop.isRunThread()
    }

    // MARK: - Port identities

    /// A port's identity carries its descriptor (low 32 bits) and kind (the next 8), so neither the loop thread
    /// nor a sender needs a table to find them.
    static func portID(fd: Int32, kind: PortKind) -> PortID {
        let code: Int
        switch kind {
        case .wakeUp: code = 1
        case .timer: code = 2
        case .message: code = 3
        case .mainQueue: code = 4
        }
        return PortID(rawValue: code << 32 | Int(UInt32(bitPattern: fd)))
    }

    static func decode(_ port: PortID) -> (fd: Int32, kind: PortKind) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: port.rawValue))
        let kind: PortKind
        switch port.rawValue >> 32 {
        case 1: kind = .wakeUp
        case 2: kind = .timer
        case 4: kind = .mainQueue
        default: kind = .message
        }
        return (fd, kind)
    }

    /// System calls fail here only when the process is out of memory, or on a programming error (running out of
    /// descriptors is a ``DescriptorLimit``, see `refused(_:_:for:)`); the waiter's protocol cannot throw, so it
    /// stops with the call, the errno and what it was for.
    static func check(_ result: Int32, _ call: String, for what: String) {
        guard result < 0 else { return }
        preconditionFailure("\(call) failed for \(what): \(String(cString: strerror(-result))) (errno \(-result))")
    }

    static func check(_ result: Int64, _ call: String, for what: String) {
        check(result < 0 ? Int32(truncatingIfNeeded: result) : 0, call, for: what)
    }
}
#endif
