/// The contents of one mode of one loop (CF's `__CFRunLoopMode`). Guarded by the engine lock.
final class LoopModeState {
    let name: ModeName
    private(set) var sources0: [LoopSource] = []
    /// The version-0 sources by identity, and how many there are of each CF-equality key (`equalityKey`,
    /// `order`): adding the 100,000th source checks for an equal one in one lookup, not a walk of the others.
    private var source0Identities: Set<ObjectIdentifier> = []
    private var source0EqualityKeys: [Source0EqualityKey: Int] = [:]

    private struct Source0EqualityKey: Hashable {
        var key: String
        var order: Int
    }
    /// In the order they were added.
    var sources1 = OrderedObjectSet<LoopSource>()
    var portSources: [PortID: LoopSource] = [:]
    /// Sorted ascending by `order`; equal orders keep insertion order.
    var observers: [LoopObserver] = []
    /// By deadline; equal deadlines keep insertion order.
    var timers = TimerQueue()
    /// The mode's timer port (CF: one timerfd per mode).
    let timerPort: PortID
    /// The ports a run of this mode waits on: the loop's wake-up port, the timer port, then source1 ports.
    let portSet: PortSetID
    /// `_CFRunLoopStopMode`'s sticky flag: ends the next run of this mode at once.
    var stoppedSticky = false
    /// The soft and hard deadlines the timer port was last armed for (`nil` = none remembered).
    var armedSoft: LoopInstant?
    var armedHard: LoopInstant?

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
        if let key = source.equalityKey {
            source0EqualityKeys[Source0EqualityKey(key: key, order: source.order), default: 0] += 1
        }
    }

    func removeSource0(at index: Int) {
        var sources = sources0
        sources0 = []
        let source = sources.remove(at: index)
        sources0 = sources
        source0Identities.remove(ObjectIdentifier(source))
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
