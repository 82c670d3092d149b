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
    /// Dependencies not finished yet.
    var waitingFor: Set<String>

    init(spec: OperationSpec, sequence: Int, waitingFor: Set<String>) {
        self.spec = spec
        self.sequence = sequence
        self.waitingFor = waitingFor
    }

    var name: String { spec.name }
}

/// A worker thread of a pool: its own loop, kept alive by a port while it waits for work.
final class PoolWorker {
    let name: String
    let loop: RunLoopCore
    /// The port nobody writes, which keeps the worker's loop from returning when it has nothing to do.
    let keepAlive: LoopSource
    /// The operation handed to it, if any.
    var operation: PoolOperation?
    /// Retired: its loop is ending and nothing may be handed to it.
    var retired = false
    /// Armed while it is idle: fires after the queue's idle timeout and retires it.
    var idleTimer: LoopTimer?
    /// Operations it has started (the first was the reason it was created).
    var operationsRun = 0

    init(name: String, loop: RunLoopCore, keepAlive: LoopSource) {
        self.name = name
        self.loop = loop
        self.keepAlive = keepAlive
    }
}
