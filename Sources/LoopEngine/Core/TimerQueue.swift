/// A mode's timers in CF's order: by deadline, equal deadlines in the order those deadlines were computed (CF sorts
/// by `_fireTSR`, a deadline on the clock fixed when it is computed; a moved timer goes after every timer whose
/// deadline was computed before its new one).
///
/// It was that sorted array, with a linear insert for every add and every repeating fire, and linear scans at
/// every wake; a heap keyed by (deadline, stamp) keeps the same order with O(log n) changes, and the questions the
/// loop asks (what is due, what to arm, what comes next) look only at the timers up to the answer.
///
/// The stamps are `LoopTimer.dateStamp`s, taken from one increasing count (`LoopTimer.stamps`) whenever a deadline
/// is computed: at creation, at a first add that reads the date, at a reschedule, at each move after a fire. The key is the
/// deadline the timer had when it was inserted or last moved here. In a mode whose timer port the loop arms, whoever
/// changes a timer's `fireTime` moves it with ``reposition(_:stamp:)`` before asking this queue anything (the core
/// does, in `repositionInAllModes`). A mode no run can ever wait on (`RunLoopCore.limitTimerPorts(toModes:)`) is
/// not told of moves: its keys go stale, and only ``ordered`` and ``liveFirst`` are asked of it, which read each
/// timer's live key (its `fireTime`, and the later of its stamp here and its last move's, `LoopTimer.moveStamp`).
/// Guarded by the engine lock, like the mode that holds it.
struct TimerQueue {
    struct Order: Comparable {
        var fireTime: LoopInstant
        /// The queue's insertion count when the timer was inserted: later inserts sort after earlier ones.
        var stamp: UInt64

        static func < (a: Order, b: Order) -> Bool {
            a.fireTime != b.fireTime ? a.fireTime < b.fireTime : a.stamp < b.stamp
        }
    }

    private var heap = IndexedHeap<ObjectIdentifier, Order, LoopTimer>()

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The first timer, firing or not (`CFRunLoopGetNextTimerFireDate` reads its deadline).
    var first: LoopTimer? { heap.min?.value }

    func contains(_ timer: LoopTimer) -> Bool { heap.contains(ObjectIdentifier(timer)) }

    /// Inserts `timer` among the timers of its deadline by `stamp`: when its deadline was computed.
    mutating func insert(_ timer: LoopTimer, stamp: UInt64) {
        heap.set(ObjectIdentifier(timer), key: Order(fireTime: timer.fireTime, stamp: stamp), value: timer)
    }

    /// Removes `timer`; false when it is not here.
    @discardableResult
    mutating func remove(_ timer: LoopTimer) -> Bool {
        heap.remove(ObjectIdentifier(timer)) != nil
    }

    /// Moves `timer` to its current `fireTime` (after every timer with that deadline); false when it is not here.
    /// One re-key in place, not a removal and an insertion: a repeating timer in many modes is moved in each of
    /// them at every fire, as CF's `__CFRepositionTimerInMode` does.
    @discardableResult
    mutating func reposition(_ timer: LoopTimer, stamp: UInt64) -> Bool {
        let id = ObjectIdentifier(timer)
        guard heap.contains(id) else { return false }
        heap.set(id, key: Order(fireTime: timer.fireTime, stamp: stamp), value: timer)
        return true
    }

    /// Gives every timer its live key (see the type's comment): what a mode no run waited on needs before its
    /// first run, which asks the heap's order.
    mutating func refreshKeys() {
        for entry in heap.entries { heap.set(entry.id, key: Self.liveKey(entry), value: entry.value) }
    }

    /// The valid timers not firing now whose deadline is at most `limit`, in order.
    func due(by limit: LoopInstant) -> [LoopTimer] {
        var found: [(Order, LoopTimer)] = []
        heap.visit { entry in
            guard entry.key.fireTime <= limit else { return false }
            let timer = entry.value
            if timer.isValidStorage && !timer.isFiring && timer.fireTime <= limit { found.append((entry.key, timer)) }
            return true
        }
        if found.count > 1 { found.sort { $0.0 < $1.0 } }
        return found.map(\.1)
    }

    /// The first timer that is not firing.
    func firstNotFiring() -> LoopTimer? {
        var best: (Order, LoopTimer)?
        heap.visit { entry in
            if let best, best.0 < entry.key { return false }
            if !entry.value.isFiring { best = (entry.key, entry.value) }
            return true
        }
        return best?.1
    }

    /// What `__CFArmNextTimerInMode` arms for, over the timers not firing: the earliest deadline (`soft`) and the
    /// earliest deadline plus tolerance (`hard`, with `honourTolerance`; else the same as `soft`). Nil with no
    /// such timer.
    ///
    /// CF walks its sorted array until a deadline passes the `hard` found so far; every timer it skips has a
    /// deadline, and so a deadline plus tolerance, past that `hard`, so the walk's answer is these two minimums.
    /// The heap is searched the same way: below an entry whose deadline is at or past `hard`, nothing can lower
    /// either.
    func armingWindow(honourTolerance: Bool) -> (soft: LoopInstant, hard: LoopInstant)? {
        var soft: LoopInstant?
        var hard: LoopInstant?
        heap.visit { entry in
            if let hard, entry.key.fireTime >= hard { return false }
            let timer = entry.value
            guard !timer.isFiring else { return true }
            let timerHard = honourTolerance ? timer.fireTime + timer.effectiveTolerance : timer.fireTime
            if soft == nil || timer.fireTime < soft! { soft = timer.fireTime }
            if hard == nil || timerHard < hard! { hard = timerHard }
            return true
        }
        guard let soft, let hard else { return nil }
        return (soft, hard)
    }

    /// Every timer, in order (for snapshots), by live keys: the same order as the heap's where moves are told.
    var ordered: [LoopTimer] {
        heap.entries.map { (Self.liveKey($0), $0.value) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The first timer by live key, firing or not: ``first`` for a mode that is not told of moves.
    var liveFirst: LoopTimer? {
        heap.entries.min { Self.liveKey($0) < Self.liveKey($1) }?.value
    }

    /// A timer's key as told moves would have left it: its deadline now, and the later of its stamp here and its
    /// last move's.
    private static func liveKey(_ entry: IndexedHeap<ObjectIdentifier, Order, LoopTimer>.Entry) -> Order {
        Order(fireTime: entry.value.fireTime, stamp: max(entry.key.stamp, entry.value.moveStamp))
    }
}
