#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets one real-time or CPU-heavy test run at a time.
///
/// Swift Testing runs suites in parallel. The differential tests time the real CFRunLoop against the engine, and a
/// 2-core machine busy with the stress test or a benchmark makes CF's own helper threads late enough to change what
/// it does (three wake-ups no longer coalesce, an outside event lands after a deadline). Tests that measure real
/// time, or load every core, take this gate; everything else still runs in parallel.
public enum RealTimeGate {
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        return mutex
    }()

    /// Runs `body` while no other gated test runs.
    public static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
