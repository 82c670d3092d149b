#if os(Linux)
import CLoopKernel
#endif

/// The engine's mutex. The engine holds it while it changes loop state and releases it around every callout and
/// every wait, as CFRunLoop does, so callouts may call back into the loop (or run it again).
///
/// On Linux it is a futex word (`lv_lock_acquire`): uncontended, a lock and an unlock are one atomic instruction
/// each, inlined, where a pthread mutex costs two library calls of some thirty instructions each. The engine takes
/// it about twice per callout, so on a loop with observers that is a visible share of an iteration. Elsewhere it
/// is a pthread mutex.
public final class LoopLock: @unchecked Sendable {
    // @unchecked Sendable: the lock itself is the synchronisation.
    #if os(Linux)
    private let word: UnsafeMutablePointer<Int32>

    /// An unlocked lock.
    public init() {
        word = .allocate(capacity: 1)
        word.initialize(to: 0)
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Takes the lock, waiting for it if another thread holds it. Not recursive.
    @inline(__always) public func lock() { lv_lock_acquire(word) }
    /// Releases the lock, which the calling thread holds.
    @inline(__always) public func unlock() { lv_lock_release(word) }
    #else
    private let mutex = PosixMutex()

    /// An unlocked lock.
    public init() {}

    /// Takes the lock, waiting for it if another thread holds it. Not recursive.
    @inline(__always) public func lock() { mutex.lock() }
    /// Releases the lock, which the calling thread holds.
    @inline(__always) public func unlock() { mutex.unlock() }
    #endif

    /// Runs `body` with the lock held.
    @inline(__always) public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
