import CLoopKernel

/// The engine lock that guards an item (source, timer, observer): the lock of the backend of the first loop the
/// item was added to, for the rest of the item's life.
///
/// Why it exists: other threads signal, send to, invalidate and reschedule items while the loop runs, so they
/// must find the item's lock *before* they hold any lock. Reading a plain field (or the item's weak `loop`) for
/// that would race with the add that sets it. The binding is set once and read with an atomic load, so a reader
/// sees either "unbound" or the one lock it will ever be bound to.
///
/// Before its first add an item belongs to no backend; its state is then guarded by one process-wide lock
/// (``unboundLock``). Binding also takes that lock, so whatever a thread did to the unbound item happens-before
/// anything done under the engine lock afterwards. Nothing holding ``unboundLock`` ever takes an engine lock (an
/// unbound item has no loop to call), which keeps the lock order engine lock → unbound lock free of cycles.
final class EngineBinding: @unchecked Sendable {
    // @unchecked Sendable: `cell` is only read and written through CLoopKernel's atomic helpers, and it changes
    // at most once (nil → a retained lock), under `unboundLock`.
    private let cell: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// Guards every item that has not been added to a loop yet.
    static let unboundLock = LoopLock()

    /// An item that belongs to no backend yet.
    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: nil)
    }

    /// An item born on a backend (a version-1 source, whose port is that backend's).
    init(boundTo lock: LoopLock) {
        cell = .allocate(capacity: 1)
        cell.initialize(to: Unmanaged.passRetained(lock).toOpaque())
    }

    deinit {
        if let raw = cell.pointee { Unmanaged<LoopLock>.fromOpaque(raw).release() }
        cell.deinitialize(count: 1)
        cell.deallocate()
    }

    /// The engine lock the item is bound to, or nil before its first add.
    var lock: LoopLock? {
        guard let raw = lv_atomic_load_pointer(cell) else { return nil }
        // The cell keeps its retain until the binding dies, and a binding never changes once set.
        return Unmanaged<LoopLock>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Binds the item to `lock` unless it is bound already. Returns true when the item is (now) guarded by
    /// `lock`; false when it belongs to another backend, whose loops alone may hold it. Call with `lock` held.
    func bind(_ lock: LoopLock) -> Bool {
        if let current = self.lock { return current === lock }
        return Self.unboundLock.withLock {
            let raw = Unmanaged.passRetained(lock).toOpaque()
            if lv_atomic_compare_exchange_pointer(cell, nil, raw) != 0 { return true }
            Unmanaged<LoopLock>.fromOpaque(raw).release()
            return self.lock === lock
        }
    }

    /// Runs `body` with the item's lock held: its engine lock, or ``unboundLock`` while it has none.
    func withLock<T>(_ body: () -> T) -> T {
        if let lock { return lock.withLock(body) }
        Self.unboundLock.lock()
        if let lock {
            // Bound meanwhile: from now on only the engine lock guards the item.
            Self.unboundLock.unlock()
            return lock.withLock(body)
        }
        defer { Self.unboundLock.unlock() }
        return body()
    }
}
