/// The contents of one mode of one loop (CF's `__CFRunLoopMode`). Guarded by the engine lock.
final class LoopModeState {
    let name: ModeName
    /// Its name's id in the recorder it last emitted to (guarded by the engine lock).
    @exclusivity(unchecked) var traceName = TraceNameSlot()
    private(set) var sources0: [LoopSource] = []
    /// The version-0 sources by identity, and how many there are of each CF-equality key (`equalityKey`,
    /// `order`): adding the 100,000th source checks for an equal one in one lookup, not a walk of the others.
    private var source0Identities: Set<ObjectIdentifier> = []
    private var source0EqualityKeys: [Source0EqualityKey: Int] = [:]

    private struct Source0EqualityKey: Hashable {
        var key: String
        var order: Int
    }
    /// The version-0 sources signalled while in this mode, and some whose signal has gone since (a perform in
    /// another mode, an invalidation, a removal): every signalled source of the mode is here, so a pass reads these
    /// instead of walking all the mode's sources (CF's `__CFRunLoopCollectSources0` walks them all: 100,000
    /// sources cost 2.7 ms an iteration). Each source at most once.
    private var signalledSources0: [LoopSource] = []
    private var signalledIdentities: Set<ObjectIdentifier> = []
    /// When each version-0 source joined, counted: where it stands in `sources0` without looking for it.
    private var source0Arrivals: [ObjectIdentifier: UInt64] = [:]
    private var source0ArrivalCount: UInt64 = 0
    /// In the order they were added.
    var sources1 = OrderedObjectSet<LoopSource>()
    var portSources: [PortID: LoopSource] = [:]
    /// Sorted ascending by `order`; equal orders keep insertion order.
    var observers: [LoopObserver] = []
    /// By deadline; equal deadlines keep insertion order.
    let timers = TimerQueue()
    /// The mode's timer port (CF: one timerfd per mode).
    let timerPort: PortID
    /// The ports a run of this mode waits on: the loop's wake-up port, the timer port, then source1 ports.
    let portSet: PortSetID
    /// `_CFRunLoopStopMode`'s sticky flag: ends the next run of this mode at once.
    var stoppedSticky = false
    /// The soft and hard deadlines the timer port was last armed for, each with the stamp of its computation
    /// (`nil` = none remembered; `TimerQueue.armingWindow(honourTolerance:)`).
    var armedSoft: TimerQueue.Order?
    var armedHard: TimerQueue.Order?
    /// Runs of this mode active now, nested ones and outer ones in a callout included: a mode with none may rest.
    var activeRuns = 0
    /// The group it rests in (`RunLoopCore+RestingModes.swift`), and its place among the group's members. While it
    /// rests, ``timers`` holds its timers but not their order, and the group's arms stand for its own.
    var resting: RestingTimerGroup?
    var restingIndex = 0
    /// Moves of its timers since it last rested or woke, with no run of it active.
    var idleMoves = 0
    /// Its timers, summed: the key of the resting group it would join.
    var timerSignature = TimerSetSignature()

    init(name: ModeName, timerPort: PortID, portSet: PortSetID) {
        self.name = name
        self.timerPort = timerPort
        self.portSet = portSet
    }

    /// True when the mode holds no source, no timer (observers never count). Blocks and the main-queue rule are
    /// checked by the loop.
    var hasNoSourcesOrTimers: Bool { sources0.isEmpty && sources1.isEmpty && timers.isEmpty }

    // `sources0` and `observers` are read at every iteration, so they change out of place (see `RunLoopCore.runs`).

    func insertSorted(_ observer: LoopObserver) {
        var sorted = observers
        observers = []
        let index = sorted.firstIndex { $0.order > observer.order } ?? sorted.endIndex
        sorted.insert(observer, at: index)
        observers = sorted
    }

    func removeObserver(_ observer: LoopObserver) {
        var remaining = observers
        observers = []
        remaining.removeAll { $0 === observer }
        observers = remaining
    }

