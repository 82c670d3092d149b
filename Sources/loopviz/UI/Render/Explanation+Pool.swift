import LoopEngine

extension Explanation {
    /// The rule behind a pool event: its kind and its fact say which case it is.
    static func pool(_ event: LoopEvent) -> (case: Case, text: String) {
        let name = event.name ?? ""
        let detail = event.detail ?? ""
        switch (event.kind, event.fact) {
        case (.opAdd, .operation(let operation)) where !operation.dependencies.isEmpty:
            return (
                .opAddWithDependencies,
                "addOperation(\(name)) on \(event.loop) (\(detail)). It depends on "
                    + operation.dependencies.joined(separator: ", ")
                    + ": it stays pending, not ready, until they finish (a cancelled dependency counts as finished)."
            )
        case (.opAdd, .submitted(let submission)):
            return submitted(name, submission, on: event.loop)
        case (.opAdd, _):
            return (
                .opAdd,
                "addOperation(\(name)) on \(event.loop) (\(detail)). Nothing to wait for, so it becomes ready "
                    + "at once; it starts when the queue has a free slot and is not suspended."
            )
        case (.opReady, _):
            return (
                .opReady,
                "\(name) is ready: it starts when its queue has a free slot. An operation queue starts the highest "
                    + "priority first (veryHigh to veryLow), the first added first within a level, while fewer than "
                    + "maxConcurrentOperationCount execute and it is not suspended; a serial dispatch queue runs its "
                    + "blocks one at a time, first in, first out."
            )
        case (.opStart, .thread(.reused(let before))):
            return (
                .opStartReusedThread,
                "\(name) starts on \(event.loop), an idle worker reused (\(before) before): no thread is created. "
                    + "In this model an idle worker sleeps in its run loop, kept alive by a port; libdispatch parks "
                    + "its own threads by its own rules."
            )
        case (.opStart, .thread(.firstSeen)):
            return (
                .opStartFirstSeenThread,
                "\(name) starts on \(event.loop), a libdispatch thread this run sees for the first time: it may "
                    + "have run other work before; libdispatch, not the queue, decides which thread runs it."
            )
        case (.opStart, _):
            return (
                .opStartNewThread,
                "\(name) starts on \(event.loop), a thread just created for it: every worker was busy and the "
                    + "queue was under its limit. A pool creates threads only when it must."
            )
        case (.opCancel, .cancel(let point)):
            return cancel(name, point, detail: detail)
        case (.opFinish, .finish(let outcome)):
            return finish(name, outcome, on: event.loop, detail: detail)
        case (.threadCreate, .origin(.worker)):
            return (
                .threadCreateWorker,
                "A new worker thread \(event.loop) (\(detail)): no idle worker was free. In this model a worker is a "
                    + "run-loop thread kept alive by a port (lesson 02); Foundation's queues run on libdispatch's "
                    + "threads, which libdispatch parks and retires itself."
            )
        case (.threadCreate, .origin(.dispatch)):
            return (
                .threadCreateDispatch,
                "\(event.loop) is \(detail): Foundation's queue runs operations on libdispatch's threads, which "
                    + "libdispatch creates and reuses as it sees fit."
            )
        case (.threadCreate, .origin(.detached)):
            return (
                .threadCreateDetached,
                "Thread.detachNewThread: \(event.loop) is created for one task (\(detail)) and exits after it - "
                    + "a thread per task, the cost a pool saves."
            )
        case (.threadExit, .end(.idle(_, _, let work))):
            return (
                .threadExitIdle,
                "\(event.loop) is retired (\(detail)): in this model the one-shot idle timer on its loop fired with "
                    + "no work, so the thread stops its loop and exits (libdispatch retires its own threads by its own "
                    + "rules). The next \(work.rawValue) needs a new thread."
            )
        case (.threadExit, .end(.taskDone)):
            return (
                .threadExitTaskDone,
                "Thread \(event.loop) ends (\(detail)): a detached thread lives for its one task."
            )
        case (.queue, .queue(.suspended)):
            return (
                .queueSuspended,
                "isSuspended = true on \(event.loop): nothing new starts; operations already executing go on."
            )
        case (.queue, .queue(.resumed)):
            return (
                .queueResumed, "isSuspended = false on \(event.loop): ready operations start again, up to the limit."
            )
        case (.queue, .limit):
            return (
                .queueLimit,
                "maxConcurrentOperationCount = \(detail) on \(event.loop). Raising it starts ready operations at "
                    + "once; lowering it stops nothing that executes - the queue just starts fewer."
            )
        case (.queue, .queue(.cancelAll)):
            return (
                .queueCancelAll,
                "cancelAllOperations() on \(event.loop): every operation not finished is cancelled, in the order "
                    + "they were added. Queued ones finish when the queue starts them; running ones at their next "
                    + "check."
            )
        case (.queue, .queue(.waitAll)):
            return (
                .queueWaitAll,
                "waitUntilAllOperationsAreFinished on \(event.loop): the calling thread blocks until every "
                    + "operation has finished."
            )
        default:
            return (.plain, event.step + (event.detail.map { " (\($0))" } ?? "") + ".")
        }
    }

