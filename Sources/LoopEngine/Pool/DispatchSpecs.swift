/// A dispatch queue of a scenario (`DispatchQueue(label:attributes:)`): serial by default, as libdispatch's are.
public enum DispatchQueueKind: String, Sendable, Equatable, CaseIterable {
    /// One block at a time, in submission order (`limit` 1 in the pool model).
    case serial
    /// `attributes: .concurrent`: blocks start in submission order, several at once (the default width).
    case concurrent
}

/// What `async` put on a dispatch queue: the engine runs it as an operation of the queue without dependencies or
/// priority, and this says what the caller holds afterwards - which decides what cancelling it can mean.
public struct DispatchSubmission: Hashable, Sendable {
    /// How the block was submitted, which decides what the caller can cancel.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// `queue.async { … }` (`dispatch_async`): it returns nothing, so the caller has no handle to cancel the
        /// block with - the reason the thread-pool article gives for not using GCD.
        case block
        /// `queue.async(execute: item)` with a `DispatchWorkItem`: `item.cancel()` before the queue reaches it
        /// makes the queue skip its block; once the block runs, `cancel()` only sets `isCancelled`.
        case workItem
    }

    /// How it was submitted.
    public var kind: Kind
    /// How long its block works once it runs.
    public var work: Duration

    package init(kind: Kind, work: Duration) {
        self.kind = kind
        self.work = work
    }
}
