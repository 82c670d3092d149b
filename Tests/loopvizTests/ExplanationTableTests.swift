import LoopEngine
import Testing

@testable import loopviz

/// Every explanation the UI gives, each with a scenario that makes it appear, the step, and its exact words.
/// ``Explanation/Case``, the documented view's rows and ``PoolNote/Kind`` are enumerated: a new explanation
/// without a row here fails `everyCaseHasARow`.
@Suite("every explanation has a scenario that triggers it and its exact words")
struct ExplanationTableTests {
    /// One Why-pane explanation: the scenario, the 1-based step it explains, what it says.
    struct Row: Sendable, CustomTestStringConvertible {
        var expected: Explanation.Case
        var scenario: ExplanationScenarios.Key
        var step: Int
        var text: String

        init(_ expected: Explanation.Case, _ scenario: ExplanationScenarios.Key, step: Int, _ text: String) {
            self.expected = expected
            self.scenario = scenario
            self.step = step
            self.text = text
        }

        var testDescription: String { "\(expected) (\(scenario) step \(step))" }
    }

    static let rows: [Row] = [
        Row(
            .commandPosted, .commands, step: 8,
            "The client adds command a to the queue of s (1 waiting). Posting neither signals the source nor wakes "
                + "its loop: the client does both next, or the command waits."
        ),
        Row(
            .commandRefused, .commands, step: 9,
            "The queue of s already holds 1 command, its limit: command b is not added. Only a perform of the "
                + "source empties the queue."
        ),
        Row(
            .commandPerformed, .commands, step: 17,
            "The perform of s drains its queue in order: command a runs now. Commands posted while it runs wait "
                + "for the next signal."
        ),
        Row(
            .commandDropped, .commands, step: 27,
            "s was invalidated with command c still queued: an invalid source is never performed again, so the "
                + "command never runs."
        ),
        Row(
            .opAddBlock, .dispatch, step: 1,
            "g.async { first }: the block joins the dispatch queue. async returns nothing, so no one holds "
                + "anything to cancel it with: once submitted, it runs - the thread-pool article's reason for "
                + "preferring NSOperationQueue."),
        Row(
            .opAddWorkItem, .dispatch, step: 7,
            "g.async(execute: skip): a DispatchWorkItem joins the dispatch queue. The caller keeps the item, so "
                + "skip.cancel() can still stop it - but only before its block starts."),
        Row(
            .opCancelWorkItemQueued, .dispatch, step: 11,
            "cancel() on the DispatchWorkItem skip before the queue reached it: libdispatch only marks it "
                + "cancelled. It keeps its place, and when its turn comes the queue skips its block - it never "
                + "runs - and goes straight on to the next one."),
        Row(
            .opFinishBlockDone, .dispatch, step: 20,
            "first's block returned. A dispatch block has no dependents: its queue starts its next block, at "
                + "once on a serial queue, as its width allows on a concurrent one. Its worker g.1 is free: in this "
                + "model its idle timer starts."),
        Row(
            .opFinishWorkItemSkipped, .dispatch, step: 34,
            "The queue reached the cancelled work item skip and skipped it: its block never ran, and the "
                + "queue moved on at once (its notify blocks still run). Its worker g.1 is free: in this model its "
                + "idle timer starts."),
        Row(
            .opCancelWorkItemRunning, .dispatch, step: 49,
            "cancel() on the DispatchWorkItem late while its block runs: it only sets isCancelled. libdispatch "
                + "never interrupts a block, so it runs to its end unless it looks at the flag itself."),
        Row(
            .opFinishWorkItemRanDespiteCancel, .dispatch, step: 50,
            "late's block ran to its end although the work item was cancelled while it ran: cancelling a work "
                + "item stops only what has not started. Its worker g.1 is free: in this model its idle timer "
                + "starts."),
        Row(
            .schedule, .loop, step: 1,
            "Source K is added to mode default: a version-0 source's schedule callout runs; a port source's port "
                + "joins the mode's wait set."),
        Row(
            .runStart, .loop, step: 4,
            "CFRunLoopRunInMode(default) starts (limit 0.600s). An empty or unknown mode would "
                + "return finished at once, without calling any observer."),
        Row(
            .entry, .loop, step: 5,
            "The mode is not empty (a source, a timer or a block for it; on the main thread every "
                + "common mode), so the run begins: observers see entry."),
        Row(
            .beforeTimers, .loop, step: 6,
            "Iteration 1: beforeTimers is only a notice - no timer fires here. A due timer fires when the "
                + "wait, or a poll, returns the timer port."),
        Row(
            .beforeSources, .loop, step: 7,
            "beforeSources: next the loop runs the blocks queued for this mode, then the signalled version-0 "
                + "sources (only the first one performed when the run returns after a handled source)."),
        Row(
            .beforeWaiting, .loop, step: 8,
            "No source0 was handled in this iteration, so the loop is about to wait: observers see "
                + "beforeWaiting (a hang monitor stops its watchdog here)."),
        Row(
            .observer, .loop, step: 9,
            "Observer o is called for beforeWaiting, in ascending order; a one-shot observer is "
                + "invalidated after its first call."),
        Row(
            .sleep, .loop, step: 10,
            "The thread sleeps in the kernel until timer tick at 0.100 or time limit at 0.600. "
                + "Only a port (a message, the timer port, a wake-up, which is also how the time limit "
                + "arrives) ends the wait; a signalled source0 does not."),
        Row(
            .signalPortIgnored, .portSignal, step: 8,
            "K is a port source: CF takes the signal and ignores it - a port source is performed only for a "
                + "message on its port. Only a wake-up that comes with it has an effect."),
        Row(
            .signal, .loop, step: 11,
            "busy is signalled. A signal does not wake a sleeping loop: it waits for something "
                + "that does."),
        Row(
            .wakeUp, .loop, step: 12,
            "CFRunLoopWakeUp writes the wake-up port: the next wait returns at once."),
        Row(
            .wakeWakeUpPort, .loop, step: 13,
            "The wait returned because the loop's wake-up port was written (CFRunLoopWakeUp, "
                + "CFRunLoopStop or the run's time limit - the wakeUp before says which). It brings no "
                + "work of its own."),
        Row(
            .afterWaiting, .loop, step: 14,
            "afterWaiting: the loop woke up (observers see it even when the wake brings no work). What woke "
                + "it is handled next: a timer, a port or the main queue."),
        Row(
            .source0, .loop, step: 17,
            "source0 busy was signalled, so it is performed now. Because a source0 ran, this iteration does "
                + "not sleep: no beforeWaiting, no afterWaiting."),
        Row(
            .poll, .loop, step: 18,
            "No beforeWaiting: a source0 was handled in this iteration (or the time limit is 0), so the loop "
                + "polls its ports without sleeping."),
        Row(
            .wakeTimerPort, .loop, step: 19,
            "The wait returned the timer port: the deadline it was armed for passed. Exactly one "
                + "port is taken per wait; others stay ready for the next iteration."),
        Row(
            .timerLateMissedTicks, .loop, step: 20,
            "timer tick fires late (due 0.100): the loop was busy past its deadline (in a callout or its own "
                + "pass; a timer fires only when the timer port is taken). 2 ticks of its grid went by meanwhile: "
                + "CF fires a late repeating timer once, not once per missed tick, then resumes its original grid "
                + "at the next point after now; the missed ticks are dropped."),
        Row(
            .timerLateOneShot, .loop, step: 21,
            "One-shot timer single fires late (due 0.120): the loop was busy past its deadline (in a callout "
                + "or its own pass; a timer fires only when the timer port is taken). It fires once and is "
                + "invalidated."),
        Row(
            .enqueue, .loop, step: 27,
            "Block B is queued (modes default). It runs in the next blocks pass of a run in one "
                + "of those modes; queuing never wakes a sleeping loop."),
        Row(
            .send, .loop, step: 28,
            "A message is sent to port net: the port becomes ready and wakes a sleeping loop by "
                + "itself."),
        Row(
            .timer, .loop, step: 31,
            "The timer port was taken (by the wait, or by a poll) and timer tick is due: it "
                + "fires. A one-shot timer is invalidated; a repeating one moves to the next point of its grid."),
        Row(
            .block, .loop, step: 32,
            "A block queued with CFRunLoopPerformBlock for this mode runs in a blocks pass "
                + "(before the source0s, after them when one ran, and after the wait). Queuing a block "
                + "never wakes the loop."),
        Row(
            .wakePort, .loop, step: 38,
            "The wait returned port net: a message arrived. Exactly one port is taken per wait; "
                + "others stay ready for the next iteration."),
        Row(
            .source1, .loop, step: 40,
            "Port net had a message, and the wait (or a poll) took it: a port needs no "
                + "wake-up; one port is served per iteration."),
        Row(
            .cancel, .loop, step: 46,
            "Source net is removed from mode default: a version-0 source's cancel callout runs; a port source's "
                + "port leaves the mode's wait set."),
        Row(
            .timerFireRepeating, .timerFire, step: 2,
            "The program called Timer.fire() on timer tick: Foundation calls its callout at once, on this thread, "
                + "outside the loop's timer pass - the timer port plays no part. It repeats, so it stays valid and "
                + "keeps its schedule: the loop still fires it at its next date."),
        Row(
            .timerFireOneShot, .timerFire, step: 3,
            "The program called Timer.fire() on timer single: Foundation calls its callout at once, on this thread, "
                + "outside the loop's timer pass - the timer port plays no part. It does not repeat, so fire() "
                + "invalidates it after the callout: it leaves every mode."),
        Row(
            .queryInterval, .timerFire, step: 4,
            "CFRunLoopTimerGetInterval(tick) (Timer.timeInterval) answers 0.100s: the interval CF stored when the "
                + "timer was made; 0 for a one-shot timer, and for one given an interval of 0 or less."),
        Row(
            .queryTolerance, .timerFire, step: 5,
            "CFRunLoopTimerGetTolerance(tick) (Timer.tolerance) answers 0.000s: Linux's CF ignores tolerance and reads "
                + "0 whatever was set; the darwin profile keeps what was set."),
        Row(
            .queryRepeats, .timerFire, step: 6,
            "CFRunLoopTimerDoesRepeat(single) answers false: true when its interval is above 0; a timer that does "
                + "not repeat is invalidated after it fires once."),
        Row(
            .invalidateTimer, .invalidations, step: 16,
            "CFRunLoopTimerInvalidate(tick): the timer leaves every mode it was in (default and Tracking) at once and "
                + "never fires again; no callout runs for it. An invalid timer cannot be added to a mode again."),
        Row(
            .invalidateObserver, .invalidations, step: 17,
            "CFRunLoopObserverInvalidate(watch): the observer leaves every mode it was in (default) at once and is "
                + "never called again, not even later in a pass already under way; no callout runs for it."),
        Row(
            .invalidateSource0, .invalidations, step: 18,
            "CFRunLoopSourceInvalidate(s): in this loop the source leaves every mode it was in (default) and its "
                + "signal is cleared, so it never runs again; its cancel callout, if it has one, runs once per mode it "
                + "left (the cancel steps that follow)."),
        Row(
            .invalidatePort, .invalidations, step: 20,
            "CFRunLoopSourceInvalidate(p): in this loop the port source leaves every mode it was in (default): its "
                + "port leaves each mode's wait set (the cancel steps that follow), so a message no longer wakes the "
                + "loop."),
        Row(
            .note, .loop, step: 47,
            "a note"),
        Row(
            .addDeclined, .sharedItems, step: 8,
            "CFRunLoopAddTimer of timer tick on T's loop did nothing: the timer is in a mode of U's loop, and CF "
                + "keeps a timer in one loop until it leaves its last mode there. CF returns without a word; only "
                + "this trace says so."),
        Row(
            .wakeUpByTimeLimit, .loop, step: 59,
            "The run's time limit passed: CF's timeout timer (a libdispatch timer, not your code) calls "
                + "CFRunLoopWakeUp. The wait returns (at once, if the loop is not asleep yet) and the run ends "
                + "timedOut, unless a handled source wins (returnAfterSourceHandled)."),
        Row(
            .exit, .loop, step: 67,
            "The run ends: observers see exit, whatever the result."),
        Row(
            .resultTimedOut, .loop, step: 68,
            "timedOut: the run's time limit passed (checked after every iteration)."),
        Row(
            .sleepTimerOverdue, .overdue, step: 19,
            "Timer plain was due at 0.100 and is overdue: its port is ready already, so the wait "
                + "returns at once and the timer fires late."),
        Row(
            .timerLateRepeating, .overdue, step: 22,
            "timer plain fires late (due 0.100): default was not the running mode at its deadline (the loop "
                + "ran another mode, or no run at all), and a timer fires only while one of its modes runs. No tick "
                + "of its grid was missed: it fires once and keeps its grid, the next fire is one interval after "
                + "0.100."),
        Row(
            .sleepTimeLimitPassed, .limitPassed, step: 9,
            "The run's time limit (0.100) has passed already: its timeout timer called CFRunLoopWakeUp at the "
                + "limit, so the wait returns at once and the run ends at the end of this iteration."),
        Row(
            .wakeUpNoRun, .stops, step: 3,
            "CFRunLoopWakeUp is ignored: no run is active, so there is nothing to wake and it is "
                + "not remembered."),
        Row(
            .stopNoRun, .stops, step: 4,
            "CFRunLoopStop with no run active does nothing: a stop before a run is not "
                + "remembered."),
        Row(
            .stopMode, .stops, step: 5,
            "_CFRunLoopStopMode(M) sets a sticky stop on the mode itself, even when it is not "
                + "running: the run of M that sees it ends stopped and clears it - a running one at the "
                + "end of its iteration, the next one right after entry."),
        Row(
            .wakeUpAfterTheWait, .stops, step: 16,
            "CFRunLoopWakeUp is ignored: the loop is past its wait and not asleep; it runs the "
                + "blocks again and checks the source0s and the stop flag before it sleeps again "
                + "anyway."),
        Row(
            .stop, .stops, step: 21,
            "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration "
                + "unless handledSource or timedOut wins (the stop is then lost)."),
        Row(
            .wakeUpByStop, .stops, step: 22,
            "CFRunLoopStop also calls CFRunLoopWakeUp: the wake-up port is written, so a sleeping loop wakes "
                + "and the run can end; a loop not asleep finds it ready at its next wait (this run's, or the next "
                + "run's)."),
        Row(
            .resultStopped, .stops, step: 26,
            "stopped: CFRunLoopStop (or a mode's sticky stop) reached this run, and ends only it; its caller "
                + "decides what follows (RunLoop.run() starts another run while the default mode is not empty)."),
        Row(
            .wakeNothing, .results, step: 9,
            "The poll found no port ready (or the read found nothing): there is nothing to "
                + "handle."),
        Row(
            .resultHandledSource, .results, step: 17,
            "handledSource: returnAfterSourceHandled was set and a source (a source0, a port or "
                + "the main queue) was performed."),
        Row(
            .resultFinished, .results, step: 36,
            "finished: the mode is empty - no source, no timer, no block for it (observers do not "
                + "count)."),
        Row(
            .wakeUpBySetNextFireDate, .results, step: 37,
            "A timer's fire date was set from another thread, so CF also calls CFRunLoopWakeUp: "
                + "the loop wakes for nothing (its timer port is armed for the new date already)."),
        Row(
            .perform, .mainThread, step: 16,
            "Task job sent with performSelector:onThread: runs from the thread's perform source "
                + "(a source0)."),
        Row(
            .performOrdered, .orderedPerform, step: 11,
            "Task a (performSelector:target:argument:order:modes:, order 10) runs from the orderedPerform timer: "
                + "each queued request of this mode once, lower order first."),
        Row(
            .performDelayed, .delayedPerform, step: 10,
            "Task a (performSelector:withObject:afterDelay:, 0.020s) runs from its own one-shot delayedPerform "
                + "timer, once, when the loop runs in one of its modes."),
        Row(
            .wakeMainQueue, .mainThread, step: 25,
            "The wait returned the main queue's port: a block was dispatched to the main queue. "
                + "Exactly one port is taken per wait."),
        Row(
            .mainQueue, .mainThread, step: 27,
            "The main thread drains the libdispatch main queue (block showResult); this counts as "
                + "a handled source."),
        Row(
            .mainActorTaskStart, .mainActor, step: 9,
            "Main-actor task t starts: its first job is a main-queue item, drained with the DispatchQueue.main.async "
                + "blocks in the order they were queued; this counts as a handled source."),
        Row(
            .mainActorResumedAfterYield, .mainActor, step: 17,
            "Main-actor task t resumes after Task.yield(): the rest went through the global executor to the back of "
                + "the main queue, so it runs in the next drain, one loop turn later; this counts as a handled source."),
        Row(
            .mainActorResumedAfterSleep, .mainActor, step: 25,
            "Main-actor task t resumes after sleeping 0.020s: a libdispatch timer queued the rest on the main "
                + "queue, which only a common-mode run of the main thread drains; this counts as a handled source."),
        Row(
            .asyncAfterHandler, .mainActor, step: 33,
            "The asyncAfter handler h (0.050s) runs: its libdispatch timer queued it on the main queue, drained like "
                + "a DispatchQueue.main.async block; this counts as a handled source."),
        Row(
            .asyncAfterTeardown, .mainActor, step: 40,
            "libdispatch's teardown job after the asyncAfter handler h runs nothing of the program's, yet its drain "
                + "counts as a handled source: asyncAfter costs one more loop turn."),
        Row(
            .mainQueueWithoutLoop, .asyncMain, step: 3,
            "Main-queue job early runs on a libdispatch worker thread: the async main's first await called "
                + "dispatch_main(), so the main queue is served like any serial queue, first in first out, as soon as "
                + "a job is queued; no run loop runs it, and Thread.isMainThread is false in it."),
        Row(
            .asyncMainLeaves, .asyncMain, step: 2,
            "app is an async main: its first part ran on the main thread like any main (SE-0323); at its first await "
                + "the runtime calls dispatch_main(), so the main thread leaves for good. From now on libdispatch runs "
                + "the main queue's jobs on a worker, first in first out, and no run loop runs on the main thread: its "
                + "timers, observers and blocks wait forever. On Darwin the runtime runs CFRunLoopRun() here instead "
                + "(profile darwin)."),
        Row(
            .asyncMainExit, .asyncMain, step: 6,
            "app returned: the async main's entry calls exit(0), so the process ends here, every thread with it, and "
                + "jobs still queued never run."),
        Row(
            .asyncMainRunsLoop, .asyncMainDarwin, step: 2,
            "app is an async main: at its first await Darwin's runtime runs CFRunLoopRun() on the main thread (read in "
                + "its source, not verified here): the default mode runs, draining the main queue, and when the loop "
                + "is stopped the process exits. On Linux dispatch_main() runs no loop at all."),
        Row(
            .asyncMainExitOnStop, .asyncMainDarwin, step: 16,
            "CFRunLoopRun() returned because the main loop was stopped: the async main's entry calls exit(0) at once, "
                + "so the rest of app never runs (swiftlang/swift#91716)."),
        Row(
            .opAdd, .pool, step: 1,
            "addOperation(a) on q (priority normal, work 0.100s). Nothing to wait for, so it "
                + "becomes ready at once; it starts when the queue has a free slot and is not "
                + "suspended."),
        Row(
            .opReady, .pool, step: 2,
            "a is ready: it starts when its queue has a free slot. An operation queue starts the highest "
                + "priority first (veryHigh to veryLow), the first added first within a level, while fewer than "
                + "maxConcurrentOperationCount execute and it is not suspended; a serial dispatch queue runs its "
                + "blocks one at a time, first in, first out."),
        Row(
            .threadCreateWorker, .pool, step: 3,
            "A new worker thread q.1 (worker of q): no idle worker was free. In this model a worker is a "
                + "run-loop thread kept alive by a port (lesson 02); Foundation's queues run on libdispatch's "
                + "threads, which libdispatch parks and retires itself."),
        Row(
            .opAddWithDependencies, .pool, step: 7,
            "addOperation(b) on q (priority normal, after a, work 0.100s check every 0.010s). It "
                + "depends on a: it stays pending, not ready, until they finish (a cancelled dependency "
                + "counts as finished)."),
        Row(
            .opCancelQueued, .pool, step: 10,
            "cancel() on c while it waits in the queue: it finishes when the queue starts it, "
                + "without running, and operations that depend on it may become ready."),
        Row(
            .queueSuspended, .pool, step: 11,
            "isSuspended = true on q: nothing new starts; operations already executing go on."),
        Row(
            .queueResumed, .pool, step: 12,
            "isSuspended = false on q: ready operations start again, up to the limit."),
        Row(
            .queueLimit, .pool, step: 13,
            "maxConcurrentOperationCount = 2 on q. Raising it starts ready operations at once; "
                + "lowering it stops nothing that executes - the queue just starts fewer."),
        Row(
            .opStartNewThread, .pool, step: 29,
            "a starts on q.1, a thread just created for it: every worker was busy and the queue "
                + "was under its limit. A pool creates threads only when it must."),
        Row(
            .opFinishCancelledBeforeStart, .pool, step: 37,
            "c finished without running: it was cancelled before it started. It still counts as finished for "
                + "the operations that depend on it. Its worker q.2 is free: in this model its idle timer starts."),
        Row(
            .threadCreateDetached, .pool, step: 43,
            "Thread.detachNewThread: d is created for one task (detached for one task) and exits "
                + "after it - a thread per task, the cost a pool saves."),
        Row(
            .opStartReusedThread, .pool, step: 52,
            "late starts on q.2, an idle worker reused (0 before): no thread is created. In this model an "
                + "idle worker sleeps in its run loop, kept alive by a port; libdispatch parks its own threads by "
                + "its own rules."),
        Row(
            .threadExitTaskDone, .pool, step: 53,
            "Thread d ends (its task is done): a detached thread lives for its one task."),
        Row(
            .opCancelNextCheck, .pool, step: 54,
            "cancel() on late while it runs only sets isCancelled: it stops at its next check of "
                + "the flag. An operation that never checks runs to the end."),
        Row(
            .opFinishDone, .pool, step: 55,
            "a finished (done). Operations that depend on it may become ready, and the queue starts what its "
                + "limit now allows. Its worker q.1 is free: in this model its idle timer starts."),
        Row(
            .opFinishDoneAfterLateCancel, .pool, step: 71,
            "late ran to the end although it was cancelled: the cancel came after its last check point. Its "
                + "worker q.2 is free: in this model its idle timer starts."),
        Row(
            .opCancelNoEffect, .pool, step: 94,
            "cancel() on a: already finished: no effect. Cancelling an operation that finished, "
                + "or twice, changes nothing."),
        Row(
            .opFinishCancelledWhileRunning, .pool, step: 95,
            "b saw isCancelled at a check point and returned early: cancelled while running. Its worker q.1 "
                + "is free: in this model its idle timer starts."),
        Row(
            .opCancelConnection, .pool, step: 107,
            "cancel() on the upload up: cancelling it cancels its connection, whose callback "
                + "arrives on the socket and finishes the operation on its worker's run loop."),
        Row(
            .queueCancelAll, .pool, step: 114,
            "cancelAllOperations() on q: every operation not finished is cancelled, in the order "
                + "they were added. Queued ones finish when the queue starts them; running ones at "
                + "their next check."),
        Row(
            .opCancelHandedTo, .pool, step: 116,
            "cancel() on x, handed to a worker but not started (handed to q.1, not started): "
                + "start() will see isCancelled and finish without calling main()."),
        Row(
            .queryIsValid, .queries, step: 2,
            "IsValid(tick) answers true: an item is valid until it is invalidated; a one-shot timer is invalidated "
                + "right after its callout."),
        Row(
            .queryContains, .queries, step: 3,
            "CFRunLoopContains… answers true: whether tick is in default now ('common': whether it was added to "
                + "kCFRunLoopCommonModes). An invalidated item, or a one-shot timer that fired, is in no mode."),
        Row(
            .queryNextTimerFireDate, .queries, step: 4,
            "CFRunLoopGetNextTimerFireDate(default) answers 0.100: the fire date of the mode's first timer by "
                + "deadline (during that timer's callout, the date it fires for); none, CF's 0, without a timer."),
        Row(
            .queryAllModes, .queries, step: 5,
            "CFRunLoopCopyAllModes answers default: every mode created so far. Adding an item, queuing a block (for "
                + "common too: CF then has a mode of that name) or _CFRunLoopStopMode creates one; running a mode "
                + "does not, nor does making it common while there are no common items."),
        Row(
            .queryLimitDate, .queries, step: 14,
            "limitDate(forMode: default) answers 0.100. On the loop's own thread Foundation first polls the mode "
                + "once (CFRunLoopRunInMode(default, -10, true): due timers fire), then answers nil for an empty "
                + "mode, distantFuture without a timer, else the next timer's fire date; on another thread it "
                + "answers nil at once."),
        Row(
            .queryIsWaiting, .queries, step: 21,
            "CFRunLoopIsWaiting answers true: true only while the loop is in its wait, from after beforeWaiting to "
                + "before afterWaiting - so the loop's own thread never sees true."),
        Row(
            .queryCurrentMode, .queries, step: 25,
            "currentMode (CFRunLoopCopyCurrentMode) answers default: the mode of the innermost run - inside a "
                + "nested run its mode, the outer run's again once it returns - and nil outside any run."),
        Row(
            .queryNextFireDate, .queries, step: 26,
            "CFRunLoopTimerGetNextFireDate(tick) answers 0.100: the date CF keeps for the timer - a date given in "
                + "the past stays in the past until the timer fires, then each point of its grid; none, CF's 0, once "
                + "it is invalid."),
        Row(
            .queueWaitAll, .pool, step: 117,
            "waitUntilAllOperationsAreFinished on q: the calling thread blocks until every "
                + "operation has finished."),
        Row(
            .stopDuringEntry, .entryStop, step: 7,
            "CFRunLoopStop from an entry observer: the run has not begun its first iteration, so it ends stopped at "
                + "once, before any iteration; the wake-up it writes stays pending for the next run."),
        Row(
            .stopDuringExit, .exitStop, step: 13,
            "CFRunLoopStop from an exit observer: this run has its result already, so the stop changes nothing - it is "
                + "discarded when the run returns, and stops neither an outer run nor the next."),
        Row(
            .sleepWakeUpPending, .entryStop, step: 16,
            "The wake-up port was written already (a CFRunLoopWakeUp - your code's, a stop's or a fire date's - not "
                + "consumed yet, perhaps left by an earlier run): the wait returns at once."),
        Row(
            .sleepPortReady, .entryStop, step: 38,
            "Port other holds a message already: the wait returns it at once, so the thread does not really sleep."),
        Row(
            .sleepMainQueueReady, .mainQueueReady, step: 6,
            "A block waits on the main queue: its port is ready already, so the wait returns at once."),
        Row(
            .sleepStaleTimerPort, .staleTimerPort, step: 8,
            "The mode's timer port is ready already, though no timer of it is due: it holds the expiry of a deadline "
                + "that passed (Linux never disarms a timer port, and a re-arm keeps an expiry not read yet), so the "
                + "wait returns at once, for nothing."),
        Row(
            .sleepTimerDueNow, .dueNow, step: 7,
            "Timer now is due now (0.000): its port is ready, so the wait returns at once and the timer fires."),
        Row(
            .threadExitIdle, .pool, step: 157,
            "q.2 is retired (idle for 1.000s: retired after 2 operations): in this model the one-shot idle "
                + "timer on its loop fired with no work, so the thread stops its loop and exits (libdispatch "
                + "retires its own threads by its own rules). The next operation needs a new thread."),
    ]

