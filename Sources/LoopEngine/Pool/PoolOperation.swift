/// One operation of an ``OperationQueueCore``: its spec and where it is in its lifecycle. Guarded by its queue's
/// lock.
final class PoolOperation {
    /// `isReady`/`isExecuting`/`isFinished`, plus `pending` for an operation whose dependencies have not all
    /// finished.
    enum State: Equatable {
        case pending
        case ready
        /// Handed to a worker (counted against the limit); `started` says whether the worker has begun it.
        case executing
        case finished
    }

    /// How an operation ended.
    enum Outcome: Equatable {
        /// It ran to its end (`cancelled` may still be set, by a cancel no check point saw).
        case done
        /// Cancelled before a worker started it: it never ran.
        case cancelledBeforeStart
        /// It saw `isCancelled` at a check point (or, asynchronous, got the cancel callback) and finished early.
        case cancelledWhileRunning
    }

    let spec: OperationSpec
    /// Add order on its queue: FIFO within a priority level.
    let sequence: Int
    var state: State = .pending
    var isCancelled = false
    var started = false
    var worker: PoolWorker?
    /// The asynchronous operation's "socket": a port source added to its worker's loop while it runs.
    var socket: LoopSource?
    /// The server's reply scheduled at the start (`replyAfter`), cancelled when the operation finishes first.
    var reply: ScheduledAction?

    init(spec: OperationSpec, sequence: Int) {
        self.spec = spec
        self.sequence = sequence
    }

    var name: String { spec.name }

    /// The operation as the queue's ``PoolSchedule`` sees it.
    var entry: PoolSchedule.Entry { PoolSchedule.Entry(name: spec.name, sequence: sequence, priority: spec.priority) }
}
