/// The virtual clock and kernel: deterministic, where time moves only when every thread waits (to the next
/// deadline or the next scripted outside event) or a callout declares that it works for a while.
///
/// Outside events (what another thread or the user does at a given time) are scheduled with
/// ``at(_:_:)``; the world performs them, in time order, whenever time passes over them - while a loop sleeps
/// or while a callout works. The same inputs always produce the same trace.
///
/// A world can host several virtual threads, each with its own loop, on one clock (see `runThreads`): each runs on
/// an OS thread of its own, but only one at a time, and the world alone decides which (see
/// `VirtualWorld+Threads.swift`). A world used without hosted threads is driven by its caller, as one thread.
///
/// A world halts when it would have to move past its ``horizon``, or when nothing left could ever wake a
/// waiting thread (``HaltReason/idle``); every run then unwinds without further callouts.
public final class VirtualWorld: LoopClock, LoopWaiter, @unchecked Sendable {
    // @unchecked Sendable: a virtual world is driven by one thread at a time (the caller, or the holder of the
    // baton when it hosts threads); its loops hold `engineLock`.

    /// Why a world stopped moving.
    public enum HaltReason: Sendable, Equatable {
        /// Time would have passed the horizon.
        case horizon
        /// Every thread waited with nothing scheduled that could wake it: they would sleep forever.
        case idle
        /// ``halt()`` was called (a replay reached the step it wanted).
        case requested
        /// A loop refused a run nested deeper than ``RunLoopCore/maximumNestingDepth``.
        case nestingLimit(NestingLimit)
        /// A thread could not be created: the thread limit, or the OS refused it.
        case threadLimit(ThreadLimit)
    }

    /// What one iteration of a loop costs on this clock unless a world is told otherwise: 1.5 µs, the time one
    /// iteration of the real CFRunLoop takes on the machine loopviz is checked on (2 cores, Linux). There
    /// `loopviz bench` measures CF at 1.65 µs per iteration with no observer on an idle machine (1.9-2.0 µs
    /// under load), and a source0 that signals itself from its perform, run for 20 ms after a first signal at
    /// 1 ms, performs about 14,000 times when idle (1.4 µs an iteration) and 4,000-9,600 times under load. At
    /// 1.5 µs the engine performs it 12,666 times: the same order, deterministically.
    public static let defaultIterationCost: Duration = .nanoseconds(1_500)

    public let profile: PlatformProfile
    public let engineLock = LoopLock()
    /// Time never moves past this instant.
    public var horizon: LoopInstant = .distantFuture
    /// Why the world halted (the horizon, idle, the nesting or thread limit); nil while it runs.
    public internal(set) var haltReason: HaltReason? {
        didSet { halted = haltReason != nil }
    }
    /// When the world went idle: the threads it left blocked in a wait nothing could end (``StuckWait``).
    public internal(set) var stuckWaits: [StuckWait] = []
    /// `haltReason != nil`, kept on its own: the core asks at every step, and a private stored flag is read
    /// without the dynamic exclusivity check that a public property costs.
    private var halted = false

    private var current: LoopInstant = .zero
    private var ports: [VirtualPort] = []
    private var portSets: [VirtualPortSet] = []
    /// The outside events to come, by time, then by the order they were scheduled in; found by that sequence
    /// number to cancel.
    private(set) var happenings = IndexedHeap<UInt64, HappeningOrder, () -> Void>()
    private var sequence: UInt64 = 0
    /// Above zero while an outside event runs: its code is on no virtual thread.
    private(set) var outsideDepth = 0
    /// Outside events due now that wait for the loops to release the engine lock (``perform(after:_:)``).
    private var duePokes: [() -> Void] = []
    /// `!duePokes.isEmpty`, kept on its own: asked at every iteration's end.
    private var hasDuePokes = false

    // Hosted threads (VirtualWorld+Threads.swift), touched only by the holder of the baton.
    /// Every hosted thread, in declaration order (the order that breaks ties).
    var threads: [VirtualThread] = []
    /// The thread holding the baton while hosted threads run; nil when the world is driven by its caller.
    var runningThread: VirtualThreadID?
    var baton: VirtualBaton?
    /// OS threads of virtual threads created while the world runs (``spawnThread(named:_:)``), joined at its end.
    var spawned: [HostedThread] = []
    /// OS threads started and joined by `runThreads` (test hooks: no thread may outlive its world's run).
    package internal(set) var osThreadsStarted = 0
    package internal(set) var osThreadsJoined = 0

