/// Identifies a port: an eventfd, a timerfd or a Mach port in the real world, a counter on the virtual clock.
public struct PortID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "port#\(rawValue)" }
}

/// What a port is for; decides how it becomes ready and how reading it consumes it.
public enum PortKind: Sendable, Equatable {
    /// A loop's wake-up port: writes coalesce, one read consumes them all.
    case wakeUp
    /// A mode's timer port: armed at an instant, ready once when it passes.
    case timer
    /// A version-1 source's port. On the linux profile an eventfd (reads consume every message at once); on
    /// darwin a message queue (one message per read).
    case message
    /// The main queue's port (libdispatch's eventfd on the main thread).
    case mainQueue
}

/// Identifies a set of ports waited on together (CF on Linux: one epoll fd per mode). A wait reads the set
/// live, so a port added while the loop sleeps can wake it.
public struct PortSetID: Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// Identifies a group of timer ports armed together (``LoopWaiter/makeArmGroup()``).
public struct ArmGroupID: Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
}

/// The result of one wait.
public enum WaitOutcome: Sendable, Equatable {
    /// One ready port was taken and read; `messages` is what the read consumed.
    case port(PortID, messages: Int)
    /// Nothing was ready (a poll), or the read found nothing.
    case nothing
    /// The backend is shutting down (the virtual clock reached its horizon): unwind without further callouts.
    case halted
}

/// A handle for an action scheduled with `LoopWaiter.schedule(at:_:)`.
public struct ScheduledAction: Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// The kernel side of the loop: ports, the wait, and the timer thread that wakes a run at its time limit.
///
/// This and `LoopClock` are the whole seam between the virtual and the real loop: `RunLoopCore` is the same for
/// both. Every method may be called from any thread unless it says otherwise.
public protocol LoopWaiter: AnyObject, Sendable {
    /// The platform whose kernel this imitates.
    var profile: PlatformProfile { get }
    /// The lock that guards all engine state of the loops using this waiter.
    var engineLock: LoopLock { get }
    /// True once the backend is shutting down; the core then returns from every run without further callouts.
    var isHalted: Bool { get }
    /// The flag behind ``isHalted``, when the backend keeps one that can be read without a lock; nil otherwise
    /// (the default). The core checks for a halt after every callout: it takes this flag once, when a loop is
    /// made, and then reads it directly instead of calling ``isHalted`` through the protocol each time. When it is
    /// not nil, its value must always be ``isHalted``.
    var haltFlag: AtomicFlag? { get }

