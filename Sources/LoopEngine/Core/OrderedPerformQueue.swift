/// The ordered performs queued on one loop (`performSelector:target:argument:order:modes:`): one list, lower
/// order first and first come first within an order, indexed by mode and by target.
///
/// The list was an array that every insert, every firing of the `orderedPerform` timer and every re-arming walked
/// in full, so requests piling up for a mode that never runs made each perform in another mode cost their number
/// (a 1 ns timer queueing one perform for `default` and one for `Other`: quadratic, a million events in about 15
/// minutes). Here each mode has a heap of its requests keyed by (order, arrival), so queueing is O(log n) per
/// mode named, taking a mode's requests costs O(log n) each, and requests waiting for other modes cost nothing.
struct OrderedPerformQueue {
    /// Where a request stands in the list: by order, then by arrival.
    struct Key: Comparable {
        var order: Int
        var sequence: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.order, lhs.sequence) < (rhs.order, rhs.sequence)
        }
    }

    /// The queued requests by arrival number.
    private var requests: [Int: (key: Key, request: OrderedPerform)] = [:]
    /// Each mode's queued requests (a mode named twice by one request counts once); `common` is a mode here.
    private var byMode: [ModeName: IndexedHeap<Int, Key, Void>] = [:]
    /// Each target's queued requests, for cancelling.
    private var byTarget: [String: Set<Int>] = [:]
    private var arrivals = 0

    /// How many requests are queued.
    var count: Int { requests.count }

    /// Queues `request` after every request of a lower or equal order.
    mutating func append(_ request: OrderedPerform) {
        let key = Key(order: request.order, sequence: arrivals)
        arrivals += 1
        requests[key.sequence] = (key, request)
        for mode in Set(request.modes) { byMode[mode, default: IndexedHeap()].set(key.sequence, key: key, value: ()) }
        byTarget[request.target, default: []].insert(key.sequence)
    }

    /// Removes and returns, in list order, the requests that may run in `mode`: those that name it, and those that
    /// name the common modes when `mode` is one of them.
    mutating func takeDue(in mode: ModeName, isCommon: Bool) -> [OrderedPerform] {
        var named = byMode.removeValue(forKey: mode) ?? IndexedHeap()
        var common = isCommon && mode != .common ? byMode.removeValue(forKey: .common) ?? IndexedHeap() : IndexedHeap()
        var due: [OrderedPerform] = []
        while true {
            let fromNamed: Bool
            switch (named.min, common.min) {
            case (nil, nil): return due
            case (.some, nil): fromNamed = true
            case (nil, .some): fromNamed = false
            case (let a?, let b?): fromNamed = a.key < b.key
            }
            guard let entry = fromNamed ? named.popMin() : common.popMin(),
                let request = remove(entry.id)
            else { continue }
            due.append(request)
        }
    }

    /// Removes the requests of `target` (only those of `task` when given); returns how many there were.
    mutating func removeAll(target: String, task: String?) -> Int {
        guard let sequences = byTarget[target] else { return 0 }
        var removed = 0
        for sequence in sequences where task == nil || requests[sequence]?.request.task == task {
            if remove(sequence) != nil { removed += 1 }
        }
        return removed
    }

    /// The modes of the queued requests in the order they first appear in the list (each request's modes in the
    /// order it names them): the modes the `orderedPerform` timer is added to. O(m log m) for m such modes.
    func modesInListOrder() -> [ModeName] {
        var firsts: [(key: Key, position: Int, mode: ModeName)] = []
        for (mode, heap) in byMode {
            guard let first = heap.min, let request = requests[first.id]?.request else { continue }
            firsts.append((first.key, request.modes.firstIndex(of: mode) ?? 0, mode))
        }
        firsts.sort { ($0.key, $0.position) < ($1.key, $1.position) }
        return firsts.map(\.mode)
    }

    /// Takes one request off the list and out of every index.
    private mutating func remove(_ sequence: Int) -> OrderedPerform? {
        guard let (_, request) = requests.removeValue(forKey: sequence) else { return nil }
        for mode in Set(request.modes) {
            byMode[mode]?.remove(sequence)
            if byMode[mode]?.isEmpty == true { byMode[mode] = nil }
        }
        byTarget[request.target]?.remove(sequence)
        if byTarget[request.target]?.isEmpty == true { byTarget[request.target] = nil }
        return request
    }
}
