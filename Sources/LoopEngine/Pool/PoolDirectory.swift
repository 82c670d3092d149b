/// The operations of one world's queues that have finished, and the queues waiting for others to finish: how a
/// dependency on an operation of another queue (Foundation's `addDependency` across queues) reaches its dependent.
/// One per scenario run, shared by all its ``OperationQueueCore``s.
///
/// An operation is known by its name, which is unique in a scenario (the parser refuses a second operation of one
/// name). A queue whose new operation waits for a name it does not have asks ``finishedOrWait(for:queue:)``: either
/// that operation already finished (cancelled ones too), or the queue is put on the name's list and told, by
/// ``OperationQueueCore/dependencyFinished(_:)``, when it finishes. A queue that finished operations publishes them
/// with ``publish(_:)`` after releasing its own lock.
///
/// Lock order: a queue's lock, then this directory's. The directory's lock is the innermost of the pool: nothing is
/// called while it is held, and ``publish(_:)`` tells the waiting queues after releasing it - so no queue ever
/// calls into another while holding a lock, and two queues finishing operations the other waits for cannot
/// deadlock.
final class PoolDirectory: @unchecked Sendable {
    // @unchecked Sendable: `finished` and `waiting` are guarded by `lock`.

    /// A queue on a waiting list: weak, so that a run's queues go away with it even if what they wait for never
    /// finishes.
    private struct Waiter {
        weak var queue: OperationQueueCore?
    }

    private let lock = LoopLock()
    /// Every operation published as finished.
    private var finished: Set<String> = []
    /// Per operation not finished yet, the queues that wait for it (each once).
    private var waiting: [String: [Waiter]] = [:]

    init() {}

    /// True when the operation `name` has finished; otherwise `queue` is told when it does. Atomic: an operation
    /// published at the same time is either seen finished here or told to `queue` afterwards.
    func finishedOrWait(for name: String, queue: OperationQueueCore) -> Bool {
        lock.withLock {
            if finished.contains(name) { return true }
            var list = waiting[name, default: []]
            if !list.contains(where: { $0.queue === queue }) { list.append(Waiter(queue: queue)) }
            waiting[name] = list
            return false
        }
    }

    /// Records `names` as finished and tells each queue waiting for one of them, in the order they began waiting.
    /// Call it without holding any queue's lock.
    func publish(_ names: [String]) {
        let toTell: [(OperationQueueCore, String)] = lock.withLock {
            var toTell: [(OperationQueueCore, String)] = []
            for name in names where finished.insert(name).inserted {
                for waiter in waiting.removeValue(forKey: name) ?? [] {
                    if let queue = waiter.queue { toTell.append((queue, name)) }
                }
            }
            return toTell
        }
        for (queue, name) in toTell { queue.dependencyFinished(name) }
    }
}