    private struct VirtualPort {
        var kind: PortKind
        var label: String
        var count = 0
        /// When the port became ready (then a sequence number): the readiness order of the wait.
        var readyKey = PortOrder(time: .zero, sequence: 0)
        var armedAt: LoopInstant?
        var armedWhen: LoopInstant = .zero
        var armSequence: UInt64 = 0
        /// The port sets it is in (a handful: one per mode that waits on it).
        var sets: [Int] = []
    }

    /// When an outside event is due, then the order it was scheduled in.
    struct HappeningOrder: Comparable {
        var time: LoopInstant
        var sequence: UInt64

        static func < (a: HappeningOrder, b: HappeningOrder) -> Bool {
            a.time != b.time ? a.time < b.time : a.sequence < b.sequence
        }
    }

    /// The cost model: what one iteration of a loop's own work costs, paid by the loop at the end of every
    /// iteration (before it decides whether to go on). CF's iterations take real time; without a cost, virtual time
    /// would stand still in a loop that never sleeps (a source0 that signals itself, a timer every nanosecond), and
    /// such a run would never reach its time limit. A callout costs nothing beyond its declared `work`: an
    /// iteration's cost covers the callouts of a usual iteration, and every callout runs inside an iteration, so
    /// time moves on whatever a loop does. Zero keeps time still between waits (the behaviour before the model:
    /// exact instants, but a loop that never sleeps never ends).
    public let iterationCost: Duration
    /// `iterationCost` in nanoseconds: converting a `Duration` (128-bit attoseconds) at every iteration would cost
    /// more than the rest of the charge.
    private let iterationNanoseconds: Int64

    /// - Parameters:
    ///   - profile: the CoreFoundation to imitate (linux or darwin).
    ///   - iterationCost: see ``iterationCost``; negative counts as zero.
    public init(profile: PlatformProfile = .linux, iterationCost: Duration = VirtualWorld.defaultIterationCost) {
        self.profile = profile
        self.iterationCost = max(iterationCost, .zero)
        iterationNanoseconds = self.iterationCost.nanosecondsClamped
    }

    // MARK: - LoopClock

    public var now: LoopInstant { current }

    /// Spends `duration` on the calling thread. A hosted thread gives up the baton meanwhile (the other threads
    /// are other CPUs: they run while it works) - unless nothing else could happen before the work ends, when it
    /// just moves the clock on, as the scheduler would, without handing the baton between OS threads. The caller of
    /// an unhosted world, or an outside event, just moves the clock on, performing the outside events on the way.
    public func spend(_ duration: Duration) {
        if hasDuePokes { performDuePokes() }
        guard duration > .zero, haltReason == nil else { return }
        let until = current + duration
        if let thread = hostedCaller {
            if nothingElseHappens(until: until, besides: thread) {
                current = until
            } else {
                suspend(thread, as: .spending(until: until))
            }
        } else {
            advance(to: until)
        }
    }

    /// ``spend(_:)`` of ``iterationCost``, without the `Duration` arithmetic; when nothing else could happen before
    /// the iteration's cost is paid (the usual case), it only moves the clock.
    public func spendIteration() {
        if hasDuePokes { performDuePokes() }
        guard iterationNanoseconds > 0, !halted else { return }
        let (sum, overflow) = current.nanoseconds.addingReportingOverflow(iterationNanoseconds)
        let until = overflow ? LoopInstant.distantFuture : LoopInstant(nanoseconds: sum)
        if let thread = hostedCaller {
            if nothingElseHappens(until: until, besides: thread) {
                current = until
            } else {
                suspend(thread, as: .spending(until: until))
            }
        } else if until <= horizon && !(happenings.min.map { $0.key.time <= until } ?? false) {
            current = until
        } else {
            advance(to: until)
        }
    }

    // MARK: - Driving

    /// Schedules an outside event: `action` runs at `time` as if on another thread.
    public func at(_ time: LoopInstant, _ action: @escaping () -> Void) {
        let sequence = nextSequence()
        happenings.set(sequence, key: HappeningOrder(time: time, sequence: sequence), value: action)
    }

    /// Performs `action` as an outside event at the first moment from now when another thread could act - when a
    /// loop next releases the engine lock (a callout, a wait, an iteration's end) - or at `time` if that is later.
    /// What a poke made after an event on screen needs: before it, the loop holds its lock, as CF's does.
    package func perform(after time: LoopInstant, _ action: @escaping () -> Void) {
        if time > current {
            at(time, action)
        } else {
            duePokes.append(action)
            hasDuePokes = true
        }
    }

    /// Performs the outside events waiting for the lock (``perform(after:_:)``), in the order they came.
    func performDuePokes() {
        while hasDuePokes, haltReason == nil {
            let due = duePokes
            duePokes = []
            hasDuePokes = false
            outsideDepth += 1
            for action in due { action() }
            outsideDepth -= 1
        }
    }

