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
    let world: any PoolWorld
    let directory: PoolDirectory
    let sink: (any TraceSink)?
    let lock = LoopLock()
    let idleTimeout: Duration
    /// What the queue runs: operations, or a dispatch queue's blocks.
    let work: LoopEvent.PoolWork

    // Guarded by `lock` (internal only so that the extensions in the other files of the queue can reach them).

    /// The rules: what is ready, what waits for what, the limit, suspension and how many execute.
    var schedule: PoolSchedule
    var operations: [PoolOperation] = []
    var byName: [String: PoolOperation] = [:]
    /// Operations that finished under the lock, to publish to the directory once it is released.
    var finishedNotPublished: [String] = []
    var unfinished = 0
    var workers: [PoolWorker] = []
    var workersEverCreated = 0

    /// A queue of `world`; `directory` is shared by every queue of that world (one per scenario run), so that a
    /// dependency on an operation of another of them is seen finishing.
    init(
        _ spec: QueueSpec, world: any PoolWorld, directory: PoolDirectory, sink: (any TraceSink)?, defaultWidth: Int
    ) {
        name = spec.name
        self.world = world
        self.directory = directory
        self.sink = sink
        idleTimeout = spec.idleTimeout
        work = spec.dispatch == nil ? .operation : .block
        schedule = PoolSchedule(limit: spec.limit, defaultWidth: defaultWidth, suspended: spec.suspended)
    }

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
        let operation = PoolOperation(spec: spec, sequence: operations.count)
        operations.append(operation)
        byName[spec.name] = operation
        unfinished += 1
        let readyAtOnce = schedule.add(operation.entry, waitingFor: waiting)
        if case .async = spec.body {
            operation.socket = LoopSource(portNamed: Self.socketName(spec.name), on: world.kernel) {
                [unowned self, unowned operation] _ in
                self.socketMessage(operation)
            }
        }
        emit(.opAdd, spec.name, fact: Self.addFact(spec))
        if readyAtOnce { markReady(operation) }
        scheduleLocked()
    }

    /// What an `opAdd` says: the operation, or what `async` submitted to a dispatch queue.
    static func addFact(_ spec: OperationSpec) -> LoopEvent.Fact {
        guard let kind = spec.submission else { return .operation(LoopEvent.OperationFacts(spec)) }
        let work: Duration =
            switch spec.body {
            case .work(let duration, _): duration
            case .async: .zero
            }
        return .submitted(DispatchSubmission(kind: kind, work: work))
    }

    /// `cancel()` on one operation (or `cancel()` on a `DispatchWorkItem`; a plain block has nothing to cancel
    /// it with, so the parser refuses a `cancel` of one and the UI offers none).
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
        guard schedule.isSuspended != flag else { return }
        schedule.isSuspended = flag
        emitQueue(flag ? .suspended : .resumed)
        scheduleLocked()
    }

    /// `maxConcurrentOperationCount = n` (nil: the default). Lowering it stops nothing that executes.
    func setLimit(_ newLimit: Int?) {
        lock.lock()
        defer { lock.unlock() }
        schedule.limit = newLimit
        emit(.queue, "limit", fact: .limit(newLimit.map { .count($0) } ?? .automatic(width: schedule.defaultWidth)))
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

    /// The schedule made `operation` ready: its state follows, and the trace says so.
    func markReady(_ operation: PoolOperation) {
        operation.state = .ready
        emit(.opReady, operation.name)
    }

    /// Starts what the schedule says may start now (nothing once the run is halted).
    func scheduleLocked() {
        guard !world.kernel.isHalted else { return }
        while let next = schedule.next, let operation = byName[next.name] {
            dispatch(operation)
        }
    }

    /// `dependency` has finished: the dependents for which it was the last become ready.
    func readyDependents(of dependency: String) {
        for name in schedule.dependencyFinished(dependency) {
            if let operation = byName[name] { markReady(operation) }
        }
    }
}