    /// The explanations no scenario can produce: facts only the real CFRunLoop oracle and Foundation's queue
    /// record (a libdispatch thread), a port the engine does not own, an event without its facts.
    static let handMade: [(Explanation.Case, LoopEvent, String)] = [
        (
            .wakeUnknownPort,
            LoopEvent(
                time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .wake,
                fact: .woken(.unknownPort(7))),
            "The wait returned port#7 that no item of this mode owns."
        ),
        (
            .opStartFirstSeenThread,
            LoopEvent(
                time: .zero, loop: "thread-3", depth: 0, mode: nil, iteration: 0, kind: .opStart, name: "a",
                fact: .thread(.firstSeen)),
            "a starts on thread-3, a libdispatch thread this run sees for the first time: it may have run other "
                + "work before; libdispatch, not the queue, decides which thread runs it."
        ),
        (
            .threadCreateDispatch,
            LoopEvent(
                time: .zero, loop: "thread-3", depth: 0, mode: nil, iteration: 0, kind: .threadCreate, name: "thread-3",
                fact: .origin(.dispatch(queue: "q"))),
            "thread-3 is libdispatch's thread, first seen running an operation of q: Foundation's queue runs "
                + "operations on libdispatch's threads, which libdispatch creates and reuses as it sees fit."
        ),
        (
            .plain,
            LoopEvent(time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .result, name: "finished"),
            "result finished."
        ),
        (
            .sleepReadinessUnknown,
            LoopEvent(
                time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .sleep,
                fact: .wait(.sleep(nextTimer: nil, timeLimit: .zero + .milliseconds(200), ready: nil))),
            "The thread waits in the kernel until time limit at 0.200. Only a port (a message, the timer port, a "
                + "wake-up, which is also how the time limit arrives) ends the wait; a signalled source0 does not. A "
                + "real loop's trace cannot say whether a port was ready already, which would end the wait at once."
        ),
    ]

