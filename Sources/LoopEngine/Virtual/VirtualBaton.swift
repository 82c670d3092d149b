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
    private let mutex = PosixMutex()
    /// The condition that thread `index` waits on, made when it first waits (nil: that thread never waited).
    private var conditions: [PosixCondition?] = []
    /// The condition ``awaitFinish()`` waits on.
    private let condition = PosixCondition()
    private var holder: Int?
    private var finished = false
    /// Hand-overs, and returns from a wait on a thread's condition (test hooks: each hand-over wakes one thread).
    private var passes = 0
    private var wakeUps = 0

    /// A baton held by thread `holder` from the start (the thread that starts the world).
    init(holder: Int) {
        self.holder = holder
    }

    /// Gives the baton to `thread`. The caller must hold it, and must not touch engine state afterwards until it
    /// has the baton again (``await(_:)``).
    func pass(to thread: Int) {
        mutex.lock()
        holder = thread
        passes += 1
        // Only the new holder wakes; one that has not waited yet finds `holder` set when it does.
        if thread < conditions.count, let waiting = conditions[thread] { waiting.signal() }
        mutex.unlock()
    }

    /// Blocks the calling OS thread until the baton is handed to `thread`.
    func await(_ thread: Int) {
        mutex.lock()
        if holder != thread {
            let own = ownCondition(thread)
            while holder != thread {
                own.wait(releasing: mutex)
                wakeUps += 1
            }
        }
        mutex.unlock()
    }

    /// Retires the baton: every virtual thread has ended. Called by the last holder.
    func finish() {
        mutex.lock()
        holder = nil
        finished = true
        condition.broadcast()
        mutex.unlock()
    }

    /// Thread `thread`'s condition, made on first use; called with `mutex` held.
    private func ownCondition(_ thread: Int) -> PosixCondition {
        if thread >= conditions.count { conditions += Array(repeating: nil, count: thread + 1 - conditions.count) }
        if let existing = conditions[thread] { return existing }
        let made = PosixCondition()
        conditions[thread] = made
        return made
    }

    /// ``passes`` and ``wakeUps``, read under the mutex.
    var counts: (passes: Int, wakeUps: Int) {
        mutex.withLock { (passes, wakeUps) }
    }

    /// Blocks until ``finish()``: the thread that started the world waits here for the others to end.
    func awaitFinish() {
        mutex.lock()
        while !finished { condition.wait(releasing: mutex) }
        mutex.unlock()
    }
}
