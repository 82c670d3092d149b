import CLoopKernel

/// A flag that threads read and write without a lock (a halt request, a "done" mark).
///
/// A class around one heap cell, so the cell never moves; the accesses are CLoopKernel's acquire/release atomics
/// (Swift's `Synchronization.Atomic` would need macOS 15).
///
/// Public only so that a waiter can hand its halt flag to the core (``LoopWaiter/haltFlag``): outside LoopEngine a
/// flag can be read, never made or set.
public final class AtomicFlag: @unchecked Sendable {
    // @unchecked Sendable: `cell` is only touched through atomic operations.
    private let cell: UnsafeMutablePointer<Int32>

    init(_ value: Bool = false) {
        cell = .allocate(capacity: 1)
        cell.initialize(to: value ? 1 : 0)
    }

    deinit {
        cell.deinitialize(count: 1)
        cell.deallocate()
    }

    package var value: Bool { lv_atomic_load_int(cell) != 0 }

    func set(_ value: Bool) { lv_atomic_store_int(cell, value ? 1 : 0) }

    /// Stores `value` and returns the previous one.
    func exchange(_ value: Bool) -> Bool { lv_atomic_exchange_int(cell, value ? 1 : 0) != 0 }
}

/// A counter that threads bump without a lock: statistics for tests, never used to synchronise.
final class AtomicCounter: @unchecked Sendable {
    // @unchecked Sendable: `cell` is only touched through atomic operations.
    private let cell: UnsafeMutablePointer<Int64>

    init() {
        cell = .allocate(capacity: 1)
        cell.initialize(to: 0)
    }

    deinit {
        cell.deinitialize(count: 1)
        cell.deallocate()
    }

    var value: Int { Int(lv_atomic_load_int64(cell)) }

    func increment() { _ = lv_atomic_add_int64(cell, 1) }

    /// Adds one and returns the new value.
    func next() -> Int64 { lv_atomic_add_int64(cell, 1) }
}
