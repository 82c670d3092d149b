/// `NSOperationQueuePriority`: higher ready operations start first; within a level, the first added starts first.
public enum QueuePriority: Int, Sendable, Equatable, Comparable, CaseIterable, CustomStringConvertible {
    /// `NSOperationQueuePriorityVeryLow`.
    case veryLow = -8
    /// `NSOperationQueuePriorityLow`.
    case low = -4
    /// `NSOperationQueuePriorityNormal`, an operation's default.
    case normal = 0
    /// `NSOperationQueuePriorityHigh`.
    case high = 4
    /// `NSOperationQueuePriorityVeryHigh`.
    case veryHigh = 8

    public static func < (lhs: QueuePriority, rhs: QueuePriority) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The scenario language's word for it (`priority veryHigh`).
    public var description: String {
        switch self {
        case .veryLow: "veryLow"
        case .low: "low"
        case .normal: "normal"
        case .high: "high"
        case .veryHigh: "veryHigh"
        }
    }

    /// The level a raw `queuePriority` value belongs to. Foundation files any other value under the nearest level
    /// at or below it (−6 is `low`), clamping to `veryLow`/`veryHigh`.
    package init(normalizing value: Int) {
        self = Self.allCases.last { $0.rawValue <= value } ?? .veryLow
    }
}

/// An operation queue of a scenario (`NSOperationQueue`), with its workers' idle timeout.
public struct QueueSpec: Sendable, Equatable {
    package var name: String
    /// `maxConcurrentOperationCount`; nil is `NSOperationQueueDefaultMaxConcurrentOperationCount` (the system
    /// decides: see `OperationQueueCore.virtualDefaultWidth`, or the core count on real threads).
    package var limit: Int?
    /// Created suspended (`isSuspended = true`): nothing starts until a `resume`.
    package var suspended: Bool
    /// How long a worker thread stays idle before it is retired (libdispatch keeps an idle worker a few seconds).
    package var idleTimeout: Duration
    /// A dispatch queue (`DispatchQueue`) rather than an operation queue: it takes `async` blocks and work items,
    /// not operations. A serial one has `limit` 1, a concurrent one the default width.
    package var dispatch: DispatchQueueKind?

    package init(
        name: String, limit: Int? = nil, suspended: Bool = false, idleTimeout: Duration = .seconds(5),
        dispatch: DispatchQueueKind? = nil
    ) {
        self.name = name
        self.limit = limit
        self.suspended = suspended
        self.idleTimeout = idleTimeout
        self.dispatch = dispatch
    }
}

/// One operation added to a queue.
public struct OperationSpec: Sendable, Equatable {
    /// What the operation does once started.
    public enum Body: Sendable, Hashable {
        /// A synchronous operation: works for `duration`, looking at `isCancelled` every `checkEvery` (nil: never,
        /// so a cancel while it runs changes nothing but the flag).
        case work(Duration, checkEvery: Duration?)
        /// An asynchronous operation (the upload): `start` hands a "socket" to the worker's run loop and the
        /// operation stays executing, the worker's loop kept alive by that port, until a message on it (the
        /// `finish` action, or a cancel) finishes the operation.
        case async
    }

    package var name: String
    package var priority: QueuePriority
    /// Names of operations that must finish (or be cancelled) before this one is ready.
    package var dependencies: [String]
    package var body: Body
    /// For an asynchronous operation: the server's answer - a message on its socket - arrives this long after the
    /// operation started (nil: only a `finish` action or a cancel finishes it).
    package var replyAfter: Duration?
    /// Submitted to a dispatch queue with `async` rather than added as an operation: a plain block or a
    /// `DispatchWorkItem` (nil: an `Operation`).
    package var submission: DispatchSubmission.Kind?

    package init(
        name: String, priority: QueuePriority = .normal, dependencies: [String] = [],
        body: Body = .work(.zero, checkEvery: nil), replyAfter: Duration? = nil,
        submission: DispatchSubmission.Kind? = nil
    ) {
        self.name = name
        self.priority = priority
        self.dependencies = dependencies
        self.body = body
        self.replyAfter = replyAfter
        self.submission = submission
    }
}