    /// The explanations only a recording gets (LoopRecorder's, replayed): the demo's step and the words.
    static let recorded: [(Explanation.Case, step: Int, text: String)] = [
        (
            .beforeWaitingRecorded, 34,
            "beforeWaiting: the loop is about to wait for a port (CF notifies it only in an iteration that does not "
                + "poll). A recording holds only observer activities: what ran before it is not in it."
        )
    ]

    @Test("every explanation case has exactly one row, and every documented step and pool note too")
    func everyCaseHasARow() {
        let cases = Self.rows.map(\.expected) + Self.handMade.map(\.0) + Self.recorded.map(\.0)
        #expect(cases.count == Set(cases).count)
        #expect(Set(cases) == Set(Explanation.Case.allCases))
        #expect(Set(Self.cycleRows.map(\.row)) == Set(0..<CycleSteps.documented.count))
        #expect(Set(Self.implementationRows.map(\.row)) == Set(0..<CycleSteps.implementation.count))
        #expect(Set(Self.poolNoteRows.map(\.note.kind)) == Set(PoolNote.Kind.allCases))
    }

    @Test("the Why pane's words for each case", arguments: rows)
    func whyPane(_ row: Row) throws {
        let trace = ExplanationScenarios.trace(row.scenario)
        try #require(row.step >= 1 && row.step <= trace.count)
        let explained = Explanation.explain(trace[row.step - 1])
        #expect(explained.case == row.expected)
        #expect(explained.text == row.text)
    }

