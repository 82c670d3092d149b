/// An operation queue (`NSOperationQueue`) and its thread pool, modelled on run-loop threads.
///
/// The queue starts ready operations - the highest `queuePriority` first, the first added first within a level -
/// while fewer than its limit execute and it is not suspended. Each starts on a worker thread: an idle one if
/// there is one (reused), else a new one (created). A worker is a thread whose loop a port keeps alive; the queue
/// hands it an operation as a task performed on that loop (`performSelector:onThread:`), so between operations it
/// sleeps in the kernel, and after `idleTimeout` with nothing to do a one-shot timer on its loop retires it.
///
/// A synchronous operation works on its worker and looks at `isCancelled` at its check points. An asynchronous
/// one (the article's upload) adds its "socket" - a port source - to the worker's loop and runs that loop until a
/// message on the socket finishes it; meanwhile it counts against the limit and holds its worker.
///
/// An operation may depend on operations of other queues of its world: the world's ``PoolDirectory`` tells this
/// queue when one of them finishes, and the dependent becomes ready here (`opReady` on this queue), as Foundation
/// readies a dependent on its own queue when a dependency on another queue finishes.
///
/// Every change is an event in the trace (``LoopEvent/Kind/poolKinds``). The scheduling is the same on the
/// virtual clock and on real threads: only the ``PoolWorld`` differs. Every method may be called from any thread.
final class OperationQueueCore: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is guarded by `lock`; loops are called with it held (the pool's lock
    // comes before the engine lock), and loops call back into the pool only from callouts, without theirs. Another
    // queue is never called with `lock` held: operations that finished under it are published to the directory
    // (which tells the queues waiting for them) once it is released; the directory's lock comes after this one.

    /// The width of a queue whose limit is the default, on the virtual clock: libdispatch runs about one thread
    /// per core, and the virtual machine has four. On real threads it is this machine's core count.
    static let virtualDefaultWidth = 4

    let name: String
    private let world: any PoolWorld
    private let directory: PoolDirectory
    private let sink: (any TraceSink)?
    private let lock = LoopLock()
    private let defaultWidth: Int
    private let idleTimeout: Duration

    private var limit: Int?
    private var suspended: Bool
    private var operations: [PoolOperation] = []
    private var byName: [String: PoolOperation] = [:]
    /// Ready operations not handed to a worker yet, per priority level (index 0 = veryHigh), each in add order:
    /// like Foundation, the queue starts the first added of the highest level, whenever each became ready.
    private var ready: [[PoolOperation]] = Array(repeating: [], count: QueuePriority.allCases.count)
    /// Operations not finished yet that wait for the named one (of this queue, or of another).
    private var dependents: [String: [PoolOperation]] = [:]
    /// Operations that finished under the lock, to publish to the directory once it is released.
    private var finishedNotPublished: [String] = []
    private var unfinished = 0
    private var workers: [PoolWorker] = []
    private var workersEverCreated = 0
    private var executing = 0

    /// A queue of `world`; `directory` is shared by every queue of that world (one per scenario run), so that a
    /// dependency on an operation of another of them is seen finishing.
    init(
        _ spec: QueueSpec, world: any PoolWorld, directory: PoolDirectory, sink: (any TraceSink)?, defaultWidth: Int
    ) {
        name = spec.name
        self.world = world
        self.directory = directory
        self.sink = sink
        self.defaultWidth = max(defaultWidth, 1)
        idleTimeout = spec.idleTimeout
        limit = spec.limit
        suspended = spec.suspended
    }

    /// How many operations may execute at once now.
    private var widthLocked: Int { limit.map { max($0, 0) } ?? defaultWidth }

    /// True when every operation added has finished (`waitUntilAllOperationsAreFinished` returns).
    var isDrained: Bool { lock.withLock { unfinished == 0 } }

    /// The operation named `name`, finished or not.
    func has(_ name: String) -> Bool { lock.withLock { byName[name] != nil } }

    // MARK: - The queue's API

    /// `addOperation`. An operation whose name is taken is refused with a note.
    ///
    /// Its dependencies may be operations of this queue or of any other queue of the world (`addDependency`
    /// across queues): it becomes ready, here, once each has finished on its own queue. A cancelled dependency
    /// counts once it has finished (a queued one finishes when its queue gets to it; one on a suspended queue never
    /// does). A dependency not added anywhere yet is waited for until it is added and finishes. Cancelling the
    /// operation makes it ready at once, its dependencies ignored, whichever queues they are on.
    func add(_ spec: OperationSpec) {
        lock.lock()
        defer { lock.unlock() }
        guard byName[spec.name] == nil else {
            emit(.note, fact: .note(.duplicateOperation(spec.name)))
            return
        }
        let waiting = Set(
            spec.dependencies.filter { dependency in
                if let local = byName[dependency] { return local.state != .finished }
                // Not on this queue (yet): another queue's, or one still to be added. The directory has seen it
                // finish, or tells this queue when it does; if it is added here later it finishes here, below.
                return !directory.finishedOrWait(for: dependency, queue: self)
            })
        let operation = PoolOperation(spec: spec, sequence: operations.count, waitingFor: waiting)
        operations.append(operation)
        byName[spec.name] = operation
        unfinished += 1
        for dependency in waiting { dependents[dependency, default: []].append(operation) }
        if case .async = spec.body {
            operation.socket = LoopSource(portNamed: "socket.\(spec.name)", on: world.kernel) {
                [unowned self, unowned operation] _ in
                self.socketMessage(operation)
            }
        }
        emit(.opAdd, spec.name, fact: .operation(LoopEvent.OperationFacts(spec)))
        if waiting.isEmpty { makeReady(operation) }
        scheduleLocked()
    }

    /// `cancel()` on one operation.
    func cancel(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let operation = byName[name] else { return }
        cancelLocked(operation)
        scheduleLocked()
    }

    /// `cancelAllOperations()`: cancels every operation not finished, in the order they were added.
    func cancelAll() {
        lock.lock()
        defer { lock.unlock() }
        emitQueue(.cancelAll)
        for operation in operations where operation.state != .finished { cancelLocked(operation) }
        scheduleLocked()
    }

    /// `isSuspended = flag`: a suspended queue starts nothing; what executes goes on.
    func setSuspended(_ flag: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard suspended != flag else { return }
        suspended = flag
        emitQueue(flag ? .suspended : .resumed)
        scheduleLocked()
    }

    /// `maxConcurrentOperationCount = n` (nil: the default). Lowering it stops nothing that executes.
    func setLimit(_ newLimit: Int?) {
        lock.lock()
        defer { lock.unlock() }
        limit = newLimit
        emit(.queue, "limit", fact: .limit(newLimit.map { .count($0) } ?? .automatic(width: defaultWidth)))
        scheduleLocked()
    }

    /// The socket callback of an asynchronous operation: a message on its port. Before the operation starts the
    /// message waits in the port; the operation then finishes as soon as its worker's loop reads it.
    func finishAsync(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let operation = byName[name] else { return }
        guard let socket = operation.socket else {
            emit(.note, fact: .note(.notAsynchronous(name)))
            return
        }
        socket.send()
    }

    /// Called by the directory, without any queue's lock held: the operation `dependency` (of another queue, or of
    /// this one, then already handled) has finished. Its dependents here that still wait become ready when it was
    /// their last dependency, and the queue starts what it may.
    func dependencyFinished(_ dependency: String) {
        withLockThenPublish {
            readyDependents(of: dependency)
            scheduleLocked()
        }
    }

    /// `waitUntilAllOperationsAreFinished` on the calling thread.
    func waitUntilAllFinished() {
        lock.withLock { emitQueue(.waitAll) }
        world.block(for: .allOperations(queue: name)) { [self] in isDrained }
    }

    // MARK: - Scheduling

    private func makeReady(_ operation: PoolOperation) {
        operation.state = .ready
        let level = Self.level(operation.spec.priority)
        let index = ready[level].firstIndex { $0.sequence > operation.sequence } ?? ready[level].endIndex
        ready[level].insert(operation, at: index)
        emit(.opReady, operation.name)
    }

    /// The index of a priority's list in `ready`: the highest level first.
    private static func level(_ priority: QueuePriority) -> Int {
        QueuePriority.allCases.count - 1 - QueuePriority.allCases.firstIndex(of: priority)!
    }

    /// Starts ready operations while the limit allows.
    private func scheduleLocked() {
        guard !suspended, !world.kernel.isHalted else { return }
        while executing < widthLocked, let next = nextReady() {
            dispatch(next)
        }
    }

    /// The ready operation to start next: highest priority, then first added.
    private func nextReady() -> PoolOperation? {
        ready.first { !$0.isEmpty }?.first
    }

    private func dispatch(_ operation: PoolOperation) {
        let worker: PoolWorker
        let reused: Bool
        if let idle = workers.first(where: { $0.operation == nil && !$0.retired }) {
            worker = idle
            reused = true
            worker.idleTimer?.invalidate()
            worker.idleTimer = nil
        } else {
            worker = startWorker()
            reused = false
        }
        let level = Self.level(operation.spec.priority)
        ready[level].removeAll { $0 === operation }
        operation.state = .executing
        operation.worker = worker
        worker.operation = operation
        executing += 1
        let how: LoopEvent.ThreadUse = reused ? .reused(before: worker.operationsRun) : .new
        worker.loop.performTask(operation.name) { [unowned self] in
            self.run(operation, on: worker, how: how)
        }
    }

    private func startWorker() -> PoolWorker {
        workersEverCreated += 1
        let workerName = "\(name).\(workersEverCreated)"
        let keepAlive = LoopSource(portNamed: "keepAlive", on: world.kernel) { _ in }
        let loop = world.startThread(named: workerName, sink: sink) { [unowned self] loop in
            self.workerBody(loop, keepAlive: keepAlive)
        }
        let worker = PoolWorker(name: workerName, loop: loop, keepAlive: keepAlive)
        workers.append(worker)
        emitOn(workerName, .threadCreate, workerName, fact: .origin(.worker(of: name)))
        return worker
    }

    /// A worker thread's program: the keep-alive idiom, until its idle timer retires it.
    private func workerBody(_ loop: RunLoopCore, keepAlive: LoopSource) {
        loop.add(keepAlive, to: .default)
        while !world.kernel.isHalted && !isRetired(loop) {
            guard loop.runFoundation(mode: .default, before: .distantFuture) else { break }
        }
        loop.remove(keepAlive, from: .default)
    }

    private func isRetired(_ loop: RunLoopCore) -> Bool {
        lock.withLock { workers.first { $0.loop === loop }?.retired ?? true }
    }

    // MARK: - On the worker

    /// Runs on the worker's thread, as a task performed on its loop.
    private func run(_ operation: PoolOperation, on worker: PoolWorker, how: LoopEvent.ThreadUse) {
        lock.lock()
        if world.kernel.isHalted {
            // The run is over: nothing starts, and nothing finishes that did not.
            lock.unlock()
            return
        }
        if operation.isCancelled {
            // start() sees isCancelled first and finishes without calling main().
            finishLocked(operation, .cancelledBeforeStart, on: worker.name)
            unlockAndPublish()
            return
        }
        operation.started = true
        worker.operationsRun += 1
        emitOn(worker.name, .opStart, operation.name, fact: .thread(how))
        lock.unlock()
        switch operation.spec.body {
        case .work(let duration, let checkEvery):
            runSynchronously(operation, on: worker, duration: duration, checkEvery: checkEvery)
        case .async:
            runAsynchronously(operation, on: worker)
        }
    }

    private func runSynchronously(
        _ operation: PoolOperation, on worker: PoolWorker, duration: Duration, checkEvery: Duration?
    ) {
        if let checkEvery, checkEvery > .zero {
            let outcome = world.work(duration, checkingEvery: checkEvery) { [unowned self, unowned operation] in
                lock.withLock { operation.isCancelled }
            }
            switch outcome {
            case .halted: return  // The run is over and the operation did not finish.
            case .cancelled:
                withLockThenPublish { finishLocked(operation, .cancelledWhileRunning, on: worker.name) }
                return
            case .worked: break
            }
        } else {
            world.work(duration)
            // Halted meanwhile: the run is over and the operation did not finish.
            if world.kernel.isHalted { return }
        }
        withLockThenPublish { finishLocked(operation, .done, on: worker.name) }
    }

    /// The upload: the socket joins the worker's loop, which runs (nested in this task) until a message on the
    /// socket finishes the operation - `while !finished { [runLoop runMode:beforeDate:] }`.
    private func runAsynchronously(_ operation: PoolOperation, on worker: PoolWorker) {
        guard let socket = operation.socket else { return }
        worker.loop.add(socket, to: .default)
        if let reply = operation.spec.replyAfter {
            // The server answers on the socket, from the network's side (another thread, as far as the loop knows).
            let answer = world.kernel.schedule(at: world.clock.now + reply) { socket.send() }
            lock.withLock { operation.reply = answer }
        }
        while !world.kernel.isHalted && lock.withLock({ operation.state != .finished }) {
            guard worker.loop.runFoundation(mode: .default, before: .distantFuture) else { break }
        }
        // Halted before the answer came: the run is over and the upload did not finish.
        worker.loop.remove(socket, from: .default)
    }

    /// The socket's callout, on the worker's loop.
    private func socketMessage(_ operation: PoolOperation) {
        withLockThenPublish {
            guard operation.state == .executing, operation.started, let worker = operation.worker else { return }
            finishLocked(operation, operation.isCancelled ? .cancelledWhileRunning : .done, on: worker.name)
        }
    }

    // MARK: - Cancelling and finishing

    private func cancelLocked(_ operation: PoolOperation) {
        switch operation.state {
        case .finished:
            emit(.opCancel, operation.name, fact: .cancel(.alreadyFinished))
        case _ where operation.isCancelled:
            emit(.opCancel, operation.name, fact: .cancel(.alreadyCancelled))
        case .pending, .ready:
            // Foundation still has to start it, so that it can see the flag and finish: it stays queued in its
            // place until the queue gets to it (a suspended queue never does). The dependencies it waits for are
            // ignored from then on, so that this happens sooner (Apple documents it; swift-corelibs' `cancel()`
            // zeroes the unfinished-dependency count and reschedules the queue).
            operation.isCancelled = true
            emit(.opCancel, operation.name, fact: .cancel(.queued))
            if operation.state == .pending {
                operation.waitingFor = []
                makeReady(operation)
            }
        case .executing:
            operation.isCancelled = true
            if !operation.started {
                emit(.opCancel, operation.name, fact: .cancel(.handedTo(worker: operation.worker?.name ?? "?")))
            } else if let socket = operation.socket {
                // Cancelling the upload cancels its connection, whose callback arrives on the socket.
                emit(.opCancel, operation.name, fact: .cancel(.executingConnection))
                socket.send()
            } else {
                emit(.opCancel, operation.name, fact: .cancel(.executingNextCheck))
            }
        }
    }

    /// Marks `operation` finished, frees its worker (whose idle timer starts), readies its dependents and starts
    /// what may start now.
    private func finishLocked(_ operation: PoolOperation, _ outcome: PoolOperation.Outcome, on thread: String) {
        guard operation.state != .finished else { return }
        let wasExecuting = operation.state == .executing
        operation.state = .finished
        if let reply = operation.reply {
            // A server reply still to come has nothing left to finish.
            world.kernel.cancel(reply)
            operation.reply = nil
        }
        unfinished -= 1
        let finish: LoopEvent.FinishOutcome =
            switch outcome {
            case .done: operation.isCancelled ? .doneAfterLateCancel : .done
            case .cancelledBeforeStart: .cancelledBeforeStart
            case .cancelledWhileRunning: .cancelledWhileRunning
            }
        emitOn(thread, .opFinish, operation.name, fact: .finish(finish))
        if wasExecuting {
            executing -= 1
            if let worker = operation.worker {
                worker.operation = nil
                armIdleTimer(worker)
            }
            operation.worker = nil
        }
        readyDependents(of: operation.name)
        finishedNotPublished.append(operation.name)
        scheduleLocked()
    }

    /// `dependency` has finished: each operation here still pending on it stops waiting for it, and is ready when
    /// it was the last (a cancelled one was made ready at its cancel).
    private func readyDependents(of dependency: String) {
        for other in dependents.removeValue(forKey: dependency) ?? [] where other.state == .pending {
            other.waitingFor.remove(dependency)
            if other.waitingFor.isEmpty { makeReady(other) }
        }
    }

    // MARK: - Publishing finished operations

    /// Runs `body` with the lock held, then releases it and publishes what finished meanwhile.
    private func withLockThenPublish(_ body: () -> Void) {
        lock.lock()
        body()
        unlockAndPublish()
    }

    /// Releases the lock, then tells the directory which operations finished while it was held, so that queues
    /// waiting for them ready their dependents - after the release: a queue never calls another with its lock held.
    private func unlockAndPublish() {
        let finished = finishedNotPublished
        finishedNotPublished = []
        lock.unlock()
        if !finished.isEmpty { directory.publish(finished) }
    }

    private func armIdleTimer(_ worker: PoolWorker) {
        guard !worker.retired else { return }
        let timer = LoopTimer(name: "idle", fireDate: world.clock.now + idleTimeout) {
            [unowned self, unowned worker] _ in
            self.retireIfIdle(worker)
        }
        worker.idleTimer = timer
        worker.loop.add(timer, to: .default)
    }

    /// The idle timer's callout, on the worker's loop: the worker retires unless work came meanwhile.
    private func retireIfIdle(_ worker: PoolWorker) {
        lock.lock()
        defer { lock.unlock() }
        guard worker.operation == nil, !worker.retired else { return }
        worker.retired = true
        worker.idleTimer = nil
        workers.removeAll { $0 === worker }
        emitOn(
            worker.name, .threadExit, worker.name,
            fact: .end(.idle(timeout: idleTimeout, operations: worker.operationsRun)))
        worker.loop.stop()
    }

    // MARK: - Events

    /// A change of the queue: its name is the action's word, its fact the action.
    private func emitQueue(_ action: LoopEvent.QueueAction) {
        emit(.queue, action.rawValue, fact: .queue(action))
    }

    private func emit(_ kind: LoopEvent.Kind, _ item: String? = nil, fact: LoopEvent.Fact? = nil) {
        emitOn(name, kind, item, fact: fact)
    }

    private func emitOn(_ thread: String, _ kind: LoopEvent.Kind, _ item: String?, fact: LoopEvent.Fact?) {
        guard let sink else { return }
        let event = LoopEvent(
            time: world.clock.now, loop: thread, depth: 0, mode: nil, iteration: 0, kind: kind, name: item,
            fact: fact)
        world.kernel.engineLock.withLock { sink.record(event) }
    }
}