    /// Stops the world now: every run unwinds without further callouts.
    public func halt() {
        if haltReason == nil { haltReason = .requested }
    }

    /// Stops the world because a loop reached the nesting limit (the first reason to stop is the one kept).
    public func halt(atNestingLimit limit: NestingLimit) {
        if haltReason == nil { haltReason = .nestingLimit(limit) }
    }

    /// True once the world has halted.
    public var isHalted: Bool { halted }

    /// True when outside events are still scheduled.
    package var hasPendingEvents: Bool { !happenings.isEmpty }

    /// Moves time forward to `target` (never backwards), performing the outside events on the way.
    package func advance(to target: LoopInstant) {
        while haltReason == nil, let first = happenings.min, first.key.time <= target {
            if first.key.time > horizon { break }
            happenings.popMin()
            if first.key.time > current { current = first.key.time }
            outsideDepth += 1
            first.value()
            outsideDepth -= 1
        }
        guard haltReason == nil else { return }
        if target > horizon {
            if horizon > current { current = horizon }
            haltReason = .horizon
        } else if target > current {
            current = target
        }
    }

    // MARK: - LoopWaiter

    public func makePort(_ kind: PortKind, label: String) -> PortID {
        ports.append(VirtualPort(kind: kind, label: label))
        return PortID(rawValue: ports.count - 1)
    }

    public func send(_ port: PortID) {
        let index = port.rawValue
        let wasReady = ports[index].count > 0
        if !wasReady { ports[index].readyKey = PortOrder(time: current, sequence: nextSequence()) }
        // Darwin's wake-up port has a queue of one; everything else counts.
        if ports[index].kind == .wakeUp && profile == .darwin {
            ports[index].count = 1
        } else {
            ports[index].count += 1
        }
        if !wasReady { becameReady(port) }
    }

    public func arm(_ port: PortID, at instant: LoopInstant?) {
        let index = port.rawValue
        ports[index].armedAt = instant
        ports[index].armedWhen = current
        ports[index].armSequence = nextSequence()
        // Re-arming a timerfd forgets an expiry nobody read.
        ports[index].count = 0
        let deadline = instant.map { PortOrder(time: $0, sequence: ports[index].armSequence) }
        for set in ports[index].sets { portSets[set].rearm(port, at: deadline) }
    }

    public func makePortSet() -> PortSetID {
        portSets.append(VirtualPortSet())
        return PortSetID(rawValue: portSets.count - 1)
    }

    public func insert(_ port: PortID, into set: PortSetID) {
        let index = port.rawValue
        guard !ports[index].sets.contains(set.rawValue) else { return }
        ports[index].sets.append(set.rawValue)
        let state = ports[index]
        // Linux: epoll_ctl(ADD) of a ready descriptor puts it at the end of the set's ready list, behind ports
        // that became ready before it was added (docs/cfrunloop.md §15).
        let readyKey = profile == .linux ? PortOrder(time: current, sequence: nextSequence()) : state.readyKey
        portSets[set.rawValue].add(
            port, ready: state.count > 0 ? readyKey : nil,
            armed: state.armedAt.map { PortOrder(time: $0, sequence: state.armSequence) })
    }

    public func remove(_ port: PortID, from set: PortSetID) {
        let index = port.rawValue
        guard let place = ports[index].sets.firstIndex(of: set.rawValue) else { return }
        ports[index].sets.remove(at: place)
        portSets[set.rawValue].remove(port)
    }

    public func poll(_ port: PortID) -> WaitOutcome {
        if halted { return .halted }
        if let armed = ports[port.rawValue].armedAt, armed <= current { expire(port) }
        guard ports[port.rawValue].count > 0 else { return .nothing }
        return .port(port, messages: consume(port, harvestedBy: nil))
    }

    public func wait(on set: PortSetID, poll: Bool) -> WaitOutcome {
        while true {
            if hasDuePokes { performDuePokes() }
            if halted { return .halted }
            // Look at the set afresh each time: outside events may have added or removed ports meanwhile.
            if let port = firstReady(in: set) { return .port(port, messages: consume(port, harvestedBy: set.rawValue)) }
            if poll { return .nothing }
            // A hosted thread blocks: the world runs other threads, or moves time, until its set has a ready
            // port. A wait that needs not block never gives the baton away, as a kernel returns at once.
            if let thread = hostedCaller {
                suspend(thread, as: .waiting(set))
                continue
            }
            // Driven by its caller (or from an outside event): move time to whatever could make a port ready.
            var next = happenings.min?.key.time
            if let armed = earliestDeadline(in: set), next == nil || armed < next! { next = armed }
            guard let next else {
                haltReason = .idle
                return .halted
            }
            advance(to: max(next, current))
        }
    }

