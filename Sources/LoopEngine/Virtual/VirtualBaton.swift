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
/// agrees).
final class VirtualBaton: @unchecked Sendable {
    // @unchecked Sendable: `holder` and `finished` are only touched with `mutex` held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var holder: Int?
    private var finished = false

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
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Gives the baton to `thread`. The caller must hold it, and must not touch engine state afterwards until it
    /// has the baton again (``await(_:)``).
    func pass(to thread: Int) {
        pthread_mutex_lock(mutex)
        holder = thread
        // Broadcast: one condition serves every thread, and only the new holder's predicate is true.
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the calling OS thread until the baton is handed to `thread`.
    func await(_ thread: Int) {
        pthread_mutex_lock(mutex)
        while holder != thread { pthread_cond_wait(condition, mutex) }
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

    /// Blocks until ``finish()``: the thread that started the world waits here for the others to end.
    func awaitFinish() {
        pthread_mutex_lock(mutex)
        while !finished { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
