/// Cancelling and finishing operations, and publishing the finished ones to the directory once the lock is
/// released.
extension OperationQueueCore {

    func cancelLocked(_ operation: PoolOperation) {
        switch operation.spec.submission {
        case .block: return  // `dispatch_async` returned nothing that could cancel it.
        case .workItem: return cancelWorkItemLocked(operation)
        case nil: break
        }
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
            if schedule.cancelPending(operation.name) { markReady(operation) }
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

    /// `DispatchWorkItem.cancel()`: libdispatch sets the item's cancelled flag and nothing else. An item the queue
    /// has not reached keeps its place, and when its turn comes the queue skips its block (checked on this
    /// machine's libdispatch: the next block starts at once, and the item's `notify` runs); a running block is not
    /// interrupted. A work item has no dependencies for the cancel to lift.
    func cancelWorkItemLocked(_ operation: PoolOperation) {
        switch operation.state {
        case .finished:
            emit(.opCancel, operation.name, fact: .cancel(.alreadyFinished))
        case _ where operation.isCancelled:
            emit(.opCancel, operation.name, fact: .cancel(.alreadyCancelled))
        case .executing where operation.started:
            operation.isCancelled = true
            emit(.opCancel, operation.name, fact: .cancel(.workItemRunning))
        case .pending, .ready, .executing:
            operation.isCancelled = true
            emit(.opCancel, operation.name, fact: .cancel(.workItemQueued))
        }
    }

    /// Marks `operation` finished, frees its worker (whose idle timer starts), readies its dependents and starts
    /// what may start now.
    func finishLocked(_ operation: PoolOperation, _ outcome: PoolOperation.Outcome, on thread: String) {
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
            case .done where operation.spec.submission == .workItem && operation.isCancelled: .workItemRanDespiteCancel
            case .done where operation.spec.submission != nil: .blockDone
            case .done: operation.isCancelled ? .doneAfterLateCancel : .done
            case .cancelledBeforeStart where operation.spec.submission == .workItem: .workItemSkipped
            case .cancelledBeforeStart: .cancelledBeforeStart
            case .cancelledWhileRunning: .cancelledWhileRunning
            }
        emitOn(thread, .opFinish, operation.name, fact: .finish(finish))
        if wasExecuting {
            schedule.finishExecuting()
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

    // MARK: - Publishing finished operations

    /// Runs `body` with the lock held, then releases it and publishes what finished meanwhile.
    func withLockThenPublish(_ body: () -> Void) {
        lock.lock()
        body()
        unlockAndPublish()
    }

    /// Releases the lock, then tells the directory which operations finished while it was held, so that queues
    /// waiting for them ready their dependents - after the release: a queue never calls another with its lock held.
    func unlockAndPublish() {
        let finished = finishedNotPublished
        finishedNotPublished = []
        lock.unlock()
        if !finished.isEmpty { directory.publish(finished) }
    }
}