    public func schedule(at instant: LoopInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let sequence = nextSequence()
        happenings.set(sequence, key: HappeningOrder(time: instant, sequence: sequence), value: action)
        return ScheduledAction(rawValue: sequence)
    }

    public func cancel(_ action: ScheduledAction) {
        happenings.remove(action.rawValue)
    }

    /// An outside event is always outside; with hosted threads, so is every virtual thread but the loop's own.
    public func callerIsOutside(_ loop: RunLoopCore) -> Bool {
        if outsideDepth > 0 { return true }
        guard let running = runningThread, let own = loop.waiterThread else { return false }
        return running.rawValue != own
    }

    // MARK: - Ports

    /// Turns the timer ports of `set` whose deadline has passed into ready ports, then picks the one ready first.
    func firstReady(in set: PortSetID) -> PortID? {
        while let due = portSets[set.rawValue].earliestArmed, due.time <= current { expire(due.port) }
        // Stale entries (emptied through another set, linux) ahead of the first ready port are dropped, as the
        // kernel drops an entry it finds not ready.
        while let first = portSets[set.rawValue].firstReady, ports[first.rawValue].count == 0 {
            portSets[set.rawValue].makeEmpty(first)
        }
        return portSets[set.rawValue].firstReady
    }

    /// A timer port's deadline has passed: it is ready once, in every set it is in, in the order of its deadline
    /// (or of its arming, if that came later), then of its arming.
    private func expire(_ port: PortID) {
        let index = port.rawValue
        guard let armed = ports[index].armedAt else {
            for set in ports[index].sets { portSets[set].forgetDeadline(port) }
            return
        }
        ports[index].armedAt = nil
        ports[index].count = 1
        ports[index].readyKey = PortOrder(time: max(armed, ports[index].armedWhen), sequence: ports[index].armSequence)
        let key = ports[index].readyKey
        for set in ports[index].sets {
            portSets[set].forgetDeadline(port)
            portSets[set].makeReady(port, key)
        }
    }

    /// A port with no message got one: every set it is in has it ready now.
    private func becameReady(_ port: PortID) {
        let key = ports[port.rawValue].readyKey
        for set in ports[port.rawValue].sets {
            if profile == .linux {
                portSets[set].makeReadyKeepingPlace(port, key)
            } else {
                portSets[set].makeReady(port, key)
            }
        }
    }

    /// Reads a ready port: an eventfd or timerfd read takes everything; a darwin message port one message.
    /// `harvestedBy`: the set whose wait took it (nil: the port was polled on its own).
    private func consume(_ port: PortID, harvestedBy set: Int?) -> Int {
        let index = port.rawValue
        if ports[index].kind == .message && profile == .darwin {
            ports[index].count -= 1
            if ports[index].count == 0 { becameEmpty(port, harvestedBy: set) }
            return 1
        }
        let messages = ports[index].count
        ports[index].count = 0
        becameEmpty(port, harvestedBy: set)
        return messages
    }

    /// The port was read empty. On linux (epoll, edge-triggered) only the set whose wait reported it forgets it:
    /// in the other sets its entry stays where it is until their own wait reaches it, so a write before that keeps
    /// the old place — the wake-up port a stop wrote in one run stays ahead of a port written later, in the next
    /// run of another mode (docs/cfrunloop.md §15). Darwin's port sets (Mach) forget it everywhere.
    private func becameEmpty(_ port: PortID, harvestedBy harvester: Int?) {
        for set in ports[port.rawValue].sets where profile != .linux || set == harvester {
            portSets[set].makeEmpty(port)
        }
    }

    /// How many ports the world has made (their ids are 0 up to this): for tests that look at every port.
    package var portCount: Int { ports.count }

    /// The number of unread messages on a port (for the UI: pending port messages).
    package func pendingMessages(_ port: PortID) -> Int { ports[port.rawValue].count }

    public func pendingMessageCount(_ port: PortID) -> Int? { pendingMessages(port) }

    /// Forgets every outside event still scheduled (their closures may hold what holds this world).
    func discardPendingEvents() {
        happenings.removeAll()
        duePokes = []
        hasDuePokes = false
    }

    /// The earliest instant at which a timer port of `set` becomes ready, if one is armed.
    func earliestDeadline(in set: PortSetID) -> LoopInstant? {
        portSets[set.rawValue].earliestArmed?.time
    }

    private func nextSequence() -> UInt64 {
        sequence &+= 1
        return sequence
    }
}