    /// Makes a port of `kind` (a source's, the wake-up port, a timer port); `label` names it in diagnostics.
    func makePort(_ kind: PortKind, label: String) -> PortID
    /// Writes one message to a port (eventfd_write 1, or one Mach message).
    func send(_ port: PortID)
    /// Arms a timer port for an absolute instant (ready once it passes; at once if it already has);
    /// `nil` disarms it. Re-arming forgets an expiry that was not read yet.
    func arm(_ port: PortID, at instant: LoopInstant?)
    /// Makes a group of timer ports armed together, or nil when the kernel must see every port's arm (the
    /// default). The core arms the timer ports of modes that hold the same timers and do not run as one group:
    /// each is armed for the same deadline at the same instant, and only a wait on its mode can see it.
    func makeArmGroup() -> ArmGroupID?
    /// From now on `port` is armed by each ``arm(group:at:)`` of `group`. Its state now is its own. A group's
    /// ports are never in one port set together.
    func join(_ port: PortID, armGroup group: ArmGroupID)
    /// Arms every port of `group` for `instant`, as ``arm(_:at:)`` of each, one after the other, would.
    func arm(group: ArmGroupID, at instant: LoopInstant?)
    /// `port` leaves its group, in the state the group's arms since it joined left it; armed alone from now on.
    func leaveArmGroup(_ port: PortID)
    /// Forgets a group whose ports have all left.
    func closeArmGroup(_ group: ArmGroupID)
    /// Engine lock held: a loop did `operations` item operations (a timer moved in a mode, an item added to or
    /// removed from a mode, a perform queued in a mode). A backend with a work budget halts past it (``WorkLimit``);
    /// the default counts nothing (real time bounds a real run).
    func spendWork(_ operations: Int)
    /// Makes an empty port set: what a mode waits on; `label` names it in diagnostics (`T.Other`, the mode's).
    func makePortSet(label: String) -> PortSetID
    /// Adds a port to a set, so a wait on the set also ends when the port is ready.
    func insert(_ port: PortID, into set: PortSetID)
    /// Takes a port out of a set.
    func remove(_ port: PortID, from set: PortSetID)
    /// Loop thread only, without the engine lock. Waits until a port of `set` is ready (or, with `poll`, looks
    /// without blocking), takes the first ready one in readiness order and reads it.
    func wait(on set: PortSetID, poll: Bool) -> WaitOutcome
    /// Loop thread only: looks at one port without blocking and reads it if it is ready.
    func poll(_ port: PortID) -> WaitOutcome
    /// Runs `action` at `instant` as if from another thread (CF uses a dispatch timer for a run's time limit).
    func schedule(at instant: LoopInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledAction
    /// Cancels a scheduled action that has not run yet; one that has run, or was cancelled, is ignored.
    func cancel(_ action: ScheduledAction)
    /// Halts the backend because a loop reached the nesting limit: from now on every run unwinds without further
    /// callouts, as at a virtual horizon. The first limit reached is the one kept.
    func halt(atNestingLimit limit: NestingLimit)
    /// True when the caller is not the thread of `loop` (CF's `!_CFRunLoopIsCurrent`).
    func callerIsOutside(_ loop: RunLoopCore) -> Bool
    /// Forgets a port nothing refers to any more (the port of a source that was deallocated): a real kernel
    /// closes its file descriptor. The default does nothing.
    func closePort(_ port: PortID)
    /// Forgets a port set nothing waits on any more (the set of a mode of a deallocated loop). The default does
    /// nothing.
    func closePortSet(_ set: PortSetID)
    /// The messages a port holds that nobody has read, when the kernel can tell without reading them (for
    /// snapshots); nil when it cannot. The default cannot.
    func pendingMessageCount(_ port: PortID) -> Int?
    /// Loop thread, engine lock held, right before a wait on `set`: what that wait would return at once, without
    /// reading any port (``WaitOutcome/nothing``: no port is ready, the thread will sleep); nil when the kernel
    /// cannot tell without reading (the default: a real epoll set would lose its edge). The trace's sleep says it
    /// (`LoopEvent.Wait`), so that no one says "sleeps" when the wait returns at once.
    func readyPort(in set: PortSetID) -> WaitOutcome?
    /// Engine lock held: who is calling, for the trace's hand-overs (`HandOver`): one of the backend's threads, an
    /// outside event, or ``LoopCaller/unknown`` when the backend cannot tell (a real kernel: the default).
    var caller: LoopCaller { get }
    /// Engine lock held, on `loop`'s thread, before it looks at the main queue without waiting: every job queued
    /// there is on its way back from the global executor (the rest of a main-actor task after `Task.yield()`,
    /// `job` the first), which on a real machine takes tens of microseconds. True when the job is there before the
    /// look (the default), false when the look comes first and finds the queue empty; a backend that explores
    /// races may offer both.
    func hopArrivesBeforeLook(_ job: String, loop: String) -> Bool
    /// Engine lock held: `job` is queued for `loop`'s main queue while `ahead`, queued before it, is still on its
    /// way back from the global executor: `job` on the same way (`isHop`: two yields in one drain, which the pool
    /// may bring back in either order) or straight onto the queue (it lands before `ahead` unless `ahead` comes in
    /// time). False when `ahead` lands first (the default, first in first out), true when `job` overtakes it; a
    /// backend that explores races may offer both.
    func overtakesHop(_ job: String, isHop: Bool, ahead: String, loop: String) -> Bool
    /// Engine lock held, on `loop`'s thread, linux profile: Foundation is about to run `loop` until a limit that
    /// is now, or less than a microsecond past (`acceptInput(forMode:before: Date())`). It gives the run
    /// `limit - CFAbsoluteTimeGetCurrent()` seconds, and CF's clock reads `gettimeofday` in whole microseconds
    /// where `Date()` reads nanoseconds, so the run may still get a sliver of time. True when CF's clock still
    /// reads the microsecond before the limit (the run waits out the rest of it), false when it has passed the
    /// limit (the run polls: the default); a backend that explores races may offer both.
    func clockReadsBeforeLimit(loop: String) -> Bool
    /// Engine lock held, on `loop`'s thread, right after a wait took its mode's timer port while another timer of
    /// the mode is due within `RunLoopCore.wakeLatency`: true when the wake came that late, so CF's timer pass
    /// finds that timer due too; false when it came at the deadline (the default). A real kernel's wake comes tens
    /// to hundreds of microseconds late and its clock says so; a backend that explores races may offer both.
    func wakeCameLate(loop: String) -> Bool
}

/// Who called into a loop, as far as its backend can tell (``LoopWaiter/caller``).
public enum LoopCaller: Sendable, Equatable {
    /// The backend does not know its threads (a real kernel).
    case unknown
    /// An outside event: no thread of the scenario.
    case outside
    /// The thread of that name.
    case thread(String)
}

extension LoopWaiter {
    /// None: the core calls `isHalted`.
    public var haltFlag: AtomicFlag? { nil }
    /// Does nothing: a kernel with nothing to free.
    public func closePort(_ port: PortID) {}
    /// Does nothing: a kernel with nothing to free.
    public func closePortSet(_ set: PortSetID) {}
    /// None: every arm goes to the kernel.
    public func makeArmGroup() -> ArmGroupID? { nil }
    /// Never called: there is no group.
    public func join(_ port: PortID, armGroup group: ArmGroupID) {}
    /// Never called: there is no group.
    public func arm(group: ArmGroupID, at instant: LoopInstant?) {}
    /// Never called: there is no group.
    public func leaveArmGroup(_ port: PortID) {}
    /// Never called: there is no group.
    public func closeArmGroup(_ group: ArmGroupID) {}
    /// No budget.
    public func spendWork(_ operations: Int) {}
    /// Cannot tell.
    public func pendingMessageCount(_ port: PortID) -> Int? { nil }
    /// Cannot tell.
    public func readyPort(in set: PortSetID) -> WaitOutcome? { nil }
    /// Cannot tell.
    public var caller: LoopCaller { .unknown }
    /// The job is there.
    public func hopArrivesBeforeLook(_ job: String, loop: String) -> Bool { true }
    /// First in, first out.
    public func overtakesHop(_ job: String, isHop: Bool, ahead: String, loop: String) -> Bool { false }
    /// The limit has passed: the run polls.
    public func clockReadsBeforeLimit(loop: String) -> Bool { false }
    /// On time: the clock read after the wake says how late it came.
    public func wakeCameLate(loop: String) -> Bool { false }
}

extension LoopWaiter {
    /// A port set no diagnostic needs to name (the waiter's own tests).
    package func makePortSet() -> PortSetID { makePortSet(label: "unnamed") }
}
