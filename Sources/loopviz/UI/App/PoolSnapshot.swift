import LoopEngine

/// What every operation queue (thread pool) looks like after a prefix of the trace: what the pool view draws.
/// Folded from the pool events alone, like ``LoopSnapshot``, so stepping back and forth shows exactly what the
/// engine did.
struct PoolSnapshot: Equatable {
    /// The width of a queue whose limit is the default, on the virtual clock.
    static let defaultWidth = ScenarioRunner.defaultQueueWidth

    struct Operation: Equatable {
        enum State: String, Equatable {
            /// Added, waiting for a dependency.
            case pending
            /// Every dependency finished: waits for a free slot.
            case ready
            case executing
            /// Done, or cancelled (see `cancelled`).
            case finished
        }

        var name: String
        var priority: QueuePriority
        var dependencies: [String]
        /// What it does, in the trace's words (`async`, `work 1.000s check every 0.100s`).
        var body: String
        var state: State = .pending
        /// `cancel()` reached it (a cancel of a finished operation does not count).
        var cancelRequested = false
        /// It ended cancelled (before it started, or at a check point while running).
        var cancelled = false
        /// The worker it runs or ran on.
        var worker: String?
        var addedAt: LoopInstant
        var startedAt: LoopInstant?
        var finishedAt: LoopInstant?
        /// How it finished.
        var outcome: LoopEvent.FinishOutcome?
        /// The character that stands for it in the worker lanes (unique within its queue).
        var symbol: Character = "?"
        /// On a dispatch queue, how it was submitted (a plain block or a work item); nil for an operation.
        var submission: DispatchSubmission.Kind?

        var isWaiting: Bool { state == .pending || state == .ready }
    }

    /// A thread of the pool (or a detached thread, which has no queue).
    struct Worker: Equatable {
        /// One operation that ran on it: from its start to its finish (nil: still running).
        struct Run: Equatable {
            var operation: String
            var start: LoopInstant
            var end: LoopInstant?
        }

        var name: String
        var createdAt: LoopInstant
        var retiredAt: LoopInstant?
        var runs: [Run] = []
        /// Why it ended.
        var end: LoopEvent.ThreadEnd?

        var operationsRun: Int { runs.count }
        var current: String? { runs.last.flatMap { $0.end == nil ? $0.operation : nil } }
        var isRetired: Bool { retiredAt != nil }
    }

    struct Counters: Equatable {
        var threadsCreated = 0
        var threadsReused = 0
        var threadsRetired = 0
        var executing = 0
        var maxExecuting = 0
        var finished = 0
        var cancelled = 0
    }

    struct Queue: Equatable {
        var name: String
        /// `maxConcurrentOperationCount`; nil is the default.
        var limit: Int?
        var suspended: Bool
        var idleTimeout: Duration
        /// How many execute at once when the limit is the default: the virtual machine's cores, or on real threads
        /// this machine's.
        var defaultWidth = PoolSnapshot.defaultWidth
        /// In add order.
        var operations: [Operation] = []
        /// Every worker it ever had, in creation order.
        var workers: [Worker] = []
        var counters = Counters()
        /// A thread is blocked in `waitUntilAllOperationsAreFinished` (until the queue drains).
        var waitingForAll = false
        /// A dispatch queue: blocks in submission order, no priorities or dependencies; nil for an operation queue.
        var dispatch: DispatchQueueKind?
        /// What one piece of its work is called on screen.
        var workNoun: String { dispatch == nil ? "operation" : "block" }

        var width: Int { limit.map { max($0, 0) } ?? defaultWidth }
        var limitText: String {
            (limit.map { .count($0) } ?? LoopEvent.QueueLimit.automatic(width: defaultWidth)).words
        }

        func operation(named name: String) -> Operation? { operations.first { $0.name == name } }

        /// Operations waiting in the queue at `priority`, in add order.
        func waiting(at priority: QueuePriority) -> [Operation] {
            operations.filter { $0.isWaiting && $0.priority == priority }
        }

        /// Operations waiting in the queue, in add order (a dispatch queue's one line).
        var waiting: [Operation] { operations.filter(\.isWaiting) }

