#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The token that lets exactly one virtual thread run at a time.
///
/// Every virtual thread of a ``VirtualWorld`` has its own OS thread (its loop's stack must survive while the
/// others run), but only the holder of the baton executes: all engine state is then touched by one OS thread at
/// a time, and the order in which threads run is decided by the world, never by the OS scheduler. Handing the
/// baton over goes through this mutex and condition variable, which gives the next holder a happens-before edge
/// to everything the previous holder wrote, so the engine state needs no further locking (and ThreadSanitizer
/// agrees). Each thread waits on a condition variable of its own, so a hand-over wakes only the new holder: with
/// one shared condition every hand-over woke every waiting OS thread, which made a pool of N workers cost N
/// context switches per hand-over (a 1,000-worker queue took 23 s).
final class VirtualBaton: @unchecked Sendable {
    // @unchecked Sendable: `holder`, `finished` and `conditions` are only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The condition that thread `index` waits on, made when it first waits (nil: that thread never waited).
    private var conditions: [UnsafeMutablePointer<pthread_cond_t>?] = []
    /// The condition ``awaitFinish()`` waits on.
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var holder: Int?
    private var finished = false
    /// Hand-overs, and returns from a wait on a thread's condition (test hooks: each hand-over wakes one thread).
    private var passes = 0
    private var wakeUps = 0

    /// A baton held by thread `holder` from the start (the thread that starts the world).
    init(holder: Int) {
        self.holder = holder
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        for condition in conditions.compactMap({ $0 }) + [condition] {
            pthread_cond_destroy(condition)
            condition.deinitialize(count: 1)
            condition.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Gives the baton to `thread`. The caller must hold it, and must not touch engine state afterwards until it
    /// has the baton again (``await(_:)``).
    func pass(to thread: Int) {
        pthread_mutex_lock(mutex)
        holder = thread
        passes += 1
        // Only the new holder wakes; one that has not waited yet finds `holder` set when it does.
        if thread < conditions.count, let waiting = conditions[thread] { pthread_cond_signal(waiting) }
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the calling OS thread until the baton is handed to `thread`.
    func await(_ thread: Int) {
        pthread_mutex_lock(mutex)
        if holder != thread {
            let own = ownCondition(thread)
            while holder != thread {
                pthread_cond_wait(own, mutex)
                wakeUps += 1
            }
        }
        pthread_mutex_unlock(mutex)
    }

    /// Retires the baton: every virtual thread has ended. Called by the last holder.
    func finish() {
        pthread_mutex_lock(mutex)
        holder = nil
        finished = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Thread `thread`'s condition, made on first use; called with `mutex` held.
    private func ownCondition(_ thread: Int) -> UnsafeMutablePointer<pthread_cond_t> {
        if thread >= conditions.count { conditions += Array(repeating: nil, count: thread + 1 - conditions.count) }
        if let existing = conditions[thread] { return existing }
        let made = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        made.initialize(to: pthread_cond_t())
        pthread_cond_init(made, nil)
        conditions[thread] = made
        return made
    }

    /// ``passes`` and ``wakeUps``, read under the mutex.
    var counts: (passes: Int, wakeUps: Int) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (passes, wakeUps)
    }

    /// Blocks until ``finish()``: the thread that started the world waits here for the others to end.
    func awaitFinish() {
        pthread_mutex_lock(mutex)
        while !finished { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
