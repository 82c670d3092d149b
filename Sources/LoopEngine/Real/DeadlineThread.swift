#if os(Linux)
import CLoopKernel
import Glibc

/// The thread that runs actions at deadlines for ``EpollWaiter/schedule(at:_:)``: how a real run is woken at its
/// time limit. CF uses a libdispatch timer whose handler calls `CFRunLoopWakeUp`; this is the smallest thing that
/// behaves the same way: another thread, a `CLOCK_MONOTONIC` deadline, the action called without any lock held.
///
/// One thread serves the whole process and lives as long as it. A thread per backend would have to be joined when
/// its backend goes away, and the last reference to a backend can be dropped by an action running on that very
/// thread.
final class DeadlineThread: @unchecked Sendable {
    // @unchecked Sendable: `entries` and `nextID` are only touched with `mutex` held.
    private struct Entry {
        var deadline: Int64
        var id: UInt64
        var action: @Sendable () -> Void
    }

    static let shared = DeadlineThread()

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Sorted by deadline, then by id: equal deadlines run in the order they were scheduled.
    private var entries: [Entry] = []
    private var nextID: UInt64 = 0

    private init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure CLOCK_MONOTONIC, the clock the deadlines are on (not the wall clock).
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        var handle = pthread_t()
        let result = pthread_create(
            &handle, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<DeadlineThread>.fromOpaque(argument).takeUnretainedValue().serve()
            }, Unmanaged.passRetained(self).toOpaque())
        precondition(result == 0, "pthread_create failed for the deadline thread (\(result))")
        pthread_detach(handle)
    }

    /// Runs `action` on the deadline thread once `CLOCK_MONOTONIC` reaches `deadline` (nanoseconds).
    func schedule(atMonotonic deadline: Int64, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        nextID &+= 1
        let entry = Entry(deadline: deadline, id: nextID, action: action)
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert(entry, at: index)
        // Only a new earliest deadline changes how long the thread sleeps.
        if index == 0 { pthread_cond_signal(condition) }
        return entry.id
    }

    /// Forgets an action that has not started. One already running finishes, as a dispatch timer's handler does:
    /// the run it wakes may have ended, and a late wake-up is harmless (ignored, or one empty cycle).
    func cancel(_ id: UInt64) {
        pthread_mutex_lock(mutex)
        entries.removeAll { $0.id == id }
        pthread_mutex_unlock(mutex)
    }

    private func serve() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            guard let first = entries.first else {
                pthread_cond_wait(condition, mutex)
                continue
            }
            if lv_monotonic_ns() >= first.deadline {
                entries.removeFirst()
                // Never call out with the mutex held: the action takes an engine lock, under which loops cancel.
                pthread_mutex_unlock(mutex)
                first.action()
                pthread_mutex_lock(mutex)
                continue
            }
            var deadline = timespec(
                tv_sec: Int(first.deadline / 1_000_000_000), tv_nsec: Int(first.deadline % 1_000_000_000))
            pthread_cond_timedwait(condition, mutex, &deadline)
        }
    }
}
#endif
