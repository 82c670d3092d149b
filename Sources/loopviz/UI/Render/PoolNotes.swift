import LoopEngine

/// The pool view's notes: what a waiting operation waits for, and what the queue is doing. Chosen from the pool
/// snapshot's state (typed, folded from the events' facts), worded only here.
enum PoolNote: Equatable {
    /// An operation cancelled while it waited: it keeps its place and finishes when the queue starts it.
    case cancelledWaitsItsTurn
    /// Every dependency has finished: it starts when a slot is free.
    case ready
    /// Not ready, and no dependency is left unfinished (its ready event is still to come).
    case pending
    /// Waiting for these dependencies to finish.
    case after([String])
    /// The queue is suspended.
    case suspended
    /// A thread blocks in `waitUntilAllOperationsAreFinished`.
    case waitingForAll
    /// The queue's idle timeout for its workers.
    case idleTimeout(Duration)

    /// The kinds of note, for the table test's exhaustive check.
    enum Kind: CaseIterable { case cancelledWaitsItsTurn, ready, pending, after, suspended, waitingForAll, idleTimeout }

    var kind: Kind {
        switch self {
        case .cancelledWaitsItsTurn: .cancelledWaitsItsTurn
        case .ready: .ready
        case .pending: .pending
        case .after: .after
        case .suspended: .suspended
        case .waitingForAll: .waitingForAll
        case .idleTimeout: .idleTimeout
        }
    }

    var text: String {
        switch self {
        case .cancelledWaitsItsTurn: "cancelled, waits its turn"
        case .ready: "ready"
        case .pending: "pending"
        case .after(let names): "after " + names.joined(separator: ", ")
        case .suspended: "SUSPENDED: nothing new starts"
        case .waitingForAll: "a thread waits for all to finish"
        case .idleTimeout(let timeout): "idle timeout \(LoopInstant.zero + timeout)s"
        }
    }

    /// What a waiting `operation` of `pool` waits for.
    static func waiting(_ operation: PoolSnapshot.Operation, in pool: PoolSnapshot) -> PoolNote {
        if operation.cancelRequested { return .cancelledWaitsItsTurn }
        if operation.state == .ready { return .ready }
        // Dependencies not finished yet, on this queue or another.
        let left = operation.dependencies.filter { pool.operation(named: $0)?.state != .finished }
        return left.isEmpty ? .pending : .after(left)
    }

    /// What the counters panel says about `queue` below its counts.
    static func queue(_ queue: PoolSnapshot.Queue) -> PoolNote {
        if queue.suspended { return .suspended }
        if queue.waitingForAll { return .waitingForAll }
        return .idleTimeout(queue.idleTimeout)
    }
}
