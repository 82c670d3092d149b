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
    /// A deadline, then the order of scheduling: equal deadlines run in the order they were scheduled.
    private struct Order: Comparable {
        var deadline: Int64
        var id: UInt64

        static func < (a: Order, b: Order) -> Bool {
            a.deadline != b.deadline ? a.deadline < b.deadline : a.id < b.id
        }
    }

    static let shared = DeadlineThread()

    private let mutex = PosixMutex()
    /// Timed waits measure CLOCK_MONOTONIC, the clock the deadlines are on (not the wall clock).
    private let condition = PosixCondition.monotonic()
    /// By deadline, then by id; found by id to cancel (a heap: many loops with time limits cost O(log n) each).
    private var entries = IndexedHeap<UInt64, Order, @Sendable () -> Void>()
    private var nextID: UInt64 = 0

    private init() {
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
        mutex.lock()
        defer { mutex.unlock() }
        nextID &+= 1
        let id = nextID
        entries.set(id, key: Order(deadline: deadline, id: id), value: action)
        // Only a new earliest deadline changes how long the thread sleeps.
        if entries.min?.id == id { condition.signal() }
        return id
    }

    /// Forgets an action that has not started. One already running finishes, as a dispatch timer's handler does:
    /// the run it wakes may have ended, and a late wake-up is harmless (ignored, or one empty cycle).
    func cancel(_ id: UInt64) {
        mutex.withLock { _ = entries.remove(id) }
    }

    private func serve() -> Never {
        mutex.lock()
        while true {
            guard let first = entries.min else {
                condition.wait(releasing: mutex)
                continue
            }
            let due = first.key.deadline
            if lv_monotonic_ns() >= due {
                entries.popMin()
                // Never call out with the mutex held: the action takes an engine lock, under which loops cancel.
                mutex.unlock()
                first.value()
                mutex.lock()
                continue
            }
            condition.wait(releasing: mutex, until: due)
        }
    }
}
#endif
