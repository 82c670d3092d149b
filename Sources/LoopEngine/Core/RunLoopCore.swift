#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run loop modelled on Core Foundation's CFRunLoop, step for step.
///
/// One call of ``run(mode:seconds:returnAfterSourceHandled:)`` does what `CFRunLoopRunInMode` does
/// (docs/cfrunloop.md §2):
///
///     if mode missing or empty: return finished            // no observer is called
///     entry
///     loop {
///         beforeTimers; beforeSources
///         blocks; source0s (→ blocks)                      // "handled" if a source0 ran
///         poll = handled || seconds <= 0
///         unless poll: beforeWaiting
///         wait for ONE port: wake-up, timer, source1, main queue
///         unless poll: afterWaiting
///         handle that port (timers fire here); blocks
///         handledSource (rash) > timedOut > stopped > finished (empty) > again
///     }
///     exit
///
/// Time is read only through its `clock` and the loop blocks only in its `waiter`: the virtual and the real loop are
/// this same class with a different clock and waiter.
///
/// Thread safety: every public method may be called from any thread. State is guarded by the waiter's
/// `engineLock`, which the loop releases around callouts and waits, as CF does.
public final class RunLoopCore: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: all mutable state is guarded by `lock` (the waiter's engine lock).
    /// Its name in the trace (each event's thread).
    public let name: String
    /// The main thread's loop also stands for the libdispatch main queue (docs/cfrunloop.md §14).
    package let isMainThread: Bool
    /// The backend's clock.
    package let clock: any LoopClock
    /// The backend's kernel: ports, waits, the engine lock.
    package let waiter: any LoopWaiter
    /// The waiter's halt flag (`LoopWaiter.haltFlag`), taken once here and read directly: the core asks whether
    /// the backend halted after every callout, and through the protocol that is a dynamic call, an atomic load
    /// behind a second call, for each one.
    private let haltFlag: AtomicFlag?
    /// The CoreFoundation it imitates, its backend's.
    package var profile: PlatformProfile { waiter.profile }
    let lock: LoopLock
    let wakeUpPort: PortID
    /// libdispatch's main-queue port; only on the main thread.
    let mainQueuePort: PortID?

    // Guarded by `lock`.
    var sinkStorage: (any TraceSink)? {
        didSet { recorder = (sinkStorage as? TraceRecorder)?.handle }
    }
    /// The sink when it is a ``TraceRecorder``, by its handle (`sinkStorage` keeps it alive): events go to it as ids.
    var recorder: TraceRecorder.Handle?
    /// The loop's name's id in `recorder`.
    @exclusivity(unchecked) var loopTraceName = TraceNameSlot()
    var modes: [ModeName: LoopModeState] = [:]
    var commonModes: [ModeName] = [.default]
    /// The same modes in the order CF walks them to add an item to, or remove it from, the common modes.
    var commonModeSet = CommonModeSet()
    /// Every mode of the loop as CF's set of them (`rl->_modes`, the same CFSet model, `default` in it from the
    /// start) orders them: `CFRunLoopSourceInvalidate` walks `CFRunLoopCopyAllModes` from its end, so a source
    /// leaves its modes, and its cancel callouts come, in the reverse of this order (docs/cfrunloop.md §11.1).
    var allModeSet = CommonModeSet()
    /// The items added to `.common`, in the order they were added (a new common mode gets them in that order).
    var commonSources = OrderedObjectSet<LoopSource>()
    var commonObservers = OrderedObjectSet<LoopObserver>()
    var commonTimers = OrderedObjectSet<LoopTimer>()
    // The arrays read at every iteration (`runs`, `blocks`, a mode's `sources0` and `observers`, a source's
    // `memberships`) are never changed in place (`append`, `insert`, `removeAll`): they are taken out, changed
    // and put back. An in-place change is an access that lasts across a call, and one such access anywhere in the
    // module makes the compiler check exclusivity at run time on every read of the property - a runtime call
    // with a thread-local lookup, several times per iteration. Emptying the property first keeps the taken
    // array uniquely referenced, so the change still happens without a copy.

    /// Active runs, innermost last. Empty = CF's base record, which ignores wake-ups.
    var runs: [PerRunRecord] = []
    var blocks: [PendingBlock] = []
    var mainQueue: [PendingBlock] = []
    /// Tasks sent with `performTask` and the source that serves them (created on first use).
    var performTasks: [PendingBlock] = []
    var performSource: LoopSource?
    /// The modes the perform source was added to; it leaves them when its queue is empty (it removes itself).
    var performSourceModes: [ModeName] = []
    /// Ordered performs (`performSelector:target:argument:order:modes:`), by order then arrival, and the one-shot
    /// timer that runs them (see `RunLoopCore+OrderedPerform.swift`).
    var orderedPerforms = OrderedPerformQueue()
    var orderedPerformTimer: LoopTimer?
    /// Delayed performs (`performSelector:withObject:afterDelay:`), in the order they were asked for, each with its
    /// own one-shot timer (see `RunLoopCore+DelayedPerform.swift`).
    var delayedPerforms: [DelayedPerform] = []
    var isDrainingMainQueue = false
    /// The main queue's port writes, one per job queued, and how many of them the loop's last look at the port
    /// read. A job drained before its write was read leaves that write on the port: the next look takes it with
    /// nothing (or only jobs still on their way) behind it (`mainQueueHasStaleWrite`, docs/cfrunloop.md §14).
    var mainQueueWrites: UInt64 = 0
    var mainQueueWritesRead: UInt64 = 0
    var mainQueueHasStaleWrite = false
    /// The main thread has left (an async main's `dispatch_main()`, `serveMainQueueWithoutLoop`): CF's
    /// `__CFMainThreadHasExited`, after which it adds no source, timer or observer to the main loop and queues no
    /// block there.
    var mainThreadHasExited = false
    /// A block was queued for `common`: CF then has a mode named `kCFRunLoopCommonModes` (see ``allModes``).
    var hasCommonModesMode = false
    var sleeping = false
    var sequence: UInt64 = 0
    /// The modes whose timer port this loop arms; nil: every mode (see `limitTimerPorts(toModes:)`).
    var armedTimerModes: Set<ModeName>?
    /// How many times a timer was moved in one mode's queue (and that mode's port re-armed): the work fires cost.
    package internal(set) var timerMovesInModes = 0
    /// When idle modes rest (`RunLoopCore+RestingModes.swift`); set before the loop has timers.
    package var restingPolicy = RestingPolicy.standard
    /// False once the waiter said it cannot group arms: no mode rests.
    var canRest = true
    /// The resting groups, by their timers' signature.
    var restingGroups: [TimerSetSignature: RestingTimerGroup] = [:]
    /// Modes resting now, modes woken so far, and moves made in resting groups' queues (tests read them).
    package internal(set) var restingModeCount = 0
    package internal(set) var modesWoken = 0
    package internal(set) var restingGroupMoves = 0
    /// Runs of a mode left out of `armedTimerModes` (its port armed only then; see `armTimerPortLate`).
    package internal(set) var timerPortsArmedLate = 0
    /// The thread the loop belongs to, numbered by a waiter that schedules threads of its own (the virtual
    /// clock's), set once before any thread runs: how that waiter tells the loop's own thread from the others
    /// (`callerIsOutside`). Nil for a loop driven directly, and on a backend that asks the OS (`runThread`).
    var waiterThread: Int?
    /// The item of the latest callout started on this loop, not retained (it is read only while that callout runs),
    /// or nil when it was a block or a task (then `latestBlockCallout` names it). When the nesting limit refuses a
    /// run, the latest callout is the one asking for it: any callout started after it would be nested deeper, in a
    /// run the limit refuses. One store per callout, so that a limit reached can name its callout.
    unowned(unsafe) var latestCalloutItem: AnyObject?
    var latestBlockCallout: NestingLimit.Callout?
    /// The OS thread that started the outermost active run (or the last one): how a real kernel tells the loop's
    /// own thread from the others (`callerIsOutside`, CF's `_CFRunLoopIsCurrent`). Nil before the first run.
    var runThread: pthread_t?

    /// A loop on the backend `clock` and `waiter`, with only its default mode (empty). On the real backend
    /// ``EpollWaiter/makeLoop(named:isMainThread:)`` makes one.
    public init(name: String, clock: any LoopClock, waiter: any LoopWaiter, isMainThread: Bool = false) {
        self.name = name
        self.clock = clock
        self.waiter = waiter
        self.haltFlag = waiter.haltFlag
        self.isMainThread = isMainThread
        self.lock = waiter.engineLock
        self.wakeUpPort = waiter.makePort(.wakeUp, label: "\(name).wakeUp")
        self.mainQueuePort = isMainThread ? waiter.makePort(.mainQueue, label: "\(name).mainQueue") : nil
        lock.withLock { _ = modeLocked(.default, create: true) }
    }

    deinit {
        // Nothing can run, wake or add to this loop any more: its ports and port sets can go (a real kernel
        // closes their descriptors; sources close their own ports when they go).
        for mode in modes.values {
            waiter.closePortSet(mode.portSet)
            waiter.closePort(mode.timerPort)
        }
        waiter.closePort(wakeUpPort)
        if let mainQueuePort { waiter.closePort(mainQueuePort) }
        // A resting mode and its group hold each other.
        for group in restingGroups.values {
            group.members = []
            group.withExtras = IndexedHeap()
        }
    }

    public var description: String { "loop \(name)" }

    /// Where events go. Set it before the loop runs.
    public var sink: (any TraceSink)? {
        get { lock.withLock { sinkStorage } }
        set { lock.withLock { sinkStorage = newValue } }
    }

    // MARK: - Reading state

    /// The mode of the innermost active run (`CFRunLoopCopyCurrentMode`).
    public var currentMode: ModeName? { lock.withLock { runs.last?.mode.name } }
    /// How many runs are active (nesting depth).
    package var depth: Int { lock.withLock { runs.count } }
    /// True between the decision to wait and the end of the wait (`CFRunLoopIsWaiting`).
    public var isWaiting: Bool { lock.withLock { sleeping } }
    /// Every mode that exists, in name order (`CFRunLoopCopyAllModes`): `common` too once a block was queued for
    /// it, as CF creates a mode of that name then.
    public var allModes: [ModeName] {
        lock.withLock { (hasCommonModesMode ? [.common] : []) + modes.keys }.sorted()
    }
    /// The common modes (`kCFRunLoopCommonModes` stands for these).
    package var commonModeNames: [ModeName] { lock.withLock { commonModes } }

    /// True when `mode` would return `finished` at once (`_CFRunLoopFinished`).
    package func isFinished(mode: ModeName) -> Bool {
        lock.withLock {
            if mainThreadHasExited { return true }
            // CFRunLoopPerformBlock creates a mode for each tag, `kCFRunLoopCommonModes` too; that mode holds no
            // item but is not empty while a block tagged common is pending (docs/cfrunloop.md §11).
            if mode == .common { return !blocks.contains { $0.modes.contains(.common) } }
            guard let state = modes[mode] else { return true }
            return isEmptyLocked(state)
        }
    }

    // MARK: - Internals shared by the extensions

    func modeLocked(_ name: ModeName, create: Bool) -> LoopModeState? {
        if let state = modes[name] { return state }
        guard create, name != .common else { return nil }
        let timerPort = waiter.makePort(.timer, label: "\(self.name).\(name).timer")
        let portSet = waiter.makePortSet(label: "\(self.name).\(name)")
        waiter.insert(wakeUpPort, into: portSet)
        waiter.insert(timerPort, into: portSet)
        let state = LoopModeState(name: name, timerPort: timerPort, portSet: portSet)
        modes[name] = state
        allModeSet.insert(name)
        return state
    }

    /// Makes the calling OS thread the loop's own (see `runThread`).
    func recordRunThread() {
        runThread = pthread_self()
    }

    /// True when the calling OS thread is the one that runs (or last ran) the loop.
    func isRunThread() -> Bool {
        guard let runThread else { return false }
        return pthread_equal(runThread, pthread_self()) != 0
    }

    func nextSequence() -> UInt64 {
        sequence &+= 1
        return sequence
    }

    /// The empty-mode rule (docs/cfrunloop.md §4). Observers never count.
    func isEmptyLocked(_ mode: LoopModeState) -> Bool {
        // After an async main's dispatch_main() a run asked for from a main-queue job runs the worker thread's loop
        // (`CFRunLoopGetCurrent()` there), which nothing was ever added to.
        if mainThreadHasExited { return true }
        if isMainThread && !isDrainingMainQueue && commonModes.contains(mode.name) { return false }
        if !mode.hasNoSourcesOrTimers { return false }
        return !blocks.contains { blockMatches($0, mode.name) }
    }

    func blockMatches(_ block: PendingBlock, _ mode: ModeName) -> Bool {
        block.modes.contains(mode) || (block.modes.contains(.common) && commonModes.contains(mode))
    }

    /// `waiter.isHalted`, without the protocol call when the waiter has a halt flag.
    @inline(__always)
    var isHalted: Bool { haltFlag?.value ?? waiter.isHalted }

    /// Emits one event to the sink, stamped with the innermost run's depth, mode and iteration. A
    /// ``TraceRecorder`` takes it as ids (the loop's and the mode's remembered in their ``TraceNameSlot``); any
    /// other sink takes the parts as they are (borrowed). The recorder's side is out of line: what is inlined at
    /// every emit is a test and a call, so a loop with no sink pays for no more.
    @inline(__always)
    func emit(_ kind: LoopEvent.Kind, _ itemName: String? = nil, _ fact: @autoclosure () -> LoopEvent.Fact? = nil) {
        if let recorder { return record(kind, itemName, fact(), to: recorder) }
        guard let sink = sinkStorage else { return }
        if let run = runs.last {
            sink.record(
                kind, time: clock.now, loop: name, depth: runs.count, mode: run.mode.name.rawValue,
                iteration: run.iteration, name: itemName, fact: fact())
        } else {
            sink.record(
                kind, time: clock.now, loop: name, depth: 0, mode: nil, iteration: 0, name: itemName, fact: fact())
        }
    }

    /// Emits an event of `item` (a source, a timer), its name's id remembered by the item.
    @inline(__always)
    func emit(_ kind: LoopEvent.Kind, _ item: some TraceNamedItem, _ fact: @autoclosure () -> LoopEvent.Fact? = nil) {
        if let recorder { return record(kind, item, fact(), to: recorder) }
        // No name read (a retain and a release) for no sink.
        if sinkStorage != nil { emit(kind, item.name, fact()) }
    }

    /// Emits an observer's callout for `activity`: the event a pass with many observers emits most.
    @inline(__always)
    func emitCallout(of observer: LoopObserver, for activity: Activity) {
        if let recorder { return recordCallout(of: observer, for: activity, to: recorder) }
        if sinkStorage != nil { emit(.observer, observer.name, .activity(activity)) }
    }

    @inline(never)
    private func record(
        _ kind: LoopEvent.Kind, _ itemName: String?, _ fact: LoopEvent.Fact?, to recorder: TraceRecorder.Handle
    ) {
        let nameCode = itemName.map { recorder.nameID($0) + 1 } ?? 0
        let factCode = fact.map { recorder.factID($0) + 1 } ?? 0
        record(kind, to: recorder, nameCode: nameCode, factCode: factCode)
    }

    @inline(never)
    private func record(
        _ kind: LoopEvent.Kind, _ item: some TraceNamedItem, _ fact: LoopEvent.Fact?, to recorder: TraceRecorder.Handle
    ) {
        let nameCode = recorder.nameID(item.name, slot: &item.traceName) + 1
        let factCode = fact.map { recorder.factID($0) + 1 } ?? 0
        record(kind, to: recorder, nameCode: nameCode, factCode: factCode)
    }

    @inline(never)
    private func recordCallout(of observer: LoopObserver, for activity: Activity, to recorder: TraceRecorder.Handle) {
        let nameCode = recorder.nameID(observer.name, slot: &observer.traceName) + 1
        record(.observer, to: recorder, nameCode: nameCode, factCode: recorder.activityFactID(activity) + 1)
    }

    @inline(__always)
    private func record(_ kind: LoopEvent.Kind, to recorder: TraceRecorder.Handle, nameCode: UInt32, factCode: UInt32) {
        let loopID = recorder.nameID(name, slot: &loopTraceName)
        if !runs.isEmpty {
            // The run and its mode are kept alive by `runs`: read in place, with no retain and release of either.
            Unmanaged.passUnretained(runs[runs.count - 1])._withUnsafeGuaranteedRef { run in
                Unmanaged.passUnretained(run.mode)._withUnsafeGuaranteedRef { mode in
                    recorder.record(
                        kind, time: clock.now, loopID: loopID, depth: runs.count,
                        modeCode: recorder.nameID(mode.name.rawValue, slot: &mode.traceName) + 1,
                        iteration: run.iteration, nameCode: nameCode, factCode: factCode)
                }
            }
        } else {
            recorder.record(
                kind, time: clock.now, loopID: loopID, depth: 0, modeCode: 0, iteration: 0, nameCode: nameCode,
                factCode: factCode)
        }
    }

    /// Runs `body` (a callout into user code, of `item`: a source, a timer or an observer) without the engine
    /// lock.
    @inline(__always)
    func callout(_ item: AnyObject, _ body: () -> Void) {
        latestCalloutItem = item
        lock.unlock()
        body()
        lock.lock()
    }

    /// Runs `body` (a block, a main-queue block or a performed task named `name`) without the engine lock.
    @inline(__always)
    func callout(_ kind: LoopEvent.Kind, _ name: String, _ body: () -> Void) {
        latestCalloutItem = nil
        latestBlockCallout = NestingLimit.Callout(kind: kind, name: name)
        lock.unlock()
        body()
        lock.lock()
    }

    /// The callout that asks for a run the nesting limit refuses: the latest one started on this loop (see
    /// `latestCalloutItem`).
    func latestCallout() -> NestingLimit.Callout? {
        switch latestCalloutItem {
        case let source as LoopSource:
            return NestingLimit.Callout(kind: source.version == .one ? .source1 : .source0, name: source.name)
        case let timer as LoopTimer:
            return NestingLimit.Callout(kind: .timer, name: timer.name)
        case let observer as LoopObserver:
            return NestingLimit.Callout(kind: .observer, name: observer.name)
        default:
            return latestBlockCallout
        }
    }
}
