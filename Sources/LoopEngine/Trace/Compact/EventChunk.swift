/// A run of a trace's events in memory that never moves. A chunk with room left belongs to one trace storage,
/// which alone writes to it (an append is a store, with no array's uniqueness check); a full one is only read,
/// and shared by every trace that copies it.
final class EventChunk: @unchecked Sendable {
    // @unchecked Sendable: written only by the storage that owns it while it has room; read by anyone after.
    let base: UnsafeMutablePointer<CompactEvent>
    let capacity: Int

    /// A chunk with room for `capacity` events.
    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// A chunk of `capacity` holding the first `count` events of `other`.
    convenience init(copying count: Int, of other: EventChunk, capacity: Int) {
        self.init(capacity: capacity)
        base.initialize(from: other.base, count: count)
    }

    deinit {
        // CompactEvent is plain values: nothing to deinitialize.
        base.deallocate()
    }

    /// The events `0..<count`, read in place.
    func events(_ count: Int) -> UnsafeBufferPointer<CompactEvent> { UnsafeBufferPointer(start: base, count: count) }
}
