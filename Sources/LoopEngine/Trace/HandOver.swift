/// Work one thread handed to another thread's loop: the typed link between what a thread did (a perform, a
/// signal, a send, a block, a main-queue job) and the callout it causes on the other loop, for the exports'
/// flow arrows.
///
/// It is kept beside the trace, not in its events: the events say what the loop saw, the same on the engine and
/// on the real CFRunLoop (whose traces do not know the sender), and their text is unchanged. Only a backend that
/// knows which of its threads is calling records one (``LoopWaiter/caller``: the virtual clock's world);
/// an outside event (a poke, a scenario's `at` line) comes from no thread. Every hand-over the backend sees is
/// kept, a thread's work for its own loop and an outside event's too, so that a callout is matched to the right
/// one of several queued under one name; only those from another thread draw an arrow.
package struct HandOver: Hashable, Sendable {
    /// What was handed over, by the name the callout it causes will carry.
    package enum What: Hashable, Sendable {
        /// `performSelector:onThread:` of task `name`: ends at that task's `perform` callout.
        case perform(String)
        /// `CFRunLoopSourceSignal` of version-0 source `name`: ends at its next `source0` callout.
        case signal(String)
        /// A message to the port of version-1 source `name`: ends at the `source1` callout that consumes it.
        case send(String)
        /// `CFRunLoopPerformBlock` of block `name`: ends at its `block` callout.
        case block(String)
        /// `DispatchQueue.main.async` of job `name`: ends at its `mainQueue` callout.
        case mainQueue(String)
    }

    package var what: What
    /// The thread that handed the work over; nil for an outside event.
    package var from: String?
    /// The loop it was handed to.
    package var to: String
    /// How many events the trace held when it happened: a signal, send or block hand-over is the event at this
    /// index (it is noted right before that event); a perform or a main-queue job, which the target's trace
    /// shows by no event of its own, comes before it.
    package var position: Int
    package var time: LoopInstant

    package init(_ what: What, from: String?, to: String, position: Int, time: LoopInstant) {
        self.what = what
        self.from = from
        self.to = to
        self.position = position
        self.time = time
    }

    /// True when the work came from another thread than the loop's own: the hand-overs an arrow shows.
    package var crossesThreads: Bool { from.map { $0 != to } ?? false }
}
