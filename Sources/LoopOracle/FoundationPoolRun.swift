import Foundation
import LoopEngine
import Synchronization

/// The pool oracle's trace buffer: events from any thread, in the order they are recorded.
final class FoundationPoolTrace: Sendable {
    private struct State {
        var events: [LoopEvent] = []
        var frozen = false
        /// CLOCK_MONOTONIC nanoseconds of the latest event.
        var latest: Int64
    }

    /// CLOCK_MONOTONIC nanoseconds of the scenario start: event times are measured from here.
    let origin: Int64
    private let state: LoopLocked<State>

    init(origin: Int64) {
        self.origin = origin
        state = LoopLocked(State(latest: origin))
    }

    func record(_ thread: String, _ kind: LoopEvent.Kind, _ name: String? = nil, fact: LoopEvent.Fact? = nil) {
        state.withLock { state in
            guard !state.frozen else { return }
            let now = OracleClock.now()
            state.latest = now
            state.events.append(
                LoopEvent(
                    time: LoopInstant(nanoseconds: now - origin), loop: thread, depth: 0, mode: nil, iteration: 0,
                    kind: kind, name: name, fact: fact))
        }
    }

    /// When the latest event was recorded (monotonic nanoseconds).
    var latest: Int64 { state.withLock { $0.latest } }

    /// Stops recording and returns the trace: what the clean-up does afterwards is not part of it.
    func freeze() -> [LoopEvent] {
        state.withLock { state in
            state.frozen = true
            return state.events
        }
    }
}

/// One run of the pool oracle: the scenario's queues and operations, what each pool action does to them (the
/// language is interpreted once, in LoopEngine's `ScenarioLoop+Interpreter.swift`, through `FoundationPoolThread`),
/// and the labels of the dispatch threads that ran operations.
///
/// `@unchecked Sendable`: `queues` is filled in `init` and only read afterwards (`OperationQueue` is thread-safe);
/// everything mutable is in a `LoopLocked` or an `Atomic`.
final class FoundationPoolRun: @unchecked Sendable {
    let trace: FoundationPoolTrace
    /// The queues in declaration order.
    private let queues: [(name: String, queue: OperationQueue)]
    /// The dispatch queues (`queue NAME dispatch …`), each a real `DispatchQueue`.
    let dispatchQueues: [String: DispatchQueue]
    /// The queue each operation of the scenario is added to (the first, in declaration order): a dependency is the
    /// very `Operation` object its own queue runs, whichever queue the dependent is on.
    private let homeQueue: [String: String]
    private let halted = Atomic<Bool>(false)

    private struct Books {
        /// Every operation mentioned so far (added, or named as a dependency), per queue, by name.
        var operations: [String: [String: FoundationPoolOperation]] = [:]
        /// Operations added, in add order.
        var added: [FoundationPoolOperation] = []
        /// Blocks and work items submitted to dispatch queues, by name.
        var submitted: [String: FoundationDispatchItem] = [:]
        var suspended: [String: Bool] = [:]
        var limits: [String: Int?] = [:]
    }
    private let books = LoopLocked(Books())

    private struct Workers {
        /// The token of each thread seen running an operation, in first-seen order.
        var tokens: [Int] = []
        /// Operations each has started.
        var starts: [Int] = []
    }
    private let workers = LoopLocked(Workers())

    init(_ scenario: Scenario) {
        trace = FoundationPoolTrace(origin: OracleClock.now())
        var queues: [(String, OperationQueue)] = []
        var suspended: [String: Bool] = [:]
        var limits: [String: Int?] = [:]
        var dispatchQueues: [String: DispatchQueue] = [:]
        for spec in scenario.queues where spec.dispatch != nil && dispatchQueues[spec.name] == nil {
            dispatchQueues[spec.name] = DispatchQueue(
                label: spec.name, attributes: spec.dispatch == .concurrent ? .concurrent : [])
        }
        self.dispatchQueues = dispatchQueues
        for spec in scenario.queues where spec.dispatch == nil && !queues.contains(where: { $0.0 == spec.name }) {
            let queue = OperationQueue()
            queue.name = spec.name
            queue.maxConcurrentOperationCount = spec.limit ?? OperationQueue.defaultMaxConcurrentOperationCount
            queue.isSuspended = spec.suspended
            queues.append((spec.name, queue))
            suspended[spec.name] = spec.suspended
            limits[spec.name] = spec.limit
        }
        self.queues = queues
        var homeQueue: [String: String] = [:]
        for (queue, spec) in PoolComparison.addedOperations(in: scenario) where homeQueue[spec.name] == nil {
            homeQueue[spec.name] = queue
        }
        self.homeQueue = homeQueue
        books.withLock { books in
            books.suspended = suspended
            books.limits = limits
        }
    }

