#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, with `Synchronization.Mutex`'s `withLock`: the recorder's state shared by the
/// recorded loop, the writer thread and the program's `mark` calls.
///
/// Not `Mutex`: on Linux a contended `Mutex` hands over through code ThreadSanitizer does not see, so it reports
/// races that are not there (CONTRIBUTING, "Rules of the house"). A pthread mutex is intercepted by
/// ThreadSanitizer, and LoopRecorder depends on nothing of the engine's, so it cannot use `LoopLock`.
final class RecorderLocked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only reached inside `withLock`, and enters and leaves it `sending`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