    /// True when the mode holds `source` or a source CF counts as equal to it (`isEqualForCF`).
    func containsSource0EqualForCF(_ source: LoopSource) -> Bool {
        if source0Identities.contains(ObjectIdentifier(source)) { return true }
        guard let key = source.equalityKey, source.version == .zero else { return false }
        return source0EqualityKeys[Source0EqualityKey(key: key, order: source.order), default: 0] > 0
    }

    func appendSource0(_ source: LoopSource) {
        var sources = sources0
        sources0 = []
        sources.append(source)
        sources0 = sources
        source0Identities.insert(ObjectIdentifier(source))
        source0ArrivalCount += 1
        source0Arrivals[ObjectIdentifier(source)] = source0ArrivalCount
        if source.signalled { noteSignalled(source) }
        if let key = source.equalityKey {
            source0EqualityKeys[Source0EqualityKey(key: key, order: source.order), default: 0] += 1
        }
    }

    /// A version-0 source of this mode was signalled (or joined it signalled): the next pass will look at it.
    func noteSignalled(_ source: LoopSource) {
        // Noted last already (a source that signals itself at each pass): no look-up in the set.
        if signalledSources0.last === source { return }
        guard signalledIdentities.insert(ObjectIdentifier(source)).inserted else { return }
        var signalled = signalledSources0
        signalledSources0 = []
        signalled.append(source)
        signalledSources0 = signalled
    }

    /// The valid, signalled version-0 sources of this mode, in no particular order (a pass sorts them); the
    /// others noted since the last pass are forgotten. The same sources a walk of `sources0` finds, at a cost of
    /// the sources signalled since the last pass.
    func takeSignalledSources0() -> [LoopSource] {
        guard !signalledSources0.isEmpty else { return [] }
        var kept = signalledSources0
        signalledSources0 = []
        kept.removeAll { source in
            let stays =
                source.isValidStorage && source.signalled && source0Identities.contains(ObjectIdentifier(source))
            if !stays { signalledIdentities.remove(ObjectIdentifier(source)) }
            return !stays
        }
        signalledSources0 = kept
        return kept
    }

    /// Where `source` stands in `sources0` relative to the others (a later arrival stands after): the order a walk
    /// of `sources0` met them in, for sources a pass cannot otherwise tell apart.
    func arrival(of source: LoopSource) -> UInt64 {
        source0Arrivals[ObjectIdentifier(source)] ?? 0
    }

    func removeSource0(at index: Int) {
        var sources = sources0
        sources0 = []
        let source = sources.remove(at: index)
        sources0 = sources
        source0Identities.remove(ObjectIdentifier(source))
        source0Arrivals[ObjectIdentifier(source)] = nil
        if let key = source.equalityKey {
            let entry = Source0EqualityKey(key: key, order: source.order)
            source0EqualityKeys[entry, default: 1] -= 1
            if source0EqualityKeys[entry] == 0 { source0EqualityKeys[entry] = nil }
        }
    }
}

/// One activation of `run(mode:…)` (CF's per-run data): its own stop flag and wake-up filter.
final class PerRunRecord {
    let mode: LoopModeState
    var stopped = false
    var ignoreWakeUps = false
    var iteration = 0
    var deadline: LoopInstant = .distantFuture
    /// Since when this run's mode has been the innermost running one without a break: a nested run of another
    /// mode suspends it, one of the same mode does not. Why a timer fires late reads it.
    var modeRunningSince: LoopInstant
    /// When the run began (its `runStart`).
    let startedAt: LoopInstant
    /// True once the run has its result and calls its exit observers.
    var isExiting = false
    /// The latest sleep of this run that was not a poll: when it began and when its wait returned.
    var lastSleep: (start: LoopInstant, end: LoopInstant)?
    /// The time limit came while the run slept with its mode's timer port due at the same instant: the wait takes
    /// the timer port, and the limit's wake-up comes after that timer pass (docs/cfrunloop.md §13.1).
    var limitAfterTimerPass = false

    init(mode: LoopModeState, startedAt: LoopInstant, runningSince: LoopInstant) {
        self.mode = mode
        self.startedAt = startedAt
        modeRunningSince = runningSince
    }
}