    var isHalted: Bool { halted.load(ordering: .acquiring) }

    // MARK: - Ending

    /// The programs and outside events have ended: true once every operation added has finished, or when nothing
    /// has been recorded for `quiet` nanoseconds while no `work` operation executes (what is left cannot move).
    func isSettled(quietFor quiet: Int64) -> Bool {
        let (added, submitted) = books.withLock { ($0.added, Array($0.submitted.values)) }
        if added.allSatisfy(\.isFinished) && submitted.allSatisfy(\.isFinished) { return true }
        if added.contains(where: \.isWorking) || submitted.contains(where: \.isWorking) { return false }
        return OracleClock.now() - trace.latest >= quiet
    }

    /// After the trace is frozen: halts the actions and sleeps, lifts every suspension and limit, cancels every
    /// operation and finishes the asynchronous ones, then waits (up to two seconds) for the queues to drain, so
    /// that nothing of this run outlives it.
    func cleanUp() {
        halted.store(true, ordering: .releasing)
        let pending = books.withLock { books in books.operations.values.flatMap(\.values) }
        for (_, queue) in queues {
            queue.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
            queue.isSuspended = false
        }
        for operation in pending { operation.cancel() }
        for item in books.withLock({ Array($0.submitted.values) }) { item.cleanUp() }
        for (_, queue) in queues { queue.cancelAllOperations() }
        let drained = DispatchSemaphore(value: 0)
        let queues = queues.map(\.queue)
        let dispatchQueues = Array(dispatchQueues.values)
        Thread {
            for queue in queues { queue.waitUntilAllOperationsAreFinished() }
            for queue in dispatchQueues { queue.sync(flags: .barrier) {} }
            drained.signal()
        }.start()
        _ = drained.wait(timeout: .now() + .seconds(2))
        // The operations hold the run; let them go so the run and they can be freed.
        books.withLock { books in
            books.operations = [:]
            books.added = []
            books.submitted = [:]
        }
    }

    // MARK: - Threads

    /// The label of the calling dispatch thread (`worker N`) and how many operations it started before; the
    /// first time a thread is seen its `threadCreate` is recorded.
    func worker(for queue: String) -> (label: String, before: Int) {
        let token = Self.threadToken()
        return workers.withLock { workers in
            if let index = workers.tokens.firstIndex(of: token) {
                workers.starts[index] += 1
                return ("worker \(index + 1)", workers.starts[index] - 1)
            }
            workers.tokens.append(token)
            workers.starts.append(1)
            let label = "worker \(workers.tokens.count)"
            trace.record(
                label, .threadCreate, label,
                fact: .origin(.dispatch(queue: queue)))
            return (label, 0)
        }
    }

    private static let nextToken = Atomic<Int>(1)
    private static let tokenKey = "loopviz.poolOracle.thread"

    /// A number that names the calling thread for as long as it lives and is never given to another thread (kept
    /// in its thread dictionary; thread ids and `Thread` objects may be reused once a thread ends).
    private static func threadToken() -> Int {
        let dictionary = Thread.current.threadDictionary
        if let token = dictionary[tokenKey] as? Int { return token }
        let token = nextToken.add(1, ordering: .relaxed).oldValue
        dictionary[tokenKey] = token
        return token
    }

    // MARK: - What the pool actions do (`FoundationPoolThread`, the adapter, calls these)

    /// `Thread.detachNewThread`: a thread of its own for one task, as in the engine.
    func detach(_ task: String, _ inner: [Action]) {
        trace.record(task, .threadCreate, task, fact: .origin(.detached))
        Thread.detachNewThread { [self] in
            FoundationPoolThread(run: self, name: task).perform(inner)
            trace.record(task, .threadExit, task, fact: .end(.taskDone))
        }
    }

    /// `addOperation` to an operation queue or `async` to a dispatch queue, from scenario thread `thread`.
    func addOperation(_ spec: OperationSpec, to queue: String, from thread: String) {
        if dispatchQueues[queue] != nil {
            submit(spec, to: queue)
        } else {
            add(spec, to: queue, from: thread)
        }
    }

    /// `cancel` of a dispatch work item, or else of the operation added under `name`.
    func cancel(_ name: String) {
        if let item = books.withLock({ $0.submitted[name] }) {
            item.cancel()
        } else {
            operation(added: name)?.cancel()
        }
    }

    func cancelAll(_ name: String) {
        guard let queue = queue(named: name) else { return }
        trace.record(name, .queue, LoopEvent.QueueAction.cancelAll.rawValue, fact: .queue(.cancelAll))
        queue.cancelAllOperations()
    }