    /// `async` on a dispatch queue: what the caller holds afterwards decides what a cancel can do.
    private static func submitted(
        _ name: String, _ submission: DispatchSubmission, on queue: String
    ) -> (case: Case, text: String) {
        switch submission.kind {
        case .block:
            return (
                .opAddBlock,
                "\(queue).async { \(name) }: the block joins the dispatch queue. async returns nothing, so no one "
                    + "holds anything to cancel it with: once submitted, it runs - the thread-pool article's reason "
                    + "for preferring NSOperationQueue."
            )
        case .workItem:
            return (
                .opAddWorkItem,
                "\(queue).async(execute: \(name)): a DispatchWorkItem joins the dispatch queue. The caller keeps "
                    + "the item, so \(name).cancel() can still stop it - but only before its block starts."
            )
        }
    }

    private static func cancel(
        _ name: String, _ point: LoopEvent.CancelPoint, detail: String
    ) -> (case: Case, text: String) {
        switch point {
        case .queued:
            return (
                .opCancelQueued,
                "cancel() on \(name) while it waits in the queue: it finishes when the queue starts it, without "
                    + "running, and operations that depend on it may become ready."
            )
        case .executingConnection:
            return (
                .opCancelConnection,
                "cancel() on the upload \(name): cancelling it cancels its connection, whose callback arrives on "
                    + "the socket and finishes the operation on its worker's run loop."
            )
        case .executingNextCheck:
            return (
                .opCancelNextCheck,
                "cancel() on \(name) while it runs only sets isCancelled: it stops at its next check of the flag. "
                    + "An operation that never checks runs to the end."
            )
        case .workItemQueued:
            return (
                .opCancelWorkItemQueued,
                "cancel() on the DispatchWorkItem \(name) before the queue reached it: libdispatch only marks it "
                    + "cancelled. It keeps its place, and when its turn comes the queue skips its block - it never "
                    + "runs - and goes straight on to the next one."
            )
        case .workItemRunning:
            return (
                .opCancelWorkItemRunning,
                "cancel() on the DispatchWorkItem \(name) while its block runs: it only sets isCancelled. "
                    + "libdispatch never interrupts a block, so it runs to its end unless it looks at the flag "
                    + "itself."
            )
        case .handedTo:
            return (
                .opCancelHandedTo,
                "cancel() on \(name), handed to a worker but not started (\(detail)): start() will see isCancelled "
                    + "and finish without calling main()."
            )
        case .alreadyFinished, .alreadyCancelled:
            return (
                .opCancelNoEffect,
                "cancel() on \(name): \(detail). Cancelling an operation that finished, or twice, changes nothing."
            )
        }
    }

    /// An `opFinish` is recorded on the thread the operation was handed to: that worker is free again.
    private static func finish(
        _ name: String, _ outcome: LoopEvent.FinishOutcome, on worker: String, detail: String
    ) -> (case: Case, text: String) {
        let freed = " Its worker \(worker) is free: in this model its idle timer starts."
        switch outcome {
        case .cancelledBeforeStart:
            return (
                .opFinishCancelledBeforeStart,
                "\(name) finished without running: it was cancelled before it started. It still counts as finished "
                    + "for the operations that depend on it.\(freed)"
            )
        case .cancelledWhileRunning:
            return (
                .opFinishCancelledWhileRunning,
                "\(name) saw isCancelled at a check point and returned early: cancelled while running.\(freed)"
            )
        case .doneAfterLateCancel:
            return (
                .opFinishDoneAfterLateCancel,
                "\(name) ran to the end although it was cancelled: the cancel came after its last check point.\(freed)"
            )
        case .workItemSkipped:
            return (
                .opFinishWorkItemSkipped,
                "The queue reached the cancelled work item \(name) and skipped it: its block never ran, and the "
                    + "queue moved on at once (its notify blocks still run).\(freed)"
            )
        case .workItemRanDespiteCancel:
            return (
                .opFinishWorkItemRanDespiteCancel,
                "\(name)'s block ran to its end although the work item was cancelled while it ran: cancelling a "
                    + "work item stops only what has not started.\(freed)"
            )
        case .blockDone:
            return (
                .opFinishBlockDone,
                "\(name)'s block returned. A dispatch block has no dependents: its queue starts its next block, "
                    + "at once on a serial queue, as its width allows on a concurrent one.\(freed)"
            )
        case .done:
            return (
                .opFinishDone,
                "\(name) finished (\(detail)). Operations that depend on it may become ready, and the queue starts "
                    + "what its limit now allows.\(freed)"
            )
        }
    }
}
