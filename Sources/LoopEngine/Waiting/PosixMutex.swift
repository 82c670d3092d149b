#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex made once on the heap, where it never moves (a `pthread_mutex_t` must not be copied), and
/// destroyed with its owner: the one place that sets one up, for the threads that wait on conditions
/// (``LoopThread``'s host, the virtual baton, the deadline thread) and for ``LoopLock`` off Linux.
final class PosixMutex: @unchecked Sendable {
    // @unchecked Sendable: the mutex itself is the synchronisation.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(pointer, nil)
        precondition(result == 0, "pthread_mutex_init failed (\(result))")
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(pointer) }
    @inline(__always) func unlock() { pthread_mutex_unlock(pointer) }

    @inline(__always) func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A pthread condition variable made once on the heap, waited on with a ``PosixMutex`` held.
final class PosixCondition: @unchecked Sendable {
    // @unchecked Sendable: it is only used with its mutex held.
    private let pointer: UnsafeMutablePointer<pthread_cond_t>

    /// A condition whose timed waits measure the wall clock (the pthread default).
    convenience init() { self.init(attributes: nil) }

    #if os(Linux)
    /// A condition whose timed waits measure `CLOCK_MONOTONIC`, the clock of real deadlines (not the wall clock,
    /// which may jump).
    static func monotonic() -> PosixCondition {
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        defer { pthread_condattr_destroy(&attributes) }
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        return PosixCondition(attributes: &attributes)
    }
    #endif

    private init(attributes: UnsafePointer<pthread_condattr_t>?) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: pthread_cond_t())
        let result = pthread_cond_init(pointer, attributes)
        precondition(result == 0, "pthread_cond_init failed (\(result))")
    }

    deinit {
        pthread_cond_destroy(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Releases `mutex` (held by the caller), waits to be signalled, and takes `mutex` again. It may return
    /// without a signal: wait in a loop on the state it guards.
    func wait(releasing mutex: PosixMutex) { pthread_cond_wait(pointer, mutex.pointer) }

    /// ``wait(releasing:)`` until the condition's clock reads `nanoseconds` at the latest; false when that time
    /// came first.
    @discardableResult
    func wait(releasing mutex: PosixMutex, until nanoseconds: Int64) -> Bool {
        var deadline = timespec(
            tv_sec: .init(nanoseconds / 1_000_000_000), tv_nsec: .init(nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(pointer, mutex.pointer, &deadline) != ETIMEDOUT
    }

    /// Wakes one waiter.
    func signal() { pthread_cond_signal(pointer) }

    /// Wakes every waiter.
    func broadcast() { pthread_cond_broadcast(pointer) }
}
