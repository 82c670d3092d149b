/// The queue's workers: run-loop threads kept alive by a port, handed operations as tasks performed on their loops,
/// retired by an idle timer. They take the queue's lock only around what the schedule guards, never across a
/// callout or a wait.
extension OperationQueueCore {
    /// The name of a worker's idle timer, as traces (and `expect` lines) name it.
    static let idleTimerName = "idle"

    /// Hands the ready `operation` to an idle worker (reused), else to a new one (created).
    func dispatch(_ operation: PoolOperation) {
        let worker: PoolWorker
        let reused: Bool
        if let idle = workers.first(where: { $0.operation == nil && !$0.retired }) {
            worker = idle
            reused = true
            worker.idleTimer?.invalidateUnreported()
            worker.idleTimer = nil
        } else {
            worker = startWorker()
            reused = false
        }
        schedule.start(operation.entry)
        operation.state = .executing
        operation.worker = worker
        worker.operation = operation
        let how: LoopEvent.ThreadUse = reused ? .reused(before: worker.operationsRun) : .new
        worker.loop.performTask(operation.name) { [unowned self] in
            self.run(operation, on: worker, how: how)
        }
    }

    func startWorker() -> PoolWorker {
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
    func workerBody(_ loop: RunLoopCore, keepAlive: LoopSource) {
        loop.add(keepAlive, to: .default)
        while !world.kernel.isHalted && !isRetired(loop) {
            guard loop.runFoundation(mode: .default, before: .distantFuture) else { break }
        }
        loop.remove(keepAlive, from: .default)
    }

    func isRetired(_ loop: RunLoopCore) -> Bool {
        lock.withLock { workers.first { $0.loop === loop }?.retired ?? true }
    }

    // MARK: - On the worker

    /// Runs on the worker's thread, as a task performed on its loop.
    func run(_ operation: PoolOperation, on worker: PoolWorker, how: LoopEvent.ThreadUse) {
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

    func runSynchronously(
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
    func runAsynchronously(_ operation: PoolOperation, on worker: PoolWorker) {
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
    func socketMessage(_ operation: PoolOperation) {
        withLockThenPublish {
            guard operation.state == .executing, operation.started, let worker = operation.worker else { return }
            finishLocked(operation, operation.isCancelled ? .cancelledWhileRunning : .done, on: worker.name)
        }
    }

    func armIdleTimer(_ worker: PoolWorker) {
        guard !worker.retired else { return }
        let timer = LoopTimer(name: Self.idleTimerName, fireDate: world.clock.now + idleTimeout) {
            [unowned self, unowned worker] _ in
            self.retireIfIdle(worker)
        }
        worker.idleTimer = timer
        worker.loop.add(timer, to: .default)
    }

    /// The idle timer's callout, on the worker's loop: the worker retires unless work came meanwhile.
    func retireIfIdle(_ worker: PoolWorker) {
        lock.lock()
        defer { lock.unlock() }
        guard worker.operation == nil, !worker.retired else { return }
        worker.retired = true
        worker.idleTimer = nil
        workers.removeAll { $0 === worker }
        emitOn(
            worker.name, .threadExit, worker.name,
            fact: .end(.idle(timeout: idleTimeout, ran: worker.operationsRun, work: work)))
        worker.loop.stop()
    }
}

extension OperationQueueCore {
    /// The name of the port an async operation's socket callback comes through (`socket.upload1`).
    static func socketName(_ operation: String) -> String {
        "socket.\(operation)"
    }
}
