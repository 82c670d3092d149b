/// A mode's timers in CF's order: by deadline, equal deadlines in the order those deadlines were computed (CF sorts
/// by `_fireTSR`, a deadline on the clock fixed when it is computed; a moved timer goes after every timer whose
/// deadline was computed before its new one).
///
/// It was that sorted array, with a linear insert for every add and every repeating fire, and linear scans at
/// every wake; a heap keyed by (deadline, stamp) keeps the same order with O(log n) changes, and the questions the
/// loop asks (what is due, what to arm, what comes next) look only at the timers up to the answer.
///
/// The heap holds one ``TimerSlot`` per timer, which knows its own place: a repeating timer in 1,000 modes is
/// moved in each of them at every fire (`__CFRepositionTimerInMode`), and finding it, and telling each timer it
/// passes over where it went, by hashing cost three quarters of that fire. The timer keeps its slots
/// (`LoopTimer.armedSlots`), so a fire's move reaches each queue without a lookup.
///
/// The stamps are `LoopTimer.dateStamp`s, taken from one increasing count (`LoopTimer.stamps`) whenever a deadline
/// is computed: at creation, at a first add that reads the date, at a reschedule, at each move after a fire. The key is the
/// deadline the timer had when it was inserted or last moved here. In a mode whose timer port the loop arms, whoever
/// changes a timer's `fireTime` moves it with ``reposition(_:stamp:)`` before asking this queue anything (the core
/// does, in `repositionInAllModes`). A mode no run can ever wait on (`RunLoopCore.limitTimerPorts(toModes:)`) is
/// not told of moves: its keys go stale, and only ``ordered`` and ``liveFirst`` are asked of it, which read each
/// timer's live key (its `fireTime`, and the later of its stamp here and its last move's, `LoopTimer.moveStamp`).
/// A class, so that no copy of a mode's queue can share its slots: guarded by the engine lock, like the mode that
/// holds it, which is also why its hot fields skip the dynamic exclusivity checks (`@exclusivity(unchecked)`: two
/// runtime calls per access, a fifth of a fire in 1,000 modes).
final class TimerQueue {
    struct Order: Comparable {
        var fireTime: LoopInstant
        /// When the deadline was computed (`LoopTimer.dateStamp` at the insert or move): among equal deadlines,
        /// the earlier computation sorts first.
        var stamp: UInt64

        static func < (a: Order, b: Order) -> Bool {
            a.fireTime != b.fireTime ? a.fireTime < b.fireTime : a.stamp < b.stamp
        }
    }

    /// A place in the heap: the key beside the slot, so that a move compares keys in one array instead of
    /// reading a slot object at each level (a timer in 1,000 modes has 1,000 slots: reading them missed the
    /// cache), and the slot unretained (``slots`` holds it), so that a move retains nothing.
    private struct Entry {
        var key: Order
        let slot: Unmanaged<TimerSlot>

        var object: TimerSlot { slot.takeUnretainedValue() }
    }

    /// In heap order: every entry's key is at most its children's (at `2i + 1` and `2i + 2`); each slot's `index`
    /// is its place here, and its `key` the one beside it.
    @exclusivity(unchecked) private var heap: ContiguousArray<Entry> = []
    /// Each timer's slot, for the questions asked by timer (add, remove, contains), not on a fire's path; and what
    /// keeps the slots alive.
    private var slots: [ObjectIdentifier: TimerSlot] = [:]

    init() {}

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The first timer, firing or not (`CFRunLoopGetNextTimerFireDate` reads its deadline).
    var first: LoopTimer? { heap.first?.object.timer }

    func contains(_ timer: LoopTimer) -> Bool { slots[ObjectIdentifier(timer)] != nil }

    /// The slot of `timer`, if it is here.
    func slot(of timer: LoopTimer) -> TimerSlot? { slots[ObjectIdentifier(timer)] }

    /// Every slot, in no particular order.
    var allSlots: [TimerSlot] { heap.map(\.object) }

    /// True when both queues hold the same timers (what a resting group's queue is checked against).
    func holdsSameTimers(as other: TimerQueue) -> Bool {
        count == other.count && slots.keys.allSatisfy { other.slots[$0] != nil }
    }

    /// True when this queue holds exactly the timers of `slots`.
    func holds(exactly slots: [TimerSlot]) -> Bool {
        count == slots.count && slots.allSatisfy { self.slots[ObjectIdentifier($0.timer)] != nil }
    }

    /// A queue of the timers of `slots` with their keys: new slots, one per timer.
    static func copying(_ slots: [TimerSlot]) -> TimerQueue {
        let copy = TimerQueue()
        copy.heap.reserveCapacity(slots.count)
        for slot in slots {
            let new = TimerSlot(timer: slot.timer, key: slot.key, index: copy.heap.count)
            copy.slots[ObjectIdentifier(new.timer)] = new
            copy.heap.append(Entry(key: slot.key, slot: .passUnretained(new)))
        }
        var index = copy.heap.count / 2
        while index > 0 {
            index -= 1
            copy.siftDown(index)
        }
        return copy
    }

