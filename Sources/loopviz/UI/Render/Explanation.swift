import LoopEngine

/// The "Why" line: one or two sentences for the current step, naming the rule that produced it.
///
/// Every sentence is chosen by the event's kind and its typed facts (``LoopEvent/Fact``), never by its text or
/// its names; ``Case`` lists every distinct explanation, so the table test (`ExplanationTableTests`) can demand
/// a scenario and the exact words for each one.
enum Explanation {
    /// Which explanation an event gets. A new sentence needs a new case, and a new case needs a row in the table
    /// test.
    enum Case: String, CaseIterable {
        case runStart, entry, beforeTimers, beforeSources, source0, block, beforeWaiting
        case poll, sleep, sleepTimerOverdue, sleepTimeLimitPassed
        case wakeNothing, wakeWakeUpPort, wakeTimerPort, wakeMainQueue, wakePort, wakeUnknownPort
        case afterWaiting
        case timer, timerLateMissedTicks, timerLateRepeating, timerLateOneShot
        case source1, observer, mainQueue, perform, performOrdered, performDelayed, exit
        case resultFinished, resultStopped, resultTimedOut, resultHandledSource
        case enqueue, signal, signalPortIgnored, send
        case wakeUp, wakeUpByStop, wakeUpByTimeLimit, wakeUpBySetNextFireDate, wakeUpNoRun, wakeUpAfterTheWait
        case stop, stopMode, stopNoRun
        case schedule, cancel, note
        case commandPosted, commandRefused, commandPerformed, commandDropped
        case opAddWithDependencies, opAdd, opReady
        case opStartNewThread, opStartFirstSeenThread, opStartReusedThread
        case opCancelQueued, opCancelConnection, opCancelNextCheck, opCancelHandedTo, opCancelNoEffect
        case opFinishDone, opFinishDoneAfterLateCancel, opFinishCancelledBeforeStart, opFinishCancelledWhileRunning
        case opAddBlock, opAddWorkItem, opCancelWorkItemQueued, opCancelWorkItemRunning
        case opFinishWorkItemSkipped, opFinishWorkItemRanDespiteCancel, opFinishBlockDone
        case threadCreateWorker, threadCreateDispatch, threadCreateDetached, threadExitIdle, threadExitTaskDone
        case queueSuspended, queueResumed, queueLimit, queueCancelAll, queueWaitAll
        case queryCurrentMode, queryLimitDate, queryNextTimerFireDate, queryIsWaiting, queryContains, queryIsValid
        case queryNextFireDate, queryAllModes
        /// An event whose facts are missing (a trace made by hand): the event in the trace's words.
        case plain
    }

    static func text(for index: Int, in trace: LoopTrace) -> String {
        explain(trace[index]).text
    }

