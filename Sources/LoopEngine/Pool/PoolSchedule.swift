/// An operation queue's scheduling rules as a plain value: which operations are ready and in which order they
/// start, which wait for which, and how many may execute at once. No threads, no clock, no events - so the rules
/// are testable on their own (`PoolScheduleTests`). ``OperationQueueCore`` keeps one under its lock, asks it what
/// to start next, and emits the events for what it reports.
///
/// An operation is known by its name (unique in a scenario). It is pending while a dependency has not finished,
/// then ready; the queue starts the ready one of the highest `queuePriority` first, the first added first within a
/// level (whenever each became ready), while fewer than the limit execute and the queue is not suspended.
struct PoolSchedule: Sendable {
    /// An operation as the rules see it.
    struct Entry: Equatable, Sendable {
        let name: String
        /// Its add order on the queue: first added, first started within a priority level.
        let sequence: Int
        let priority: QueuePriority
    }

    /// `maxConcurrentOperationCount` (nil: the default width).
    var limit: Int?
    /// The width of the default limit (at least 1).
    let defaultWidth: Int
    /// `isSuspended`: a suspended queue starts nothing; what executes goes on.
    var isSuspended: Bool
    /// Operations handed to a worker and not finished: they count against the limit.
    private(set) var executing = 0
    /// Ready operations not started yet, per priority level (index 0 = veryHigh), each in add order.
    private var readyLevels: [[Entry]] = Array(repeating: [], count: QueuePriority.allCases.count)
    /// Pending operations and the dependencies each still waits for.
    private var waiting: [String: (entry: Entry, on: Set<String>)] = [:]
    /// Per dependency not finished, the pending operations waiting for it, in add order.
    private var dependents: [String: [String]] = [:]

    init(limit: Int?, defaultWidth: Int, suspended: Bool) {
        self.limit = limit
        self.defaultWidth = max(defaultWidth, 1)
        isSuspended = suspended
    }

    /// How many operations may execute at once now (a negative limit allows none).
    var width: Int { limit.map { max($0, 0) } ?? defaultWidth }

    /// The ready operations in the order they would start.
    var readyInOrder: [String] { readyLevels.flatMap { $0.map(\.name) } }

    /// True while `name` waits for a dependency.
    func isPending(_ name: String) -> Bool { waiting[name] != nil }

    /// Adds an operation that waits for `unfinished` (its dependencies not finished yet); true when it is ready at
    /// once.
    mutating func add(_ entry: Entry, waitingFor unfinished: Set<String>) -> Bool {
        guard !unfinished.isEmpty else {
            makeReady(entry)
            return true
        }
        waiting[entry.name] = (entry, unfinished)
        for dependency in unfinished.sorted() { dependents[dependency, default: []].append(entry.name) }
        return false
    }

    /// A pending operation is cancelled: it stops waiting and is ready at once (Foundation still starts it, so that
    /// it sees the flag and finishes). True when it was pending; a ready one keeps its place.
    mutating func cancelPending(_ name: String) -> Bool {
        guard let pending = waiting.removeValue(forKey: name) else { return false }
        makeReady(pending.entry)
        return true
    }

    /// `dependency` has finished: each operation still pending on it stops waiting for it. Returns those for which
    /// it was the last, now ready, in the order they began waiting for it.
    mutating func dependencyFinished(_ dependency: String) -> [String] {
        var readied: [String] = []
        for name in dependents.removeValue(forKey: dependency) ?? [] {
            guard var pending = waiting[name] else { continue }  // cancelled meanwhile: ready already
            pending.on.remove(dependency)
            if pending.on.isEmpty {
                waiting[name] = nil
                makeReady(pending.entry)
                readied.append(name)
            } else {
                waiting[name] = pending
            }
        }
        return readied
    }

    /// The operation to start now, if the queue may start one: not suspended, under the limit, and one ready.
    var next: Entry? {
        guard !isSuspended, executing < width else { return nil }
        return readyLevels.first { !$0.isEmpty }?.first
    }

    /// `entry` (ready) is handed to a worker: it leaves the ready list and counts against the limit.
    mutating func start(_ entry: Entry) {
        let level = Self.level(entry.priority)
        readyLevels[level].removeAll { $0.name == entry.name }
        executing += 1
    }

    /// An operation handed to a worker has finished: it no longer counts against the limit.
    mutating func finishExecuting() {
        precondition(executing > 0, "an operation finished that was not executing")
        executing -= 1
    }

    private mutating func makeReady(_ entry: Entry) {
        let level = Self.level(entry.priority)
        let index = readyLevels[level].firstIndex { $0.sequence > entry.sequence } ?? readyLevels[level].endIndex
        readyLevels[level].insert(entry, at: index)
    }

    /// The index of a priority's list: the highest level first.
    private static func level(_ priority: QueuePriority) -> Int {
        QueuePriority.allCases.count - 1 - QueuePriority.allCases.firstIndex(of: priority)!
    }
}