    /// A queue of the same timers with the same keys, in the same heap order: new slots, one per timer.
    func copy() -> TimerQueue {
        let copy = TimerQueue()
        copy.heap.reserveCapacity(heap.count)
        for (index, entry) in heap.enumerated() {
            let slot = TimerSlot(timer: entry.object.timer, key: entry.key, index: index)
            copy.slots[ObjectIdentifier(slot.timer)] = slot
            copy.heap.append(Entry(key: entry.key, slot: .passUnretained(slot)))
        }
        return copy
    }

    /// Inserts `timer` among the timers of its deadline by `stamp`: when its deadline was computed. Returns its
    /// slot (a timer already here is moved instead).
    @discardableResult
    func insert(_ timer: LoopTimer, stamp: UInt64) -> TimerSlot {
        let key = Order(fireTime: timer.fireTime, stamp: stamp)
        if let slot = slots[ObjectIdentifier(timer)] {
            move(slot, to: key)
            return slot
        }
        let slot = TimerSlot(timer: timer, key: key, index: heap.count)
        slots[ObjectIdentifier(timer)] = slot
        heap.append(Entry(key: key, slot: .passUnretained(slot)))
        siftUp(slot.index)
        return slot
    }

    /// Removes `timer`; false when it is not here.
    @discardableResult
    func remove(_ timer: LoopTimer) -> Bool {
        guard let slot = slots.removeValue(forKey: ObjectIdentifier(timer)) else { return false }
        let index = slot.index
        let last = heap.count - 1
        if index != last {
            heap[index] = heap[last]
            heap[index].object.index = index
        }
        heap.removeLast()
        if index < heap.count {
            siftDown(index)
            siftUp(index)
        }
        return true
    }

    /// Moves `timer` to its current `fireTime` (after every timer with that deadline); false when it is not here.
    /// One re-key in place, not a removal and an insertion.
    @discardableResult
    func reposition(_ timer: LoopTimer, stamp: UInt64) -> Bool {
        guard let slot = slots[ObjectIdentifier(timer)] else { return false }
        move(slot, to: Order(fireTime: timer.fireTime, stamp: stamp))
        return true
    }

    /// ``reposition(_:stamp:)`` for a slot of this queue, found without a lookup: what a fire does in each mode.
    func reposition(_ slot: TimerSlot, stamp: UInt64) {
        move(slot, to: Order(fireTime: slot.timer.fireTime, stamp: stamp))
    }