    /// The case and the words for `event`, decided together so they cannot disagree.
    static func explain(_ event: LoopEvent) -> (case: Case, text: String) {
        let name = event.name ?? ""
        switch event.kind {
        case .runStart:
            return (
                .runStart,
                "CFRunLoopRunInMode(\(name)) starts (\(event.detail ?? "")). An empty or unknown mode would "
                    + "return finished at once, without calling any observer."
            )
        case .entry:
            return (
                .entry,
                "The mode is not empty (a source, a timer or a block for it; on the main thread every common mode), "
                    + "so the run begins: observers see entry."
            )
        case .beforeTimers:
            return (
                .beforeTimers,
                "Iteration \(event.iteration): beforeTimers is only a notice - no timer fires here. Timers fire "
                    + "after the wait, when the timer port is the one that woke the loop."
            )
        case .beforeSources:
            return (
                .beforeSources,
                "beforeSources: next the loop runs the blocks queued for this mode, then every signalled version-0 "
                    + "source."
            )
        case .source0:
            return (
                .source0,
                "source0 \(name) was signalled, so it is performed now. Because a source0 ran, this iteration "
                    + "polls instead of sleeping: no beforeWaiting, no afterWaiting."
            )
        case .block:
            return (
                .block,
                "A block queued with CFRunLoopPerformBlock for this mode runs in a blocks pass (before the source0s, "
                    + "after them when one ran, and after the wait). Queuing a block never wakes the loop."
            )
        case .beforeWaiting:
            return (
                .beforeWaiting,
                "No source0 was performed in this iteration, so the loop is about to sleep: observers see "
                    + "beforeWaiting (a hang monitor stops its watchdog here)."
            )
        case .sleep:
            return sleep(event)
        case .wake:
            return wake(event)
        case .afterWaiting:
            return (
                .afterWaiting,
                "afterWaiting: the loop woke up (observers see it even when the wake brings no work). What woke it "
                    + "is handled next - a timer fires only there."
            )
        case .timer:
            return timer(event)
        case .source1:
            let many = event.messagesConsumed > 1 ? ", \(event.messagesConsumed) messages read at once" : ""
            return (
                .source1,
                "A message on port \(name) ended the wait by itself (no wake-up needed); one port is served per "
                    + "iteration\(many)."
            )
        case .observer:
            return (
                .observer,
                "Observer \(name) is called for \(event.detail ?? "an activity"), in ascending order; a one-shot "
                    + "observer is invalidated after its first call."
            )
        case .mainQueue:
            return (
                .mainQueue,
                "The main thread drains the libdispatch main queue (block \(name)); this counts as a handled source."
            )
        case .perform:
            if case .order(let order) = event.fact {
                return (
                    .performOrdered,
                    "Task \(name) (performSelector:target:argument:order:modes:, order \(order)) runs from the "
                        + "orderedPerform timer: each queued request of this mode once, lower order first."
                )
            }
            if case .delayed(let delay) = event.fact {
                return (
                    .performDelayed,
                    "Task \(name) (performSelector:withObject:afterDelay:, \(LoopEvent.seconds(delay))) runs from its "
                        + "own one-shot delayedPerform timer, once, when the loop runs in one of its modes."
                )
            }
            return (
                .perform,
                "Task \(name) sent with performSelector:onThread: runs from the thread's perform source (a source0)."
            )
        case .exit:
            return (.exit, "The run ends: observers see exit, whatever the result.")
        case .result:
            guard case .result(let result) = event.fact else { return plain(event) }
            return result.explanation
        case .enqueue:
            return (
                .enqueue,
                "Block \(name) is queued (\(event.detail ?? "")). It runs in the next blocks pass of a run in one "
                    + "of those modes; queuing never wakes a sleeping loop."
            )
        case .signal:
            if case .ignored(.portSource) = event.fact {
                return (
                    .signalPortIgnored,
                    "\(name) is a port source: CF takes the signal and ignores it - a port source is performed only "
                        + "for a message on its port. Only a wake-up that comes with it has an effect."
                )
            }
            return (
                .signal,
                "\(name) is signalled. A signal does not wake a sleeping loop: it waits for something that does."
            )
        case .send:
            return (
                .send, "A message is sent to port \(name): the port becomes ready and wakes a sleeping loop by itself."
            )
        case .wakeUp:
            return wakeUp(event)
        case .stop:
            switch event.fact {
            case .ignored:
                return (
                    .stopNoRun, "CFRunLoopStop with no run active does nothing: a stop before a run is not remembered."
                )
            case .mode(let mode):
                return (
                    .stopMode,
                    "_CFRunLoopStopMode(\(mode)) sets a sticky stop on the mode itself, even when it is not running: the "
                        + "run of \(mode) that sees it ends stopped and clears it - a running one at the end of its "
                        + "iteration, the next one right after entry."
                )
            default:
                return (
                    .stop,
                    "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration "
                        + "unless handledSource or timedOut wins."
                )
            }
        case .schedule:
            return (
                .schedule,
                "Source \(name) is added to \(event.detail ?? "a mode"): a version-0 source's schedule callout runs; "
                    + "a port source's port joins the mode's wait set."
            )
        case .cancel:
            return (
                .cancel,
                "Source \(name) is removed from \(event.detail ?? "a mode"): a version-0 source's cancel callout runs; "
                    + "a port source's port leaves the mode's wait set."
            )
        case .note:
            return (.note, event.detail ?? "")
        case .command:
            return command(event)
        case .query:
            return query(event)
        case .opAdd, .opReady, .opStart, .opCancel, .opFinish, .threadCreate, .threadExit, .queue:
            return pool(event)
        }
    }

    static func plain(_ event: LoopEvent) -> (case: Case, text: String) {
        (.plain, event.step + (event.detail.map { " (\($0))" } ?? "") + ".")
    }

    private static func sleep(_ event: LoopEvent) -> (case: Case, text: String) {
        guard case .sleep(let timer, let limit) = event.wait else {
            return (
                .poll,
                "No beforeWaiting: a source0 was performed in this iteration (or the time limit is 0), so the "
                    + "loop polls its ports without sleeping."
            )
        }
        // A deadline already past (a timer that came due while another mode ran) arms a port that is ready
        // now: the kernel returns at once (docs/cfrunloop.md §9.2, §9.4).
        if let timer, timer.fireTime <= event.time {
            return (
                .sleepTimerOverdue,
                "Timer \(timer.name) was due at \(timer.fireTime) and is overdue: its port is ready already, so the "
                    + "wait returns at once and the timer fires late."
            )
        }
        if let limit, limit <= event.time {
            return (
                .sleepTimeLimitPassed,
                "The run's time limit (\(limit)) has passed already: its wake-up is ready, so the wait returns at "
                    + "once and the run ends at the end of this iteration."
            )
        }
        return (
            .sleep,
            "The thread sleeps in the kernel \(event.detail ?? ""). Only a port (a message, the timer port, a "
                + "wake-up, which is also how the time limit arrives) ends the wait; a signalled source0 does not."
        )
    }