    @Test("a dispatch queue's retired worker is explained in the blocks it ran (a skipped work item ran none)")
    func retiredDispatchWorker() throws {
        let trace = ExplanationScenarios.trace(.dispatch)
        let exit = try #require((0..<trace.count).map { trace[$0] }.first { $0.kind == .threadExit })
        let explained = Explanation.explain(exit)
        #expect(explained.case == .threadExitIdle)
        #expect(
            explained.text
                == "g.1 is retired (idle for 5.000s: retired after 2 blocks): in this model the one-shot idle timer "
                + "on its loop fired with no work, so the thread stops its loop and exits (libdispatch retires its own "
                + "threads by its own rules). The next block needs a new thread.")
    }

    @Test("the words of the cases no scenario can produce")
    func handMadeEvents() {
        for (expected, event, text) in Self.handMade {
            let explained = Explanation.explain(event)
            #expect(explained.case == expected)
            #expect(explained.text == text)
        }
    }

    /// The documented view: for each of Apple's ten steps, an event the cycle panel marks there, and the step's
    /// words with what CF does differently - in full, and in brief for an 80-column screen.
    static let cycleRows:
        [(
            row: Int, scenario: ExplanationScenarios.Key, step: Int, text: String, brief: String, differs: String?,
            briefly: String?
        )] = [
            (0, .loop, 4, "Notify: entering the loop", "Notify: entering the loop", nil, nil),
            (
                1, .loop, 6, "Notify: timers will fire", "Notify: timers will fire", "no timer fires here; only a note",
                "a notice; no timer fires"
            ),
            (2, .loop, 7, "Notify: sources will fire", "Notify: sources will fire", nil, nil),
            (
                3, .loop, 17, "Fire ready non-port sources", "Fire ready non-port sources",
                "blocks also run before and after", "blocks also run around it"
            ),
            (
                4, .loop, 18, "Port ready? handle it, go to 9", "Port ready? Handle, go to 9",
                "a poll, or the main-queue peek", "a poll, or main-queue peek"
            ),
            (
                5, .loop, 8, "Notify: about to sleep", "Notify: about to sleep", "skipped when polling",
                "skipped when polling"
            ),
            (
                6, .loop, 10, "Sleep: port/timer/timeout/wake", "Sleep: port, timer or wake",
                "one port is taken per wait",
                "one port is taken per wait"
            ),
            (
                7, .loop, 14, "Notify: just woke up", "Notify: just woke up", "skipped when polling",
                "skipped when polling"
            ),
            (
                8, .loop, 20, "Process timer, source, wake-up", "Handle timer/source/wake-up",
                "timers fire here or in a poll", "timers: after wait or poll"
            ),
            (
                9, .loop, 67, "Notify: exiting the loop", "Notify: exiting the loop",
                "handled > timedOut > stopped", "handled>timedOut>stopped"
            ),
        ]

    /// The implementation view: for each phase, an event the cycle panel marks there.
    static let implementationRows: [(row: Int, scenario: ExplanationScenarios.Key, step: Int, text: String)] = [
        (0, .loop, 4, "entry"),
        (1, .loop, 6, "beforeTimers"),
        (2, .loop, 7, "beforeSources"),
        (3, .loop, 17, "blocks, source0s, blocks"),
        (4, .loop, 8, "beforeWaiting (not if poll)"),
        (5, .loop, 10, "wait for ONE port, or poll"),
        (6, .loop, 14, "afterWaiting (not if poll)"),
        (7, .loop, 20, "handle it: timer/port/queue"),
        (8, .loop, 32, "blocks; decide: again?"),
        (9, .loop, 67, "exit, result"),
    ]

    /// The pool view's notes: after `step` events of the pool scenario, what queue `q` (operation nil) or one of
    /// its waiting operations shows.
    static let poolNoteRows: [(note: PoolNote, step: Int, operation: String?, text: String)] = [
        (.idleTimeout(.seconds(1)), 1, nil, "idle timeout 1.000s"),
        (.pending, 1, "a", "pending"),
        (.ready, 2, "a", "ready"),
        (.after(["a"]), 7, "b", "after a"),
        (.cancelledWaitsItsTurn, 10, "c", "cancelled, waits its turn"),
        (.suspended, 11, nil, "SUSPENDED: nothing new starts"),
        (.waitingForAll, 117, nil, "a thread waits for all to finish"),
    ]

    @Test("the documented view marks each event on Apple's step, with CF's difference")
    func documentedView() {
        for row in Self.cycleRows {
            let trace = ExplanationScenarios.trace(row.scenario)
            #expect(CycleSteps.step(of: row.step - 1, in: trace, documented: true) == row.row, "\(row)")
            #expect(CycleSteps.documented[row.row].text == row.text)
            #expect(CycleSteps.documented[row.row].brief == row.brief)
            #expect(CycleSteps.documented[row.row].differs == row.differs)
            #expect(CycleSteps.documented[row.row].briefDiffers == row.briefly)
        }
    }

    @Test("the implementation view marks each event on CF's phase")
    func implementationView() {
        for row in Self.implementationRows {
            let trace = ExplanationScenarios.trace(row.scenario)
            #expect(CycleSteps.step(of: row.step - 1, in: trace, documented: false) == row.row, "\(row)")
            #expect(CycleSteps.implementation[row.row] == row.text)
        }
    }

    @Test("the pool view's notes come from the pool's state")
    func poolNotes() throws {
        let session = ExplanationScenarios.session(.pool)
        for row in Self.poolNoteRows {
            let pool = session.poolSnapshot(after: row.step)
            let queue = try #require(pool.queues.first { $0.name == "q" })
            let note: PoolNote
            if let name = row.operation {
                note = PoolNote.waiting(try #require(pool.operation(named: name)), in: pool)
            } else {
                note = PoolNote.queue(queue)
            }
            #expect(note == row.note, "step \(row.step)")
            #expect(note.text == row.text)
        }
    }
}
