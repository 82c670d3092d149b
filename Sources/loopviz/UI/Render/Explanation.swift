import LoopEngine

/// The "Why" line: one or two sentences for the current step, naming the rule that produced it.
enum Explanation {
    static func text(for index: Int, in trace: LoopTrace) -> String {
        let event = trace[index]
        let name = event.name ?? ""
        switch event.kind {
        case .runStart:
            return "CFRunLoopRunInMode(\(name)) starts (\(event.detail ?? "")). An empty or unknown mode would "
                + "return finished at once, without calling any observer."
        case .entry:
            return "The mode has a source or a timer, so the run begins: observers see entry."
        case .beforeTimers:
            return "Iteration \(event.iteration): beforeTimers is only a notice - no timer fires here. Timers fire "
                + "after the wait, when the timer port is the one that woke the loop."
        case .beforeSources:
            return "beforeSources: next the loop runs queued blocks, then every signalled version-0 source."
        case .source0:
            return "source0 \(name) was signalled, so it is performed now. Because a source0 ran, this iteration "
                + "polls instead of sleeping: no beforeWaiting, no afterWaiting."
        case .block:
            return "A block queued with CFRunLoopPerformBlock for this mode runs in a blocks pass (three per "
                + "iteration). Queuing a block never wakes the loop."
        case .beforeWaiting:
            return "Nothing was performed this iteration, so the loop is about to sleep: observers see beforeWaiting "
                + "(a hang monitor stops its watchdog here)."
        case .sleep:
            if event.wait?.isPoll == true {
                return "No beforeWaiting: a source0 was performed in this iteration (or the time limit is 0), so the "
                    + "loop polls its ports without sleeping."
            }
            return "The thread sleeps in the kernel \(event.detail ?? ""). Only a port (a message, the timer port, "
                + "a wake-up) ends the wait; a signalled source0 does not."
        case .wake:
            return "The wait returned because of \(event.detail ?? "nothing"). Exactly one port is taken per wait; "
                + "others stay ready for the next iteration."
        case .afterWaiting:
            return "afterWaiting: the loop woke up. What woke it is handled now - a timer fires only here."
        case .timer:
            if let due = event.lateDue {
                return "timer \(name) fires late (due \(due)): it fires once for every missed tick, then keeps its "
                    + "original grid."
            }
            return "The timer port woke the loop and timer \(name) is due: it fires. A repeating timer moves to the "
                + "next point of its grid after now."
        case .source1:
            return "A message on port \(name) woke the loop by itself (no wake-up needed); one port is served per "
                + "iteration\(event.detail.map { ", \($0) read at once" } ?? "")."
        case .observer:
            return "Observer \(name) is called for \(event.detail ?? "an activity"), in ascending order; a one-shot "
                + "observer is invalidated after its first call."
        case .mainQueue:
            return "The main thread drains the libdispatch main queue (block \(name)); this counts as a handled source."
        case .perform:
            return "Task \(name) sent with performSelector:onThread: runs from the thread's perform source (a source0)."
        case .exit:
            return "The run ends: observers see exit, whatever the result."
        case .result:
            guard case .result(let result) = event.fact else { return "The run returned \(name)." }
            return resultText(result)
        case .enqueue:
            return "Block \(name) is queued (\(event.detail ?? "")). It runs in the next blocks pass of a run in one "
                + "of those modes; queuing never wakes a sleeping loop."
        case .signal:
            return "\(name) is signalled. A signal does not wake a sleeping loop: it waits for something that does."
        case .send:
            return "A message is sent to port \(name): the port becomes ready and wakes a sleeping loop by itself."
        case .wakeUp:
            if event.wasIgnored, let detail = event.detail {
                return "CFRunLoopWakeUp is ignored (\(detail)): the loop checks for work before it sleeps again anyway."
            }
            return "CFRunLoopWakeUp writes the wake-up port\(event.detail.map { " (\($0))" } ?? ""): the next wait "
                + "returns at once."
        case .stop:
            if event.wasIgnored {
                return "CFRunLoopStop with no run active does nothing: a stop before a run is not remembered."
            }
            return "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration "
                + "unless handledSource or timedOut wins."
        case .schedule:
            return "Source \(name) is added to \(event.detail ?? "a mode"): its schedule callout runs."
        case .cancel:
            return "Source \(name) is removed from \(event.detail ?? "a mode"): its cancel callout runs."
        case .note:
            return event.detail ?? ""
        case .opAdd, .opReady, .opStart, .opCancel, .opFinish, .threadCreate, .threadExit, .queue:
            return poolText(event)
        }
    }

    static func resultText(_ result: RunResult) -> String {
        switch result {
        case .finished: "finished: the mode has no source and no timer left (observers do not count)."
        case .stopped: "stopped: CFRunLoopStop reached this run. RunLoop.run() would simply run it again."
        case .timedOut: "timedOut: the run's time limit passed (checked after every iteration)."
        case .handledSource: "handledSource: returnAfterSourceHandled was set and a source was performed."
        }
    }