    private static func wake(_ event: LoopEvent) -> (case: Case, text: String) {
        switch event.wakeCause {
        case .nothing, nil:
            return (
                .wakeNothing, "The poll found no port ready (or the read found nothing): there is nothing to handle."
            )
        case .wakeUpPort:
            return (
                .wakeWakeUpPort,
                "The wait returned because the loop's wake-up port was written (CFRunLoopWakeUp, CFRunLoopStop or "
                    + "the run's time limit - the wakeUp before says which). It brings no work of its own."
            )
        case .timerPort:
            return (
                .wakeTimerPort,
                "The wait returned the timer port: the deadline it was armed for passed. Exactly one port is taken per wait; "
                    + "others stay ready for the next iteration."
            )
        case .mainQueue:
            return (
                .wakeMainQueue,
                "The wait returned the main queue's port: a block was dispatched to the main queue. Exactly one "
                    + "port is taken per wait."
            )
        case .port(let port, _):
            return (
                .wakePort,
                "The wait returned port \(port): a message arrived. Exactly one port is taken per wait; others "
                    + "stay ready for the next iteration."
            )
        case .unknownPort:
            return (.wakeUnknownPort, "The wait returned \(event.detail ?? "a port") that no item of this mode owns.")
        }
    }

    private static func timer(_ event: LoopEvent) -> (case: Case, text: String) {
        let name = event.name ?? ""
        guard case .late(let due, let missed) = event.fact else {
            return (
                .timer,
                "The wait returned the timer port and timer \(name) is due: it fires. A one-shot timer is "
                    + "invalidated; a repeating one moves to the next point of its grid."
            )
        }
        switch missed {
        case let missed? where missed > 0:
            let ticks = missed == 1 ? "1 tick" : "\(missed) ticks"
            return (
                .timerLateMissedTicks,
                "timer \(name) fires late (due \(due)): \(ticks) of its grid went by meanwhile. CF fires a late "
                    + "repeating timer once, not once per missed tick, then resumes its original grid at the next "
                    + "point after now; the missed ticks are dropped."
            )
        case .some:
            return (
                .timerLateRepeating,
                "timer \(name) fires late (due \(due)): the loop was busy past its deadline, but no tick of its grid "
                    + "was missed. It fires once and keeps its grid: the next fire is one interval after \(due)."
            )
        case nil:
            return (
                .timerLateOneShot,
                "One-shot timer \(name) fires late (due \(due)): the loop was busy past its deadline. It fires once "
                    + "and is invalidated."
            )
        }
    }

    private static func wakeUp(_ event: LoopEvent) -> (case: Case, text: String) {
        guard case .wakeUp(let caller, let ignored) = event.fact else {
            return (.wakeUp, "CFRunLoopWakeUp writes the wake-up port: the next wait returns at once.")
        }
        switch ignored {
        case .noRun:
            return (
                .wakeUpNoRun,
                "CFRunLoopWakeUp is ignored: no run is active, so there is nothing to wake and it is not remembered."
            )
        case .afterTheWait:
            return (
                .wakeUpAfterTheWait,
                "CFRunLoopWakeUp is ignored: the loop is past its wait and not asleep; it runs the blocks again "
                    + "and checks the source0s and the stop flag before it sleeps again anyway."
            )
        case nil, .portSource:
            break
        }
        switch caller {
        case nil:
            return (.wakeUp, "CFRunLoopWakeUp writes the wake-up port: the next wait returns at once.")
        case .stop:
            return (
                .wakeUpByStop,
                "CFRunLoopStop wakes the loop: it writes the wake-up port, so the wait returns and the run can end."
            )
        case .timeout:
            return (
                .wakeUpByTimeLimit,
                "The run's own time limit passed: CF's timeout timer writes the wake-up port (nobody called "
                    + "CFRunLoopWakeUp), so the wait returns and the run ends timedOut."
            )
        case .setNextFireDate:
            return (
                .wakeUpBySetNextFireDate,
                "A timer's fire date was set from another thread, so CF also calls CFRunLoopWakeUp: the loop wakes "
                    + "for nothing (its timer port is armed for the new date already)."
            )
        }
    }
}

extension RunResult {
    /// What the result means, as the Why pane says it.
    var explanation: (case: Explanation.Case, text: String) {
        switch self {
        case .finished:
            (
                .resultFinished,
                "finished: the mode is empty - no source, no timer, no block for it (observers do not count)."
            )
        case .stopped:
            (
                .resultStopped,
                "stopped: CFRunLoopStop (or a mode's sticky stop) reached this run. RunLoop.run() would simply run it "
                    + "again."
            )
        case .timedOut: (.resultTimedOut, "timedOut: the run's time limit passed (checked after every iteration).")
        case .handledSource:
            (
                .resultHandledSource,
                "handledSource: returnAfterSourceHandled was set and a source (a source0, a port or the main queue) "
                    + "was performed."
            )
        }
    }
}