    /// Gives every timer its live key (see the type's comment): what a mode no run waited on needs before its
    /// first run, which asks the heap's order.
    func refreshKeys() {
        for place in heap.indices {
            let slot = heap[place].object
            slot.key = Self.liveKey(slot)
            heap[place].key = slot.key
        }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    /// The valid timers not firing now whose deadline is at most `limit`, in order.
    func due(by limit: LoopInstant) -> [LoopTimer] {
        var found: [TimerSlot] = []
        visit { slot in
            guard slot.key.fireTime <= limit else { return false }
            let timer = slot.timer
            if timer.isValidStorage && !timer.isFiring && timer.fireTime <= limit { found.append(slot) }
            return true
        }
        if found.count > 1 { found.sort { $0.key < $1.key } }
        return found.map(\.timer)
    }

    /// The latest deadline of a valid timer not firing that is due after `start` and at most at `end`.
    func lastDeadline(after start: LoopInstant, upTo end: LoopInstant) -> LoopInstant? {
        var last: LoopInstant?
        visit { slot in
            guard slot.key.fireTime <= end else { return false }
            let timer = slot.timer
            if timer.isValidStorage, !timer.isFiring, timer.fireTime > start, timer.fireTime <= end,
                last.map({ timer.fireTime > $0 }) ?? true
            {
                last = timer.fireTime
            }
            return true
        }
        return last
    }

    /// The first timer that is not firing.
    func firstNotFiring() -> LoopTimer? {
        var best: TimerSlot?
        visit { slot in
            if let best, best.key < slot.key { return false }
            if !slot.timer.isFiring { best = slot }
            return true
        }
        return best?.timer
    }

    /// What `__CFArmNextTimerInMode` arms for, over the timers not firing: the earliest deadline (`soft`) and the
    /// earliest deadline plus tolerance (`hard`, with `honourTolerance`; else the same as `soft`), each with the
    /// stamp of the computation it came from. Nil with no such timer.
    ///
    /// The stamp is part of the answer because CF compares the deadlines it computed, on a clock that always
    /// moves: two computations of one virtual instant (a date in the past rescheduled twice, which CF reads as
    /// "now" each time) are two values there, and CF arms the port again for the second (fuzz seed 81 case 1933).
    /// Among equal instants, the earliest computation is CF's smallest value.
    ///
    /// CF walks its sorted array until a deadline passes the `hard` found so far; every timer it skips has a
    /// deadline, and so a deadline plus tolerance, past that `hard`, so the walk's answer is these two minimums.
    /// The heap is searched the same way: below an entry whose key is past `hard`, nothing can lower either (a
    /// timer's soft and hard are at or past its key, with its key's stamp, and `soft` is at or before `hard`). The
    /// key is compared whole, stamp too: timers of one deadline past the first are passed by, not walked (100
    /// timers of one deadline in 1,000 run modes walked 100,000 slots a fire).
    func armingWindow(honourTolerance: Bool) -> (soft: Order, hard: Order)? {
        var soft: Order?
        var hard: Order?
        visit { slot in
            if let hard, slot.key > hard { return false }
            let timer = slot.timer
            guard !timer.isFiring else { return true }
            let timerSoft = Order(fireTime: timer.fireTime, stamp: slot.key.stamp)
            let timerHard =
                honourTolerance
                ? Order(fireTime: timer.fireTime + timer.effectiveTolerance, stamp: slot.key.stamp) : timerSoft
            if soft == nil || timerSoft < soft! { soft = timerSoft }
            if hard == nil || timerHard < hard! { hard = timerHard }
            return true
        }
        guard let soft, let hard else { return nil }
        return (soft, hard)
    }

    /// Every timer, in order (for snapshots), by live keys: the same order as the heap's where moves are told.
    var ordered: [LoopTimer] {
        heap.map { (Self.liveKey($0.object), $0.object.timer) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Every slot, smallest key first.
    var slotsInOrder: [TimerSlot] { heap.sorted { $0.key < $1.key }.map(\.object) }

    /// The first timer by live key, firing or not: ``first`` for a mode that is not told of moves.
    var liveFirst: LoopTimer? {
        heap.min { Self.liveKey($0.object) < Self.liveKey($1.object) }?.object.timer
    }

    /// A timer's key as told moves would have left it: its deadline now, and the later of its stamp here and its
    /// last move's.
    private static func liveKey(_ slot: TimerSlot) -> Order {
        Order(fireTime: slot.timer.fireTime, stamp: max(slot.key.stamp, slot.timer.moveStamp))
    }

    // MARK: - Keeping the heap order

    private func move(_ slot: TimerSlot, to key: Order) {
        let old = slot.key
        slot.key = key
        heap[slot.index].key = key
        if key < old { siftUp(slot.index) } else { siftDown(slot.index) }
    }

    /// Calls `body` for slots in heap order (each before its children), skipping everything below a slot for
    /// which it returns false: "false once the key is past a bound" visits exactly the slots up to that bound
    /// (and the children of the last ones), whatever the size of the queue.
    private func visit(_ body: (TimerSlot) -> Bool) {
        guard !heap.isEmpty else { return }
        visit(from: 0, body)
    }

    private func visit(from index: Int, _ body: (TimerSlot) -> Bool) {
        guard body(heap[index].object) else { return }
        let left = 2 * index + 1
        if left < heap.count { visit(from: left, body) }
        if left + 1 < heap.count { visit(from: left + 1, body) }
    }

    // The sifts move a hole, not the slot: each slot passed over is written once, with its new place, and the
    // moving slot once at the end.

    private func siftUp(_ start: Int) {
        var child = start
        let moving = heap[start]
        while child > 0 {
            let parent = (child - 1) / 2
            guard moving.key < heap[parent].key else { break }
            heap[child] = heap[parent]
            heap[child].object.index = child
            child = parent
        }
        guard child != start else { return }
        heap[child] = moving
        moving.object.index = child
    }

    private func siftDown(_ start: Int) {
        var parent = start
        let moving = heap[start]
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            var smallest = left
            if left + 1 < count && heap[left + 1].key < heap[left].key { smallest = left + 1 }
            guard heap[smallest].key < moving.key else { break }
            heap[parent] = heap[smallest]
            heap[parent].object.index = parent
            parent = smallest
        }
        guard parent != start else { return }
        heap[parent] = moving
        moving.object.index = parent
    }
}

/// One timer's entry in one mode's ``TimerQueue``: its key there and its place in the heap, which the queue keeps
/// up to date as it moves entries, so that a fire reaches it without hashing.
final class TimerSlot {
    let timer: LoopTimer
    @exclusivity(unchecked) fileprivate(set) var key: TimerQueue.Order
    @exclusivity(unchecked) fileprivate(set) var index: Int
    /// Its place in the timer's list of the slots a fire moves (`LoopTimer.armedSlots` for a mode's slot,
    /// `LoopTimer.restingSlots` for a resting group's), so that it leaves that list without a search; -1 when it is
    /// in none.
    var linkIndex = -1

    fileprivate init(timer: LoopTimer, key: TimerQueue.Order, index: Int) {
        self.timer = timer
        self.key = key
        self.index = index
    }
}
