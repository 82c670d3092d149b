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
    private let registryLock = LoopLock()
    /// Every open port and port set, so that the backend can close them when it goes away.
    private var openPorts: [Int32: PortKind] = [:]
    private var openSets: Set<Int32> = []
    /// Per wake-up port: a write was made that no read has taken yet.
    private var wakeUpPending: [Int32: Bool] = [:]
    /// What lets a poll skip its system call (see `wait(on:poll:)`), guarded by `pollLock`. Behind a pointer,
    /// indexed by descriptor: it is read at every iteration, and a class's stored properties and a dictionary's
    /// hashing would cost more than the rest of the check.
    private let pollState: UnsafeMutablePointer<PollState>
    private let pollLock = LoopLock()
    private let counters = Counters()

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

    /// Shuts the backend down: every wait returns `.halted` from now on (a sleeping loop is woken for it), so every
    /// run unwinds without further callouts, as on a virtual clock at its horizon.
    public func halt() {
        guard !halted.exchange(true) else { return }
        let wakeUpPorts = registryLock.withLock { openPorts.filter { $0.value == .wakeUp }.map(\.key) }
        for fd in wakeUpPorts { _ = lv_eventfd_post(fd) }
        pollLock.withLock { pollState.pointee.generation &+= 1 }
    }

    // MARK: - Ports

    public func makePort(_ kind: PortKind, label: String) -> PortID {
        let fd: Int32
        switch kind {
        case .timer: fd = lv_timerfd_create()
        case .message: fd = lv_eventfd_create(profile == .darwin ? 1 : 0)
        case .wakeUp, .mainQueue: fd = lv_eventfd_create(0)
        }
        Self.check(fd, kind == .timer ? "timerfd_create" : "eventfd", for: label)
        registryLock.withLock {
            openPorts[fd] = kind
            if kind == .wakeUp { wakeUpPending[fd] = false }
        }
        return Self.portID(fd: fd, kind: kind)
    }

    public func send(_ port: PortID) {
        let (fd, kind) = Self.decode(port)
        if kind == .wakeUp {
            counters.wakeUpRequests.increment()
            let alreadyPending = registryLock.withLock {
                let pending = wakeUpPending[fd] ?? false
                wakeUpPending[fd] = true
                return pending
            }
            if alreadyPending { return }
            counters.wakeUpWrites.increment()
        } else {
            counters.messageWrites.increment()
        }
        Self.check(lv_eventfd_post(fd), "eventfd write", for: "\(port)")
        // After the write: a poll that reads this generation is sure to find the write in the kernel.
        pollLock.withLock { pollState.pointee.generation &+= 1 }
    }

    public func arm(_ port: PortID, at instant: LoopInstant?) {
        let (fd, _) = Self.decode(port)
        pollLock.withLock { pollState.pointee.setDeadline(instant?.nanoseconds ?? .max, of: fd) }
        Self.check(lv_timerfd_arm(fd, instant.map(clock.absolute) ?? 0), "timerfd_settime", for: "\(port)")
    }

    public func closePort(_ port: PortID) {
        let (fd, _) = Self.decode(port)
        let wasOpen = registryLock.withLock {
            wakeUpPending[fd] = nil
            return openPorts.removeValue(forKey: fd) != nil
        }
        if wasOpen { close(fd) }
    }

    public func closePortSet(_ set: PortSetID) {
        let fd = Int32(set.rawValue)
        pollLock.withLock { pollState.pointee.forget(set: fd) }
        let wasOpen = registryLock.withLock { openSets.remove(fd) != nil }
        if wasOpen { close(fd) }
    }

    /// An eventfd cannot be read without taking its messages, so the real kernel cannot tell.
    public func pendingMessageCount(_ port: PortID) -> Int? { nil }

    // MARK: - Port sets

    public func makePortSet() -> PortSetID {
        let fd = lv_epoll_create()
        Self.check(fd, "epoll_create1", for: "a port set")
        registryLock.withLock { _ = openSets.insert(fd) }
        return PortSetID(rawValue: Int(fd))
    }

    public func insert(_ port: PortID, into set: PortSetID) {
        let (fd, kind) = Self.decode(port)
        let result = lv_epoll_add(Int32(set.rawValue), fd, UInt64(UInt(bitPattern: port.rawValue)))
        if result != -EEXIST { Self.check(result, "epoll_ctl(ADD)", for: "\(port)") }
        pollLock.withLock {
            // The port may be ready already: the set's next poll must look.
            pollState.pointee.generation &+= 1
            if kind == .timer { pollState.pointee.add(timer: fd, to: Int32(set.rawValue)) }
        }
    }

    public func remove(_ port: PortID, from set: PortSetID) {
        let (fd, kind) = Self.decode(port)
        let result = lv_epoll_remove(Int32(set.rawValue), fd)
        if result != -ENOENT { Self.check(result, "epoll_ctl(DEL)", for: "\(port)") }
        if kind == .timer { pollLock.withLock { pollState.pointee.remove(timer: fd, from: Int32(set.rawValue)) } }
    }

    // MARK: - Waiting

    public func wait(on set: PortSetID, poll: Bool) -> WaitOutcome {
        if halted.value { return .halted }
        counters.waits.increment()
        let epoll = Int32(set.rawValue)
        // A poll whose set was found empty by the last poll, with no port written or added since and no timer of
        // the set due, would find it empty again: it returns nothing without the system call (CF makes the
        // call; the outcome is the same, and one call costs about as much as the rest of an iteration).
        var seen = 0
        if poll {
            let now = clock.now.nanoseconds
            pollLock.lock()
            seen = pollState.pointee.generation
            let skip = pollState.pointee.isStillEmpty(epoll, generation: seen, now: now)
            pollLock.unlock()
            if skip {
                counters.skippedPolls.increment()
                return .nothing
            }
        }
        // One system call sleeps and takes one ready port (CF makes two: ppoll on the set, then epoll_wait for
        // one event; the port taken is the same). A port found stale at the take (read meanwhile by another set's
        // loop) is left out by the kernel, as CF's second call leaves it out.
        var tag: UInt64 = 0
        let taken = lv_epoll_take_one(epoll, poll ? 0 : 1, &tag)
        Self.check(taken, "epoll_wait", for: "a port set")
        if halted.value {
            // Edge-triggered: put back the event just taken, so that the port is not left unheard.
            if taken == 1 {
                let port = PortID(rawValue: Int(bitPattern: UInt(tag)))
                _ = lv_epoll_rearm(epoll, Self.decode(port).fd, tag)
            }
            return .halted
        }
        // `seen` was read before the call: a write after that bumps the generation again.
        let found = poll && taken == 0 ? seen : -1
        pollLock.withLock { pollState.pointee.setEmptyAt(found, for: epoll) }
        if taken == 0 { return .nothing }
        return read(PortID(rawValue: Int(bitPattern: UInt(tag))), from: epoll)
    }

    public func poll(_ port: PortID) -> WaitOutcome {
        if halted.value { return .halted }
        let (fd, _) = Self.decode(port)
        let readable = lv_wait_readable(fd, 0)
        Self.check(readable, "ppoll", for: "\(port)")
        return readable == 0 ? .nothing : read(port, from: nil)
    }

    /// The read that acknowledges a port the wait took: an eventfd's counter (all of it, or one message for a
    /// semaphore), a timerfd's expirations.
    private func read(_ port: PortID, from epoll: Int32?) -> WaitOutcome {
        let (fd, kind) = Self.decode(port)
        // Clear before reading: a wake-up written after this point must write again, or it could be lost.
        if kind == .wakeUp { registryLock.withLock { wakeUpPending[fd] = false } }
        counters.reads.increment()
        let value = lv_read_counter(fd)
        if value == -Int64(EAGAIN) {
            // Another reader took it first, or a re-armed timer: CF ignores such a wake ("handle nothing").
            counters.emptyWakes.increment()
            return .nothing
        }
        Self.check(value, "read", for: "\(port)")
        if kind == .message && profile == .darwin, let epoll {
            // One message taken; if more are queued, the edge-triggered set must hear about them again.
            _ = lv_epoll_rearm(epoll, fd, UInt64(UInt(bitPattern: port.rawValue)))
        }
        return .port(port, messages: Int(value))
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
    private static func portID(fd: Int32, kind: PortKind) -> PortID {
        let code: Int
        switch kind {
        case .wakeUp: code = 1
        case .timer: code = 2
        case .message: code = 3
        case .mainQueue: code = 4
        }
        return PortID(rawValue: code << 32 | Int(UInt32(bitPattern: fd)))
    }

    private static func decode(_ port: PortID) -> (fd: Int32, kind: PortKind) {
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

    /// System calls fail here only when the process is out of descriptors or memory, or on a programming error;
    /// the waiter's protocol cannot throw, so it stops with the call, the errno and what it was for.
    private static func check(_ result: Int32, _ call: String, for what: String) {
        guard result < 0 else { return }
        preconditionFailure("\(call) failed for \(what): \(String(cString: strerror(-result))) (errno \(-result))")
    }

    private static func check(_ result: Int64, _ call: String, for what: String) {
        check(result < 0 ? Int32(truncatingIfNeeded: result) : 0, call, for: what)
    }
}

// MARK: - Skipping polls

/// The state that lets a poll skip its system call, indexed by descriptor (descriptors are small integers).
private struct PollState {
    /// Bumped after every write to a port and every port added to a set.
    var generation = 0
    /// Per port set: the generation at which a poll last found nothing ready in it (-1: unknown).
    private var emptyAt: [Int] = []
    /// Per port set: its timer ports.
    private var timers: [[Int32]] = []
    /// Per timer port: the `LoopInstant` nanoseconds it was last armed for (`Int64.max`: not armed).
    private var deadlines: [Int64] = []

    /// True when the set was found empty at `generation` and none of its timers is due at `now`.
    func isStillEmpty(_ set: Int32, generation: Int, now: Int64) -> Bool {
        let index = Int(set)
        guard index < emptyAt.count, emptyAt[index] == generation else { return false }
        for timer in timers[index] where Int(timer) < deadlines.count && deadlines[Int(timer)] <= now {
            return false
        }
        return true
    }

    mutating func setEmptyAt(_ generation: Int, for set: Int32) {
        grow(set)
        emptyAt[Int(set)] = generation
    }

    mutating func setDeadline(_ nanoseconds: Int64, of timer: Int32) {
        let index = Int(timer)
        if index >= deadlines.count { deadlines += Array(repeating: .max, count: index + 1 - deadlines.count) }
        deadlines[index] = nanoseconds
    }

    mutating func add(timer: Int32, to set: Int32) {
        grow(set)
        if !timers[Int(set)].contains(timer) { timers[Int(set)].append(timer) }
    }

    mutating func remove(timer: Int32, from set: Int32) {
        guard Int(set) < timers.count else { return }
        timers[Int(set)].removeAll { $0 == timer }
    }

    /// A closed set's descriptor may be reused: forget what was known about it.
    mutating func forget(set: Int32) {
        guard Int(set) < emptyAt.count else { return }
        emptyAt[Int(set)] = -1
        timers[Int(set)] = []
    }

    private mutating func grow(_ set: Int32) {
        let needed = Int(set) + 1
        guard needed > emptyAt.count else { return }
        emptyAt += Array(repeating: -1, count: needed - emptyAt.count)
        timers += Array(repeating: [], count: needed - timers.count)
    }
}

// MARK: - Statistics

extension EpollWaiter {
    /// How often the waiter went to the kernel: what the waiter's tests assert on (one write for ten wake-ups).
    package struct Statistics: Equatable, Sendable {
        /// `send` calls on wake-up ports, and the eventfd writes they made (fewer: writes are coalesced).
        package var wakeUpRequests: Int
        package var wakeUpWrites: Int
        /// eventfd writes to message and main-queue ports (never coalesced: each is a message).
        package var messageWrites: Int
        package var waits: Int
        package var reads: Int
        /// Waits that ended with nothing to read.
        package var emptyWakes: Int
        /// Polls answered without a system call: nothing could have become ready since the last one.
        package var skippedPolls: Int
    }

    fileprivate final class Counters: Sendable {
        let wakeUpRequests = AtomicCounter()
        let wakeUpWrites = AtomicCounter()
        let messageWrites = AtomicCounter()
        let waits = AtomicCounter()
        let reads = AtomicCounter()
        let emptyWakes = AtomicCounter()
        let skippedPolls = AtomicCounter()
    }

    /// The ports and port sets open now: what a test checks to see that nothing leaks.
    package var openDescriptorCount: Int { registryLock.withLock { openPorts.count + openSets.count } }

    package var statistics: Statistics {
        Statistics(
            wakeUpRequests: counters.wakeUpRequests.value, wakeUpWrites: counters.wakeUpWrites.value,
            messageWrites: counters.messageWrites.value, waits: counters.waits.value, reads: counters.reads.value,
            emptyWakes: counters.emptyWakes.value, skippedPolls: counters.skippedPolls.value)
    }
}
#endif