    func finish(_ name: String) {
        operation(added: name)?.deliverMessage()
    }

    func waitUntilAllFinished(_ name: String) {
        guard let queue = queue(named: name) else { return }
        trace.record(name, .queue, LoopEvent.QueueAction.waitAll.rawValue, fact: .queue(.waitAll))
        queue.waitUntilAllOperationsAreFinished()
    }

    /// `async` to a dispatch queue: `opAdd` is recorded just before the block or work item is submitted.
    private func submit(_ spec: OperationSpec, to name: String) {
        guard let queue = dispatchQueues[name] else { return }
        let work: Duration =
            switch spec.body {
            case .work(let duration, _): duration
            case .async: .zero
            }
        let kind = spec.submission ?? .block
        let item: FoundationDispatchItem? = books.withLock { books in
            guard books.submitted[spec.name] == nil else { return nil }
            let item = FoundationDispatchItem(name: spec.name, queue: name, kind: kind, work: work, run: self)
            books.submitted[spec.name] = item
            return item
        }
        guard let item else {
            trace.record(name, .note, fact: .note(.duplicateOperation(spec.name)))
            return
        }
        trace.record(name, .opAdd, spec.name, fact: .submitted(DispatchSubmission(kind: kind, work: work)))
        item.submit(to: queue)
    }

    private func queue(named name: String) -> OperationQueue? {
        queues.first { $0.name == name }?.queue
    }

    /// The operation `name` of `queue`, created at its first mention (a dependency may name an operation that is
    /// added later, to this queue or another: the dependent waits for it, as in the engine).
    private func operation(_ name: String, of queue: String, in books: inout Books) -> FoundationPoolOperation {
        if let operation = books.operations[queue]?[name] { return operation }
        let operation = FoundationPoolOperation(name: name, queue: queue, run: self)
        books.operations[queue, default: [:]][name] = operation
        return operation
    }

    /// The operation named `name` on the first queue (in declaration order) it was added to.
    private func operation(added name: String) -> FoundationPoolOperation? {
        books.withLock { books in
            for (queue, _) in queues {
                if let operation = books.operations[queue]?[name], operation.isAdded { return operation }
            }
            return nil
        }
    }

    private func add(_ spec: OperationSpec, to name: String, from thread: String) {
        guard let queue = queue(named: name) else {
            trace.record(thread, .note, fact: .note(.noSuchQueue(operation: spec.name, queue: name)))
            return
        }
        let operation: FoundationPoolOperation? = books.withLock { books in
            let added = self.operation(spec.name, of: name, in: &books)
            guard !added.isAdded else { return nil }
            // addDependency across queues: a dependency added to another queue is that queue's operation.
            let dependencies = spec.dependencies.map { self.operation($0, of: homeQueue[$0] ?? name, in: &books) }
            added.configure(spec)
            for dependency in dependencies { added.addDependency(dependency) }
            books.added.append(added)
            return added
        }
        guard let operation else {
            trace.record(name, .note, fact: .note(.duplicateOperation(spec.name)))
            return
        }
        trace.record(name, .opAdd, spec.name, fact: .operation(LoopEvent.OperationFacts(spec)))
        queue.addOperation(operation)
    }

    func setSuspended(_ name: String, _ flag: Bool) {
        guard let queue = queue(named: name) else { return }
        let changed = books.withLock { books in
            guard books.suspended[name] != flag else { return false }
            books.suspended[name] = flag
            return true
        }
        guard changed else { return }
        // A resume is recorded before the queue may start anything; a suspension once nothing new starts.
        if !flag { trace.record(name, .queue, LoopEvent.QueueAction.resumed.rawValue, fact: .queue(.resumed)) }
        queue.isSuspended = flag
        if flag { trace.record(name, .queue, LoopEvent.QueueAction.suspended.rawValue, fact: .queue(.suspended)) }
    }

    func setLimit(_ name: String, _ limit: Int?) {
        guard let queue = queue(named: name) else { return }
        let old: Int? = books.withLock { books in
            let old = books.limits[name] ?? nil
            books.limits[name] = limit
            return old
        }
        let raised = (limit ?? .max) >= (old ?? .max)
        let fact = LoopEvent.Fact.limit(limit.map { .count($0) } ?? .automatic(width: nil))
        // A raised limit is recorded before the queue may use it; a lowered one once the queue obeys it.
        if raised { trace.record(name, .queue, "limit", fact: fact) }
        queue.maxConcurrentOperationCount = limit ?? OperationQueue.defaultMaxConcurrentOperationCount
        if !raised { trace.record(name, .queue, "limit", fact: fact) }
    }
}