    /// The rule behind a pool event (its fact says which case it is).
    static func poolText(_ event: LoopEvent) -> String {
        let name = event.name ?? ""
        let detail = event.detail ?? ""
        switch event.kind {
        case .opAdd:
            if case .operation(let operation) = event.fact, !operation.dependencies.isEmpty {
                return "addOperation(\(name)) on \(event.loop) (\(detail)). It depends on "
                    + operation.dependencies.joined(separator: ", ")
                    + ": it stays pending, not ready, until they finish "
                    + "(a cancelled dependency counts as finished)."
            }
            return "addOperation(\(name)) on \(event.loop) (\(detail)). Nothing to wait for, so it becomes ready "
                + "at once; it starts when the queue has a free slot and is not suspended."
        case .opReady:
            return "\(name) is ready. The queue starts ready operations highest priority first (veryHigh to "
                + "veryLow), the first added first within a level, while fewer than maxConcurrentOperationCount "
                + "execute and the queue is not suspended."
        case .opStart:
            if case .thread(.reused(let before)) = event.fact {
                return
                    "\(name) starts on \(event.loop), an idle worker reused (\(before) before): no thread is created. "
                    + "Between operations a worker sleeps in its run loop, kept alive by a port."
            }
            return "\(name) starts on \(event.loop), a thread just created for it: every worker was busy and the "
                + "queue was under its limit. A pool creates threads only when it must."
        case .opCancel:
            guard case .cancel(let point) = event.fact else { return "cancel() on \(name)." }
            switch point {
            case .queued:
                return "cancel() on \(name) while it waits in the queue: it finishes when the queue starts it, "
                    + "without running, and operations that depend on it may become ready."
            case .executingConnection:
                return "cancel() on the upload \(name): cancelling it cancels its connection, whose callback "
                    + "arrives on the socket and finishes the operation on its worker's run loop."
            case .executingNextCheck:
                return "cancel() on \(name) while it runs only sets isCancelled: it stops at its next check of the "
                    + "flag. An operation that never checks runs to the end."
            case .handedTo:
                return "cancel() on \(name), handed to a worker but not started (\(detail)): start() will see "
                    + "isCancelled and finish without calling main()."
            case .alreadyFinished, .alreadyCancelled:
                return "cancel() on \(name): \(detail). Cancelling an operation that finished, or twice, changes "
                    + "nothing."
            }
        case .opFinish:
            let freed = event.loop.contains(".") ? " Its worker \(event.loop) is free: its idle timer starts." : ""
            switch event.fact {
            case .finish(.cancelledBeforeStart):
                return "\(name) finished without running: it was cancelled before it started. It still counts as "
                    + "finished for the operations that depend on it.\(freed)"
            case .finish(.cancelledWhileRunning):
                return "\(name) saw isCancelled at a check point and returned early: cancelled while running.\(freed)"
            case .finish(.doneAfterLateCancel):
                return "\(name) ran to the end although it was cancelled: the cancel came after its last check "
                    + "point.\(freed)"
            default:
                break
            }
            return "\(name) finished (\(detail)). Operations that depend on it may become ready, and the queue "
                + "starts what its limit now allows.\(freed)"
        case .threadCreate:
            if case .origin(let origin) = event.fact, origin.queue != nil {
                return "A new worker thread \(event.loop) (\(detail)): no idle worker was free. It runs a run loop "
                    + "kept alive by a port, so it can sleep between operations instead of exiting."
            }
            return "Thread.detachNewThread: \(event.loop) is created for one task (\(detail)) and exits after it - "
                + "a thread per task, the cost a pool saves."
        case .threadExit:
            if case .end(.idle) = event.fact {
                return "\(event.loop) is retired (\(detail)): the one-shot idle timer on its loop fired with no "
                    + "work, so the thread stops its loop and exits. The next operation needs a new thread."
            }
            return "Thread \(event.loop) ends (\(detail))."
        case .queue:
            switch event.fact {
            case .queue(.suspended):
                return "isSuspended = true on \(event.loop): nothing new starts; operations already executing go on."
            case .queue(.resumed):
                return "isSuspended = false on \(event.loop): ready operations start again, up to the limit."
            case .limit:
                return "maxConcurrentOperationCount = \(detail) on \(event.loop). Raising it starts ready operations "
                    + "at once; lowering it stops nothing that executes - the queue just starts fewer."
            case .queue(.cancelAll):
                return "cancelAllOperations() on \(event.loop): every operation not finished is cancelled, in the "
                    + "order they were added. Queued ones finish at once; running ones at their next check."
            case .queue(.waitAll):
                return "waitUntilAllOperationsAreFinished on \(event.loop): the calling thread blocks until every "
                    + "operation has finished."
            default:
                return "Queue \(event.loop): \(name) \(detail)."
            }
        default:
            return ""
        }
    }
}
