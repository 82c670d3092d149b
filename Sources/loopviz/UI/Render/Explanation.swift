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
        case poll, sleep, sleepTimerOverdue, sleepTimerDueNow, sleepTimeLimitPassed
        case sleepPortReady, sleepWakeUpPending, sleepMainQueueReady, sleepStaleTimerPort, sleepReadinessUnknown
        case wakeNothing, wakeWakeUpPort, wakeTimerPort, wakeMainQueue, wakePort, wakeUnknownPort
        case afterWaiting, beforeWaitingRecorded
        case timer, timerLateMissedTicks, timerLateRepeating, timerLateOneShot, timerFireRepeating, timerFireOneShot
        case source1, observer, mainQueue, perform, performOrdered, performDelayed, exit
        case mainActorTaskStart, mainActorResumedAfterYield, mainActorResumedAfterSleep, mainQueueWithoutLoop
        case asyncMainLeaves, asyncMainRunsLoop, asyncMainExit, asyncMainExitOnStop
        case asyncAfterHandler, asyncAfterTeardown
        case resultFinished, resultStopped, resultTimedOut, resultHandledSource
        case enqueue, signal, signalPortIgnored, send
        case wakeUp, wakeUpByStop, wakeUpByTimeLimit, wakeUpBySetNextFireDate, wakeUpNoRun, wakeUpAfterTheWait
        case stop, stopDuringEntry, stopDuringExit, stopMode, stopNoRun
        case schedule, cancel, note, addDeclined
        case invalidateTimer, invalidateObserver, invalidateSource0, invalidatePort
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
        case queryNextFireDate, queryAllModes, queryInterval, queryTolerance, queryRepeats
        /// An event whose facts are missing (a trace made by hand): the event in the trace's words.
        case plain
    }

    /// What a trace can know. A loopviz trace (an engine's run, or its JSONL export) has every event and fact; a
    /// recording made by LoopRecorder holds only the observer activities a program's observer saw and its marks,
    /// so an explanation of it must not claim what happened between them (which source ran, what woke the loop).
    enum Knowledge: Sendable {
        case everyEvent
        case observerActivitiesOnly
    }

    static func text(for index: Int, in trace: LoopTrace, knowing knowledge: Knowledge = .everyEvent) -> String {
        explain(trace[index], knowing: knowledge).text
    }

    /// The case and the words for `event`, decided together so they cannot disagree.
    static func explain(_ event: LoopEvent, knowing knowledge: Knowledge = .everyEvent) -> (case: Case, text: String) {
        let name = event.name ?? ""
        if knowledge == .observerActivitiesOnly, event.kind == .beforeWaiting {
            return (
                .beforeWaitingRecorded,
                "beforeWaiting: the loop is about to wait for a port (CF notifies it only in an iteration that does "
                    + "not poll). A recording holds only observer activities: what ran before it is not in it."
            )
        }
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
                "Iteration \(event.iteration): beforeTimers is only a notice - no timer fires here. A due timer "
                    + "fires when the wait, or a poll, returns the timer port."
            )
        case .beforeSources:
            return (
                .beforeSources,
                "beforeSources: next the loop runs the blocks queued for this mode, then the signalled version-0 "
                    + "sources (only the first one performed when the run returns after a handled source)."
            )
        case .source0:
            return (
                .source0,
                "source0 \(name) was signalled, so it is performed now. Because a source0 ran, this iteration "
                    + "does not sleep: no beforeWaiting, no afterWaiting."
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
                "No source0 was handled in this iteration, so the loop is about to wait: observers see "
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
                    + "is handled next: a timer, a port or the main queue."
            )
        case .timer:
            return timer(event)
        case .source1:
            let many = event.messagesConsumed > 1 ? ", \(event.messagesConsumed) messages read at once" : ""
            return (
                .source1,
                "Port \(name) had a message, and the wait (or a poll) took it: a port needs no "
                    + "wake-up; one port is served per iteration\(many)."
            )
        case .observer:
            return (
                .observer,
                "Observer \(name) is called for \(event.detail ?? "an activity"), in ascending order; a one-shot "
                    + "observer is invalidated after its first call."
            )
        case .mainQueue:
            // Only libdispatch itself runs a main-queue job outside every run: after an async main's
            // dispatch_main() (the core's `serveMainQueueWithoutLoop`).
            if event.depth == 0 {
                return (
                    .mainQueueWithoutLoop,
                    "Main-queue job \(name)\(event.detail.map { " (\($0))" } ?? "") runs on a libdispatch worker "
                        + "thread: the async main's first await called dispatch_main(), so the main queue is served "
                        + "like any serial queue, first in first out, as soon as a job is queued; no run loop runs "
                        + "it, and Thread.isMainThread is false in it."
                )
            }
            if case .job(let job) = event.fact { return mainQueueJob(job, name) }
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
            case .stop(.exit):
                return (
                    .stopDuringExit,
                    "CFRunLoopStop from an exit observer: this run has its result already, so the stop changes "
                        + "nothing - it is discarded when the run returns, and stops neither an outer run nor the next."
                )
            case .stop(.entry):
                return (
                    .stopDuringEntry,
                    "CFRunLoopStop from an entry observer: the run has not begun its first iteration, so it ends "
                        + "stopped at once, before any iteration; the wake-up it writes stays pending for the next run."
                )
            default:
                return (
                    .stop,
                    "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration "
                        + "unless handledSource or timedOut wins (the stop is then lost)."
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
        case .invalidate:
            return invalidation(event)
        case .note:
            if case .note(.addDeclined(let item, let kind, let holder)) = event.fact {
                return addDeclined(item, kind, holder, here: event.loop)
            }
            if case .note(let note) = event.fact, let words = asyncMain(note) { return words }
            return (.note, event.detail ?? "")
        case .command:
            return command(event)
        case .query:
            return query(event)
        case .opAdd, .opReady, .opStart, .opCancel, .opFinish, .threadCreate, .threadExit, .queue:
            return pool(event)
        }
    }

    /// A main-queue job that is a main-actor task's or an `asyncAfter`'s (docs/concurrency.md).
    private static func mainQueueJob(_ job: MainQueueJob, _ name: String) -> (case: Case, text: String) {
        switch job {
        case .taskStart:
            return (
                .mainActorTaskStart,
                "Main-actor task \(name) starts: its first job is a main-queue item, drained with the "
                    + "DispatchQueue.main.async blocks in the order they were queued; this counts as a handled source."
            )
        case .resumed(after: .yield):
            return (
                .mainActorResumedAfterYield,
                "Main-actor task \(name) resumes after Task.yield(): the rest went through the global executor "
                    + "to the back of the main queue, so it runs in the next drain, one loop turn later; this counts "
                    + "as a handled source."
            )
        case .resumed(after: .sleep(let duration)):
            return (
                .mainActorResumedAfterSleep,
                "Main-actor task \(name) resumes after sleeping \(LoopEvent.seconds(duration)): a libdispatch "
                    + "timer queued the rest on the main queue, which only a common-mode run of the main thread "
                    + "drains; this counts as a handled source."
            )
        case .asyncAfter(let delay):
            return (
                .asyncAfterHandler,
                "The asyncAfter handler \(name) (\(LoopEvent.seconds(delay))) runs: its libdispatch timer queued it "
                    + "on the main queue, drained like a DispatchQueue.main.async block; this counts as a handled "
                    + "source."
            )
        case .asyncAfterTeardown:
            return (
                .asyncAfterTeardown,
                "libdispatch's teardown job after the asyncAfter handler \(name) runs nothing of the program's, "
                    + "yet its drain counts as a handled source: asyncAfter costs one more loop turn."
            )
        }
    }

    static func plain(_ event: LoopEvent) -> (case: Case, text: String) {
        (.plain, event.step + (event.detail.map { " (\($0))" } ?? "") + ".")
    }

    private static func sleep(_ event: LoopEvent) -> (case: Case, text: String) {
        guard case .sleep(let timer, let limit, let ready) = event.wait else {
            return (
                .poll,
                "No beforeWaiting: a source0 was handled in this iteration (or the time limit is 0), so the "
                    + "loop polls its ports without sleeping."
            )
        }
        // A port the kernel holds ready already ends the wait at once (docs/cfrunloop.md §2.2 L10, §8, §9.2).
        switch ready {
        case .port(let port, let messages)?:
            let count = messages == 1 ? "a message" : "\(messages) messages"
            return (
                .sleepPortReady,
                "Port \(port) holds \(count) already: the wait returns it at once, so the thread does not really "
                    + "sleep."
            )
        case .wakeUpPort?:
            if let limit, limit <= event.time { return timeLimitPassed(limit) }
            return (
                .sleepWakeUpPending,
                "The wake-up port was written already (a CFRunLoopWakeUp - your code's, a stop's or a fire date's - "
                    + "not consumed yet, perhaps left by an earlier run): the wait returns at once."
            )
        case .mainQueue?:
            return (
                .sleepMainQueueReady,
                "A block waits on the main queue: its port is ready already, so the wait returns at once."
            )
        case .timerPort?, nil:
            // A deadline already past (a timer that came due while another mode ran) arms a port that is ready
            // now; a deadline now is due, not late (docs/cfrunloop.md §9.1, §9.2, §9.4).
            if let timer, timer.fireTime < event.time {
                return (
                    .sleepTimerOverdue,
                    "Timer \(timer.name) was due at \(timer.fireTime) and is overdue: its port is ready already, so "
                        + "the wait returns at once and the timer fires late."
                )
            }
            if let timer, timer.fireTime == event.time {
                return (
                    .sleepTimerDueNow,
                    "Timer \(timer.name) is due now (\(timer.fireTime)): its port is ready, so the wait returns at "
                        + "once and the timer fires."
                )
            }
            if ready == .timerPort {
                return (
                    .sleepStaleTimerPort,
                    "The mode's timer port is ready already, though no timer of it is due: it holds the expiry of a "
                        + "deadline that passed (Linux never disarms a timer port, and a re-arm keeps an expiry not read "
                        + "yet), so the wait returns at once, for nothing."
                )
            }
        case .nothing?, .unknownPort?:
            break
        }
        if let limit, limit <= event.time { return timeLimitPassed(limit) }
        let rule =
            "Only a port (a message, the timer port, a wake-up, which is also how the time limit arrives) ends "
            + "the wait; a signalled source0 does not."
        guard ready != nil else {
            return (
                .sleepReadinessUnknown,
                "The thread waits in the kernel \(event.detail ?? ""). \(rule) A real loop's trace cannot say whether "
                    + "a port was ready already, which would end the wait at once."
            )
        }
        return (.sleep, "The thread sleeps in the kernel \(event.detail ?? ""). \(rule)")
    }

    /// A sleep after the run's time limit: CF's timeout timer has written the wake-up port (or does at this
    /// instant); it cannot have been dropped, since a limit passed after the wait ends the run at L14 instead.
    private static func timeLimitPassed(_ limit: LoopInstant) -> (case: Case, text: String) {
        (
            .sleepTimeLimitPassed,
            "The run's time limit (\(limit)) has passed already: its timeout timer called CFRunLoopWakeUp at the "
                + "limit, so the wait returns at once and the run ends at the end of this iteration."
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
        if case .fireCalled(let repeats) = event.fact {
            let after =
                repeats
                ? "It repeats, so it stays valid and keeps its schedule: the loop still fires it at its next date."
                : "It does not repeat, so fire() invalidates it after the callout: it leaves every mode."
            return (
                repeats ? .timerFireRepeating : .timerFireOneShot,
                "The program called Timer.fire() on timer \(name): Foundation calls its callout at once, on this "
                    + "thread, outside the loop's timer pass - the timer port plays no part. \(after)"
            )
        }
        guard case .late(let due, let missed, let cause) = event.fact else {
            return (
                .timer,
                "The timer port was taken (by the wait, or by a poll) and timer \(name) is due: "
                    + "it fires. A one-shot timer is invalidated; a repeating one moves to the next point of its grid."
            )
        }
        let why = lateReason(cause, mode: event.mode ?? "its mode")
        switch missed {
        case let missed? where missed > 0:
            let ticks = missed == 1 ? "1 tick" : "\(missed) ticks"
            return (
                .timerLateMissedTicks,
                "timer \(name) fires late (due \(due)): \(why). \(ticks) of its grid went by meanwhile: CF fires a "
                    + "late repeating timer once, not once per missed tick, then resumes its original grid at the "
                    + "next point after now; the missed ticks are dropped."
            )
        case .some:
            return (
                .timerLateRepeating,
                "timer \(name) fires late (due \(due)): \(why). No tick of its grid was missed: it fires once and "
                    + "keeps its grid, the next fire is one interval after \(due)."
            )
        case nil:
            return (
                .timerLateOneShot,
                "One-shot timer \(name) fires late (due \(due)): \(why). It fires once and is invalidated."
            )
        }
    }

    /// Why a late fire is late, only as the engine's fact says it (nil: a trace that does not say).
    static func lateReason(_ cause: LoopEvent.LateCause?, mode: String) -> String {
        switch cause {
        case .busy:
            "the loop was busy past its deadline (in a callout or its own pass; a timer fires only when the timer "
                + "port is taken)"
        case .modeNotRunning:
            "\(mode) was not the running mode at its deadline (the loop ran another mode, or no run at all), and a "
                + "timer fires only while one of its modes runs"
        case .addedAfterDue:
            "it was added to \(mode) after its fire date, so it fires at once"
        case .sleptPast:
            "the loop slept in \(mode) past its deadline (the timer port was armed for later, at the end of its "
                + "tolerance, or the thread woke late)"
        case nil:
            "its deadline passed before it could fire (the trace does not say why)"
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
                "CFRunLoopStop also calls CFRunLoopWakeUp: the wake-up port is written, so a sleeping loop wakes and "
                    + "the run can end; a loop not asleep finds it ready at its next wait (this run's, or the next run's)."
            )
        case .timeout:
            return (
                .wakeUpByTimeLimit,
                "The run's time limit passed: CF's timeout timer (a libdispatch timer, not your code) calls "
                    + "CFRunLoopWakeUp. The wait returns (at once, if the loop is not asleep yet) and the run ends "
                    + "timedOut, unless a handled source wins (returnAfterSourceHandled)."
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
                "stopped: CFRunLoopStop (or a mode's sticky stop) reached this run, and ends only it; its caller "
                    + "decides what follows (RunLoop.run() starts another run while the default mode is not empty)."
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
