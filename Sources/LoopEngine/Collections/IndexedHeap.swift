/// A binary min-heap whose entries are found by an identity: insert, remove, re-key and pop in O(log n), the
/// minimum in O(1).
///
/// What the engine keeps in time order - a mode's timers, the virtual world's outside events, a port set's ready
/// ports - was a sorted array with linear inserts and removals, and a loop with thousands of items spent its time
/// shifting arrays (issue 10). The heap gives the same order as long as keys are unique: every user makes them so
/// with a sequence number as the last tie-break. Entries with equal keys come out in no particular order.
///
/// A value type: copying it copies the entries (copy-on-write arrays and dictionary underneath).
struct IndexedHeap<ID: Hashable, Key: Comparable, Value> {
    struct Entry {
        let id: ID
        var key: Key
        var value: Value
    }

    /// In heap order: every entry's key is at most its children's (at `2i + 1` and `2i + 2`).
    private(set) var entries: [Entry] = []
    /// Where each identity's entry is in `entries`.
    private var positions: [ID: Int] = [:]

    init() {}

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    /// The entry with the smallest key.
    var min: Entry? { entries.first }

    func contains(_ id: ID) -> Bool { positions[id] != nil }

    func entry(_ id: ID) -> Entry? { positions[id].map { entries[$0] } }

    /// Inserts an entry for `id`, or gives the existing one a new key and value.
    mutating func set(_ id: ID, key: Key, value: Value) {
        if let index = positions[id] {
            let old = entries[index].key
            entries[index].key = key
            entries[index].value = value
            if key < old { siftUp(index) } else { siftDown(index) }
            return
        }
        entries.append(Entry(id: id, key: key, value: value))
        positions[id] = entries.count - 1
        siftUp(entries.count - 1)
    }

    /// Removes the entry of `id` and returns it; nil when there is none.
    @discardableResult
    mutating func remove(_ id: ID) -> Entry? {
        guard let index = positions[id] else { return nil }
        return remove(at: index)
    }

    /// Removes and returns the entry with the smallest key.
    @discardableResult
    mutating func popMin() -> Entry? {
        entries.isEmpty ? nil : remove(at: 0)
    }

    mutating func removeAll() {
        entries.removeAll()
        positions.removeAll()
    }

    /// Calls `body` for entries in heap order (each before its children), skipping everything below an entry for
    /// which it returns false. Children's keys are never smaller than their parent's, so "false once the key is
    /// past a bound" visits exactly the entries up to that bound (and the children of the last ones), whatever
    /// the size of the heap.
    func visit(_ body: (Entry) -> Bool) {
        guard !entries.isEmpty else { return }
        visit(from: 0, body)
    }

    private func visit(from index: Int, _ body: (Entry) -> Bool) {
        guard body(entries[index]) else { return }
        let left = 2 * index + 1
        if left < entries.count { visit(from: left, body) }
        if left + 1 < entries.count { visit(from: left + 1, body) }
    }

    /// Every entry, smallest key first.
    func sorted() -> [Entry] {
        entries.sorted { $0.key < $1.key }
    }

    // MARK: - Keeping the heap order

    private mutating func remove(at index: Int) -> Entry {
        let last = entries.count - 1
        if index != last { swapAt(index, last) }
        let removed = entries.removeLast()
        positions[removed.id] = nil
        if index < entries.count {
            siftDown(index)
            siftUp(index)
        }
        return removed
    }

    // The sifts move a hole, not the entry: each entry passed over is written once, with one update of its
    // position, and the moving entry once at the end (a swap wrote two positions a level; a repeating timer in
    // 1,000 modes is re-keyed in each at every fire). The same moves as swapping, so the same heap.

    private mutating func siftUp(_ start: Int) {
        var child = start
        let moving = entries[start]
        while child > 0 {
            let parent = (child - 1) / 2
            guard moving.key < entries[parent].key else { break }
            entries[child] = entries[parent]
            positions[entries[child].id] = child
            child = parent
        }
        guard child != start else { return }
        entries[child] = moving
        positions[moving.id] = child
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let moving = entries[start]
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            var smallest = left
            if left + 1 < entries.count && entries[left + 1].key < entries[left].key { smallest = left + 1 }
            guard entries[smallest].key < moving.key else { break }
            entries[parent] = entries[smallest]
            positions[entries[parent].id] = parent
            parent = smallest
        }
        guard parent != start else { return }
        entries[parent] = moving
        positions[moving.id] = parent
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        positions[entries[a].id] = a
        positions[entries[b].id] = b
    }
}
