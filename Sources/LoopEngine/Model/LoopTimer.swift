/// A run loop timer: one-shot (`interval <= 0`) or repeating on a fixed grid.
///
/// A timer may be in many modes but of only one loop (adding it to a second loop is ignored, as in CF), and once
/// added it belongs to that loop's backend for good. Its mutable state is guarded by the engine lock.
public final class LoopTimer: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: mutable state is only touched with the engine lock held.
    /// Its name in the trace (`timer NAME`).
    public let name: String
    /// Zero or negative: one-shot.
    public let interval: Duration
    /// Stored for fidelity; CF never uses it for ordering.
    public let order: Int
    let callout: (LoopTimer) -> Void

    // Guarded by the engine lock.
    /// Its name's id in the recorder it last emitted to.
    @exclusivity(unchecked) var traceName = TraceNameSlot()
    var fireTime: LoopInstant
    /// The date CF keeps beside the deadline (`_nextFireDate`), what `CFRunLoopTimerGetNextFireDate` answers: the
    /// date as given at creation or by `setNextFireDate`, even one in the past (which the deadline `fireTime`
    /// reads as "now"), then each grid point the timer is moved to after firing.
    var dateStorage: LoopInstant
    var toleranceStorage: Duration
    var isValidStorage = true
    var isFiring = false
    /// Set when `setNextFireDate` is called during the timer's own callout; CF then keeps that date (docs/cfrunloop.md
    /// §9.3).
    var rescheduledDuringCallout = false
    weak var loop: RunLoopCore?
    var modes: [ModeName] = []
    /// Its slots in the modes of `modes` whose timer port the loop arms (all of them unless the loop was told which
    /// modes its runs can wait on), in the order it joined them: the ones a fire moves it in, reached without a
    /// lookup. A fire costs work for each of these, not for each mode.
    var armedSlots: [ArmedSlot] = []

    /// A mode whose port the loop arms, and the timer's slot in its queue.
    struct ArmedSlot {
        unowned let mode: LoopModeState
        unowned let slot: TimerSlot
    }
    /// Its slots in the queues of resting groups (modes with the same timers that no run is in, moved as one:
    /// `RunLoopCore+RestingModes.swift`). A mode in such a group has no slot in ``armedSlots``.
    var restingSlots: [RestingSlot] = []

    /// A resting group, and the timer's slot in its queue.
    struct RestingSlot {
        unowned let group: RestingTimerGroup
        unowned let slot: TimerSlot
    }
    /// The timer stamp when the timer was last moved in all its modes (`RunLoopCore.repositionInAllModes`).
    var moveStamp: UInt64 = 0
    /// The timer stamp when its deadline was last computed (created, read at its first add, rescheduled, moved on
    /// after a fire): what orders it among timers of an equal deadline in every queue it joins. CF orders timers
    /// by `_fireTSR`, the deadline on the clock at the moment it was computed, and a date not later than that
    /// moment (one in the past, or "now") is that moment itself: so two such deadlines of one virtual instant are
    /// in the order they were computed (fuzz seed 9 case 1869), whichever joined a mode first.
    var dateStamp: UInt64 = 0

    /// Every loop's timer stamps, one increasing count (a timer may be created before any loop has it).
    static let stamps = AtomicCounter()

    /// Takes the next timer stamp as the moment its deadline is computed.
    @discardableResult
    func stampDeadline() -> UInt64 {
        dateStamp = UInt64(Self.stamps.next())
        return dateStamp
    }
    /// When the timer joined each of its modes: a fire after its deadline in a mode it joined later is late because
    /// it was added late (`LoopEvent.LateCause.addedAfterDue`).
    var joinedAt: [ModeName: LoopInstant] = [:]
    /// Insertion sequence, for ties between equal deadlines.
    var sequence: UInt64 = 0
    /// Number of times the callout ran (read it with ``fireCount``).
    var fireCountStorage = 0
    /// The engine lock of the backend of the loop it was first added to.
    let binding = EngineBinding()

    /// True when the fire date was read at creation (`createdAt`); otherwise it is read when the timer is first
    /// added to a loop, as though it had been created just then.
    let fireDateReadAtCreation: Bool

    /// - Parameters:
    ///   - name: its name in the trace (`timer NAME`).
    ///   - fireDate: the first deadline; a date in the past means "as soon as possible".
    ///   - interval: zero or negative for a one-shot timer.
    ///   - tolerance: honoured only by the darwin profile.
    ///   - order: stored as CF stores it; CF never orders timers by it.
    ///   - now: the clock's time at creation. `CFRunLoopTimerCreate` turns the date into a deadline there and then:
    ///     a date in the past becomes `now`, the repeat grid starts from it, and a timer added to a loop later is
    ///     late by the time since (docs/cfrunloop.md §9.1).
    ///   - callout: called on the loop's thread each time the timer fires.
    public init(
        name: String, fireDate: LoopInstant, interval: Duration = .zero, tolerance: Duration = .zero, order: Int = 0,
        createdAt now: LoopInstant? = nil, callout: @escaping (LoopTimer) -> Void
    ) {
        self.name = name
        self.fireTime = now.map { Self.deadline(fireDate, createdAt: $0) } ?? fireDate
        self.dateStorage = fireDate
        self.fireDateReadAtCreation = now != nil
        self.interval = interval < .zero ? .zero : interval
        self.toleranceStorage = tolerance < .zero ? .zero : tolerance
        self.order = order
        self.callout = callout
        stampDeadline()
    }

    /// `CFRunLoopTimerCreate`'s reading of a fire date: no earlier than `now`, no later than CF's time-interval
    /// limit (about 16 years) after it.
    static func deadline(_ date: LoopInstant, createdAt now: LoopInstant) -> LoopInstant {
        if date < now { return now }
        let latest = now + .secondsValue(RunLoopCore.timeIntervalLimit)
        return date > latest ? latest : date
    }

    /// True when it has an interval: it fires again after each fire, until invalidated.
    public var isRepeating: Bool { interval > .zero }
    public var description: String { "timer \(name)" }

    /// The tolerance a darwin kernel would use: capped at half the interval for repeating timers.
    var effectiveTolerance: Duration {
        if isRepeating && toleranceStorage > interval / 2 { return interval / 2 }
        return toleranceStorage
    }
}