        /// Executing operations, in the order they started.
        var executing: [Operation] {
            operations.filter { $0.state == .executing }.sorted { ($0.startedAt ?? .zero) < ($1.startedAt ?? .zero) }
        }

        /// The operations the selection cursor moves through, in the order the queue panel lists them:
        /// executing first, then waiting ones by priority (highest first) - on a dispatch queue, in add order.
        var listed: [Operation] {
            guard dispatch == nil else { return executing + waiting }
            return executing + QueuePriority.allCases.reversed().flatMap { waiting(at: $0) }
        }

        var liveWorkers: Int { workers.filter { !$0.isRetired }.count }
    }

    var queues: [Queue]
    /// Threads started with `detach` (one thread per task): drawn as lanes too, for the contrast with a pool.
    var detached: [Worker] = []
    /// The latest pool event applied (its index in the trace).
    var lastEventIndex: Int?

    init(queues specs: [QueueSpec], defaultWidth: Int = PoolSnapshot.defaultWidth) {
        queues = specs.map {
            Queue(
                name: $0.name, limit: $0.limit, suspended: $0.suspended, idleTimeout: $0.idleTimeout,
                defaultWidth: defaultWidth, dispatch: $0.dispatch)
        }
    }

    /// The pools after the first `count` events of `trace`.
    init(
        queues specs: [QueueSpec], trace: some Sequence<LoopEvent>, count: Int,
        defaultWidth: Int = PoolSnapshot.defaultWidth
    ) {
        self.init(queues: specs, defaultWidth: defaultWidth)
        for (index, event) in trace.prefix(count).enumerated() { fold(event, at: index) }
    }

    /// Folds in the event at `index` of the trace: a pool event changes the pools and becomes the latest.
    mutating func fold(_ event: LoopEvent, at index: Int) {
        guard event.kind.isPool else { return }
        apply(event)
        lastEventIndex = index
    }

    func queue(named name: String) -> Queue? { queues.first { $0.name == name } }

    /// The operation `name` of whichever queue has it (a dependency may be an operation of another queue).
    func operation(named name: String) -> Operation? {
        queues.lazy.compactMap { $0.operation(named: name) }.first
    }

    mutating func apply(_ event: LoopEvent) {
        switch event.kind {
        case .threadCreate:
            let name = event.name ?? event.loop
            let worker = Worker(name: name, createdAt: event.time)
            if let queue = queueIndex(ofWorker: name, origin: event.fact) {
                queues[queue].workers.append(worker)
                queues[queue].counters.threadsCreated += 1
            } else {
                detached.append(worker)
            }
        case .threadExit:
            let name = event.name ?? event.loop
            if let (queue, index) = workerIndex(name) {
                queues[queue].workers[index].retiredAt = event.time
                queues[queue].workers[index].end = Self.end(event)
                queues[queue].counters.threadsRetired += 1
            } else if let index = detached.lastIndex(where: { $0.name == name && !$0.isRetired }) {
                detached[index].retiredAt = event.time
                detached[index].end = Self.end(event)
            }
        case .opAdd:
            guard let queue = queueIndex(event.loop), let name = event.name else { return }
            guard !queues[queue].operations.contains(where: { $0.name == name }) else { return }
            var operation: Operation
            switch event.fact {
            case .operation(let facts):
                operation = Operation(
                    name: name, priority: facts.priority, dependencies: facts.dependencies, body: facts.bodyWords,
                    addedAt: event.time)
            case .submitted(let submission):
                // A dispatch queue's block or work item: no priority or dependencies of its own.
                operation = Operation(
                    name: name, priority: .normal, dependencies: [], body: submission.words, addedAt: event.time)
                operation.submission = submission.kind
            default:
                return
            }
            operation.symbol = Self.symbol(for: name, taken: Set(queues[queue].operations.map(\.symbol)))
            queues[queue].operations.append(operation)
        case .opReady:
            update(event.name, inQueue: event.loop) { operation, _ in operation.state = .ready }
        case .opStart:
            guard let name = event.name, let (queue, index) = workerIndex(event.loop) else { return }
            guard let position = queues[queue].operations.firstIndex(where: { $0.name == name }) else { return }
            queues[queue].operations[position].state = .executing
            queues[queue].operations[position].worker = event.loop
            queues[queue].operations[position].startedAt = event.time
            queues[queue].workers[index].runs.append(.init(operation: name, start: event.time))
            if case .thread(let use) = event.fact, use.isReuse { queues[queue].counters.threadsReused += 1 }
            queues[queue].counters.executing += 1
            queues[queue].counters.maxExecuting = max(
                queues[queue].counters.maxExecuting, queues[queue].counters.executing)
        case .opCancel:
            if case .cancel(let point) = event.fact, point.hadNoEffect { return }
            update(event.name, inQueue: event.loop) { operation, _ in operation.cancelRequested = true }
        case .opFinish:
            guard let name = event.name else { return }
            // On the queue's own name when it never started; on its worker otherwise.
            let queueName = workerIndex(event.loop).map { queues[$0.0].name } ?? event.loop
            update(name, inQueue: queueName) { operation, queue in
                let wasExecuting = operation.state == .executing
                operation.state = .finished
                operation.finishedAt = event.time
                if case .finish(let outcome) = event.fact { operation.outcome = outcome }
                operation.cancelled = operation.outcome?.isCancelled == true
                queue.counters.finished += 1
                if operation.cancelled { queue.counters.cancelled += 1 }
                if wasExecuting {
                    queue.counters.executing -= 1
                    if let worker = operation.worker,
                        let index = queue.workers.lastIndex(where: { $0.name == worker }),
                        let last = queue.workers[index].runs.indices.last,
                        queue.workers[index].runs[last].operation == name
                    {
                        queue.workers[index].runs[last].end = event.time
                    }
                }
            }
        case .queue:
            guard let queue = queueIndex(event.loop) else { return }
            switch event.fact {
            case .queue(.suspended): queues[queue].suspended = true
            case .queue(.resumed): queues[queue].suspended = false
            case .limit(let limit): queues[queue].limit = limit.count
            case .queue(.waitAll): queues[queue].waitingForAll = true
            default: break
            }
        default:
            return
        }
        for index in queues.indices where queues[index].waitingForAll {
            if queues[index].operations.allSatisfy({ $0.state == .finished }) { queues[index].waitingForAll = false }
        }
    }

    private func queueIndex(_ name: String) -> Int? { queues.firstIndex { $0.name == name } }

    /// The queue a new thread belongs to: the queue its origin names; none for a detached thread.
    private func queueIndex(ofWorker name: String, origin: LoopEvent.Fact?) -> Int? {
        guard case .origin(let origin) = origin, let queue = origin.queue else { return nil }
        return queueIndex(queue)
    }

    private static func end(_ event: LoopEvent) -> LoopEvent.ThreadEnd? {
        if case .end(let end) = event.fact { end } else { nil }
    }

    private func workerIndex(_ name: String) -> (Int, Int)? {
        for (queue, state) in queues.enumerated() {
            if let index = state.workers.lastIndex(where: { $0.name == name }) { return (queue, index) }
        }
        return nil
    }

    private mutating func update(
        _ name: String?, inQueue queueName: String, _ change: (inout Operation, inout Queue) -> Void
    ) {
        guard let name, let queue = queueIndex(queueName),
            let index = queues[queue].operations.firstIndex(where: { $0.name == name })
        else { return }
        var operation = queues[queue].operations[index]
        change(&operation, &queues[queue])
        queues[queue].operations[index] = operation
    }

    /// Characters the lanes use for other things, never an operation's symbol.
    static let reservedSymbols: Set<Character> = [" ", "·", ".", "+", "×", "x", "X", "?", "-"]

    /// A character for operation `name` that no other operation of its queue has: its number's last digit
    /// (`upload7` is 7), else its initial, else its last character, else another of its characters, else the
    /// first free of 1-9, a-z, A-Z.
    static func symbol(for name: String, taken: Set<Character>) -> Character {
        var candidates: [Character] = []
        if let last = name.last, last.isNumber { candidates.append(last) }
        if let first = name.first { candidates.append(first) }
        if let last = name.last { candidates.append(last) }
        candidates += Array(name)
        candidates += Array("123456789abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWYZ")
        return candidates.first {
            !taken.contains($0) && !reservedSymbols.contains($0) && $0.isASCII && !$0.isWhitespace
        } ?? "?"
    }
}
