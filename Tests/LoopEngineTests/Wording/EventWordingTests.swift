import Foundation
import LoopEngine
import Testing

/// The one place where facts become words: every kind of fact, with the words of the text trace, the JSONL
/// `detail` and the Mermaid diagram.
@Suite("the words of every fact")
struct EventWordingTests {
    static let t100 = LoopInstant.zero + .milliseconds(100)
    static let t200 = LoopInstant.zero + .milliseconds(200)
    static let work = OperationSpec(
        name: "o", priority: .veryHigh, dependencies: ["a", "b"],
        body: .work(.seconds(1), checkEvery: .milliseconds(100)))
    static let upload = OperationSpec(name: "u", priority: .low, body: .async, replyAfter: .milliseconds(300))

    /// Every fact an event can carry (each case of each payload), the kind it comes with, and its words.
    static let table: [(LoopEvent.Kind, LoopEvent.Fact, String)] = [
        (.runStart, .run(.seconds(.milliseconds(200)), returnAfterSourceHandled: false), "limit 0.200s"),
        (.runStart, .run(.poll, returnAfterSourceHandled: true), "limit poll, returnAfterSourceHandled"),
        (.runStart, .run(.forever, returnAfterSourceHandled: false), "limit forever"),
        (.source1, .messages(3), "3 messages"),
        (.timer, .late(due: t100, missed: 1, cause: .busy), "due 0.100, loop busy"),
        (.timer, .late(due: t100, missed: nil, cause: nil), "due 0.100"),
        (.timer, .late(due: t100, missed: 0, cause: .modeNotRunning), "due 0.100, mode not running"),
        (.timer, .late(due: t100, missed: nil, cause: .addedAfterDue), "due 0.100, added late"),
        (.timer, .late(due: t100, missed: nil, cause: .sleptPast), "due 0.100, slept past it"),
        (.observer, .activity(.beforeWaiting), "beforeWaiting"),
        (.sleep, .wait(.poll), "poll"),
        (.sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil)), "indefinitely"),
        (.sleep, .wait(.sleep(nextTimer: .init(name: "t", fireTime: t100), timeLimit: nil)), "until timer t at 0.100"),
        (.sleep, .wait(.sleep(nextTimer: nil, timeLimit: t200)), "until time limit at 0.200"),
        (
            .sleep, .wait(.sleep(nextTimer: nil, timeLimit: t200, ready: .port("p", messages: 2))),
            "until time limit at 0.200, but port p is ready"
        ),
        (
            .sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: .timerPort)),
            "indefinitely, but the timer port is ready"
        ),
        (
            .sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: .wakeUpPort)),
            "indefinitely, but the wake-up port is ready"
        ),
        (
            .sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: .mainQueue)),
            "indefinitely, but the main queue is ready"
        ),
        (
            .sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: .unknownPort(3))),
            "indefinitely, but port#3 is ready"
        ),
        (.sleep, .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: .nothing)), "indefinitely"),
        (
            .sleep, .wait(.sleep(nextTimer: .init(name: "t", fireTime: t100), timeLimit: t200)),
            "until timer t at 0.100 or time limit at 0.200"
        ),
        (.wake, .woken(.nothing), "nothing"),
        (.wake, .woken(.wakeUpPort), "wakeUp"),
        (.wake, .woken(.timerPort), "timer port"),
        (.wake, .woken(.mainQueue), "main queue"),
        (.wake, .woken(.port("p", messages: 1)), "port p"),
        (.wake, .woken(.port("p", messages: 2)), "port p (2 messages)"),
        (.wake, .woken(.unknownPort(7)), "port#7"),
        (.enqueue, .modes(["default", "tracking"]), "modes default, tracking"),
        (.wakeUp, .wakeUp(.stop, ignored: nil), "stop"),
        (.wakeUp, .wakeUp(.timeout, ignored: nil), "timeout"),
        (.wakeUp, .wakeUp(.setNextFireDate, ignored: .afterTheWait), "setNextFireDate, ignored: after the wait"),
        (.wakeUp, .wakeUp(nil, ignored: .noRun), "ignored: no run"),
        (.stop, .ignored(.noRun), "ignored: no run"),
        (.signal, .ignored(.portSource), "ignored: a port source is performed for a message, never for a signal"),
        (.stop, .mode("tracking"), "mode tracking"),
        (.stop, .stop(.entry), "during entry"),
        (.stop, .stop(.iteration), "in an iteration"),
        (.stop, .stop(.exit), "during exit: discarded"),
        (.schedule, .mode("default"), "mode default"),
        (.note, .note(.say("hello")), "hello"),
        (.note, .note(.duplicateOperation("o")), "operation o was already added: ignored"),
        (.note, .note(.notAsynchronous("o")), "finish o: it is not an asynchronous operation, it finishes by itself"),
        (.note, .note(.noSuchQueue(operation: "o", queue: "Q")), "add o: there is no queue Q"),
        (.note, .note(.noSuchThread(task: "k", thread: "T")), "perform k: there is no thread T"),
        (.note, .note(.performInline(task: "k")), "perform k inline (waitUntilDone on its own thread)"),
        (
            .note, .note(.performsCancelled(task: "bar", target: "str", count: 1)),
            "cancelPerformSelector bar target str: 1 queued perform removed"
        ),
        (
            .note, .note(.performsCancelled(task: nil, target: "str", count: 2)),
            "cancelPerformSelectorsWithTarget str: 2 queued performs removed"
        ),
        (
            .note, .note(.addDeclined(item: "tick", kind: .timer, holder: "ui")),
            "timer tick is in ui's loop: CF silently does not add it here (one loop per timer)"
        ),
        (
            .note, .note(.addDeclined(item: "watch", kind: .observer, holder: "ui")),
            "observer watch is in ui's loop: CF silently does not add it here (one loop per observer)"
        ),
        (.perform, .order(10), "order 10"),
        (.invalidate, .invalidated(kind: .timer, modes: ["default", "tracking"]), "timer, left default and tracking"),
        (.invalidate, .invalidated(kind: .observer, modes: ["default"]), "observer, left default"),
        (
            .invalidate, .invalidated(kind: .source0, modes: ["default", "tracking", "modal"]),
            "version-0 source, left default, tracking and modal"
        ),
        (.invalidate, .invalidated(kind: .source1, modes: []), "port source"),
        (.timer, .fireCalled(repeats: true), "Timer.fire(): outside the timer pass; repeats, so valid on its schedule"),
        (
            .timer, .fireCalled(repeats: false),
            "Timer.fire(): outside the timer pass; one-shot, so invalidated after it"
        ),
        (.perform, .delayed(.milliseconds(20)), "afterDelay 0.020s"),
        (.mainQueue, .job(.taskStart), "main-actor task starts"),
        (.mainQueue, .job(.resumed(after: .yield)), "resumed after Task.yield()"),
        (.mainQueue, .job(.resumed(after: .sleep(.milliseconds(100)))), "resumed after sleeping 0.100s"),
        (.mainQueue, .job(.asyncAfter(.milliseconds(50))), "asyncAfter 0.050s handler"),
        (.mainQueue, .job(.asyncAfterTeardown), "asyncAfter's teardown job: nothing of the program's runs"),
        (
            .note, .note(.taskSuspended(task: "t", at: .yield)),
            "t awaits Task.yield(): the rest of t goes to the global executor, then to the back of the main queue"
        ),
        (
            .note, .note(.taskSuspended(task: "t", at: .sleep(.milliseconds(40)))),
            "t sleeps 0.040s: the rest of t is queued when its timer fires"
        ),
        (.note, .note(.taskFinished(task: "t")), "t is done: its last main-actor job returned"),
        (
            .note, .note(.asyncMainLeavesMainThread(task: "app")),
            "app awaits for the first time: the main thread calls dispatch_main() and leaves; libdispatch runs the "
                + "main queue on a worker thread from now on, and the main run loop runs no more"
        ),
        (
            .note, .note(.asyncMainRunsMainLoop(task: "app")),
            "app awaits for the first time: the main thread runs CFRunLoopRun() in default, which drains the main "
                + "queue, until the loop is stopped (Darwin's runtime, not verified here)"
        ),
        (
            .note, .note(.refusedAfterMainThreadExit(item: "t", kind: .timer)),
            "the main thread has exited: CF does not add timer t to the main run loop (it logs \"Attempting to add "
                + "timer to main runloop, but the main thread has exited\" once)"
        ),
        (
            .note, .note(.refusedAfterMainThreadExit(item: "b", kind: .block)),
            "the main thread has exited: CF does not queue block b on the main run loop (it logs \"Attempting to "
                + "perform block on main runloop, but the main thread has exited\" once)"
        ),
        (
            .note, .note(.asyncMainExits(task: "app", because: .returned)),
            "app returned: exit(0) ends the process, every thread with it"
        ),
        (
            .note, .note(.asyncMainExits(task: "app", because: .loopReturned)),
            "CFRunLoopRun() returned: the async main's entry calls exit(0), ending the process before the rest of "
                + "app runs"
        ),
        (
            .note, .note(.delayedPerformsCancelled(task: "save", target: "doc", count: 1)),
            "cancelPreviousPerformRequests target doc selector save: 1 delayed perform removed"
        ),
        (
            .note, .note(.delayedPerformsCancelled(task: nil, target: "doc", count: 2)),
            "cancelPreviousPerformRequests target doc: 2 delayed performs removed"
        ),
        (
            .note, .note(.emptyModeReturned(mode: "default")),
            "run(mode: default, before:) returned false at once: the mode is empty"
        ),
        (
            .note, .note(.emptyModeSpins(mode: "m")),
            "run(mode:before:) returned NO at once: m is empty, so this loop would spin"
        ),
        (.note, .note(.ownerDeallocating(owner: "vc")), "vc's dealloc begins: weak references to vc are nil now"),
        (.note, .note(.ownerFreed(owner: "vc")), "vc's dealloc returned: vc is freed"),
        (
            .note, .note(.usesDeallocatedOwner(owner: "vc", property: "stopped")),
            "uses a deallocated owner: vc.stopped after vc was freed (a bad access on a device)"
        ),
        (
            .opAdd, .operation(.init(work)),
            "priority veryHigh, after a, b, work 1.000s check every 0.100s"
        ),
        (.opAdd, .operation(.init(upload)), "priority low, async, reply after 0.300s"),
        (.opAdd, .operation(.init(OperationSpec(name: "x"))), "priority normal, work 0.000s"),
        (
            .opAdd, .submitted(DispatchSubmission(kind: .block, work: .milliseconds(200))),
            "a block (async returns nothing to cancel it with), work 0.200s"
        ),
        (
            .opAdd, .submitted(DispatchSubmission(kind: .workItem, work: .milliseconds(50))),
            "a DispatchWorkItem, work 0.050s"
        ),
        (.opStart, .thread(.new), "new thread"),
        (.opStart, .thread(.firstSeen), "first use of this thread"),
        (.opStart, .thread(.reused(before: 2)), "reused thread (2 before)"),
        (.opCancel, .cancel(.alreadyFinished), "already finished: no effect"),
        (.opCancel, .cancel(.alreadyCancelled), "already cancelled"),
        (.opCancel, .cancel(.queued), "queued: it finishes when the queue starts it"),
        (.opCancel, .cancel(.handedTo(worker: "Q.1")), "handed to Q.1, not started"),
        (.opCancel, .cancel(.executingConnection), "executing: the connection is cancelled"),
        (.opCancel, .cancel(.executingNextCheck), "executing: it stops at its next check"),
        (.opCancel, .cancel(.workItemQueued), "a work item not reached yet: the queue will skip its block"),
        (.opCancel, .cancel(.workItemRunning), "a work item already running: its block goes on to the end"),
        (.opFinish, .finish(.done), "done"),
        (.opFinish, .finish(.doneAfterLateCancel), "done (the cancel came with no check point left)"),
        (.opFinish, .finish(.cancelledBeforeStart), "cancelled before it started"),
        (.opFinish, .finish(.cancelledWhileRunning), "cancelled while running"),
        (
            .opFinish, .finish(.workItemSkipped),
            "skipped: cancelled before the queue reached it, its block never ran"
        ),
        (
            .opFinish, .finish(.workItemRanDespiteCancel),
            "done: its block ran to the end although it was cancelled"
        ),
        (.threadCreate, .origin(.worker(of: "Q")), "worker of Q"),
        (.threadCreate, .origin(.dispatch(queue: "Q")), "libdispatch's thread, first seen running an operation of Q"),
        (.threadCreate, .origin(.detached), "detached for one task"),
        (
            .threadExit, .end(.idle(timeout: .seconds(3), ran: 1, work: .operation)),
            "idle for 3.000s: retired after 1 operation"
        ),
        (
            .threadExit, .end(.idle(timeout: .seconds(3), ran: 2, work: .operation)),
            "idle for 3.000s: retired after 2 operations"
        ),
        (
            .threadExit, .end(.idle(timeout: .seconds(5), ran: 3, work: .block)),
            "idle for 5.000s: retired after 3 blocks"
        ),
        (.threadExit, .end(.taskDone), "its task is done"),
        (.queue, .limit(.count(2)), "2"),
        (.queue, .limit(.automatic(width: 4)), "default (4)"),
        (.queue, .limit(.automatic(width: nil)), "default (libdispatch decides)"),
        (.queue, .queue(.suspended), "suspended"),
        (.queue, .queue(.resumed), "resumed"),
        (.queue, .queue(.cancelAll), "cancelAll"),
        (.queue, .queue(.waitAll), "waitAll"),
        (.result, .result(.finished), "finished"),
        (.result, .result(.stopped), "stopped"),
        (.result, .result(.timedOut), "timedOut"),
        (.result, .result(.handledSource), "handledSource"),
        (
            .note, .note(.timerOrderUnused(timer: "t", order: -10)),
            "timer t has order -10: CF stores a timer's order but never uses it; timers fire by deadline"
        ),
        (.command, .command(.init(source: "s", .posted(queued: 2))), "posted to s, 2 queued"),
        (.command, .command(.init(source: "s", .refused(capacity: 4))), "refused: the queue of s is full (4 commands)"),
        (.command, .command(.init(source: "s", .refused(capacity: 1))), "refused: the queue of s is full (1 command)"),
        (.command, .command(.init(source: "s", .performed)), "performed by s"),
        (.command, .command(.init(source: "s", .dropped)), "dropped: s was invalidated with it queued"),
        (.note, .returned(true), "run(mode:before:) returned true: it ran the loop once, whatever the run's result"),
        (.note, .returned(false), "run(mode:before:) returned false: the mode is empty, it did not run"),
        (.note, .mark(.point), "mark"),
        (.note, .mark(.begin), "begin"),
        (.note, .mark(.end), "end"),
        (.note, .dropped(1), "the recorder dropped 1 event: its buffer was full"),
        (.note, .dropped(12), "the recorder dropped 12 events: its buffer was full"),
        (.note, .stack(LoopEvent.StackSample(frames: [0x4000])), "a stack sample of 1 frame"),
        (
            .note, .paused(.milliseconds(500)),
            "the recorder's sampler did not run for 0.500s: the process was stopped or had no CPU"
        ),
        (.note, .stack(LoopEvent.StackSample(frames: [0x4000, 0x5000])), "a stack sample of 2 frames"),
        (
            .note,
            .module(
                LoopEvent.LoadedModule(base: 0, low: 0x55f0_0000_0000, high: 0x55f0_0000_7398, buildID: "7f9e7704")),
            "a loaded object: its addresses from 0x55f000000000 to 0x55f000007398"
        ),
        (.query, .query(.currentMode, .mode("Modal")), "CFRunLoopCopyCurrentMode answered Modal"),
        (.query, .query(.currentMode, .none), "CFRunLoopCopyCurrentMode answered nil"),
        (
            .query, .query(.limitDate(.default), .date(LoopInstant(nanoseconds: 300_000_000))),
            "limitDate(forMode: default) answered 0.300"
        ),
        (.query, .query(.limitDate(.default), .distantFuture), "limitDate(forMode: default) answered distantFuture"),
        (.query, .query(.limitDate("other"), .none), "limitDate(forMode: other) answered nil"),
        (.query, .query(.nextTimerFireDate(.default), .none), "CFRunLoopGetNextTimerFireDate(default) answered none"),
        (.query, .query(.isWaiting, .flag(true)), "CFRunLoopIsWaiting answered true"),
        (
            .query, .query(.contains(item: "tick", mode: "Tracking"), .flag(false)),
            "CFRunLoopContains(tick, Tracking) answered false"
        ),
        (.query, .query(.isValid(item: "tick"), .flag(true)), "IsValid(tick) answered true"),
        (
            .query, .query(.nextFireDate(timer: "tick"), .date(LoopInstant(nanoseconds: -500_000_000))),
            "CFRunLoopTimerGetNextFireDate(tick) answered -0.500"
        ),
        (.query, .query(.allModes, .modes([.common, .default])), "CFRunLoopCopyAllModes answered common, default"),
        (.query, .query(.allModes, .modes([])), "CFRunLoopCopyAllModes answered nothing"),
    ]

    /// A queue's change and a run's result are the event's name, in the same word: never said again as a detail;
    /// nor is a stop in an iteration, the usual stop.
    static func isTheName(_ fact: LoopEvent.Fact) -> Bool {
        switch fact {
        case .queue, .result, .stop(.iteration): true
        default: false
        }
    }

    static func event(_ kind: LoopEvent.Kind, _ fact: LoopEvent.Fact?) -> LoopEvent {
        LoopEvent(
            time: t100, loop: "T", depth: 1, mode: "default", iteration: 2, kind: kind,
            name: kind == .queue ? "limit" : "x", fact: fact)
    }

    @Test("each fact has its words, and an event's detail is its fact's words")
    func words() {
        for (kind, fact, words) in Self.table {
            #expect(fact.words == words, "\(kind) \(fact)")
            #expect(Self.event(kind, fact).detail == (Self.isTheName(fact) ? nil : words))
        }
        #expect(Self.event(.timer, nil).detail == nil)
    }

    /// The case of a fact and of the value it carries. Exhaustive: a new case does not compile until it is named
    /// here, and then fails the test below until the table has a row for it.
    static func caseName(_ fact: LoopEvent.Fact) -> String {
        switch fact {
        case .run(let limit, _):
            switch limit {
            case .poll: "run(poll)"
            case .forever: "run(forever)"
            case .seconds: "run(seconds)"
            }
        case .messages: "messages"
        case .late(_, _, let cause): "late(\(cause.map { "\($0)" } ?? "-"))"
        case .activity: "activity"
        case .wait(.poll): "wait(poll)"
        case .wait(.sleep(let timer, let limit, let ready)):
            "wait(sleep \(timer != nil) \(limit != nil)\(ready.map { _ in " ready" } ?? ""))"
        case .woken(let cause):
            switch cause {
            case .nothing: "woken(nothing)"
            case .wakeUpPort: "woken(wakeUpPort)"
            case .timerPort: "woken(timerPort)"
            case .mainQueue: "woken(mainQueue)"
            case .port: "woken(port)"
            case .unknownPort: "woken(unknownPort)"
            }
        case .modes: "modes"
        case .wakeUp(let caller, let ignored):
            "wakeUp(\(caller.map { "\($0)" } ?? "-") \(ignored.map { "\($0)" } ?? "-"))"
        case .ignored(.portSource): "ignored(portSource)"
        case .ignored: "ignored"
        case .mode: "mode"
        case .stop(let point): "stop(\(point))"
        case .query(let question, _): "query(\(question.word))"
        case .note(let note):
            switch note {
            case .say: "note(say)"
            case .duplicateOperation: "note(duplicateOperation)"
            case .notAsynchronous: "note(notAsynchronous)"
            case .noSuchQueue: "note(noSuchQueue)"
            case .noSuchThread: "note(noSuchThread)"
            case .performInline: "note(performInline)"
            case .emptyModeSpins: "note(emptyModeSpins)"
            case .timerOrderUnused: "note(timerOrderUnused)"
            case .ownerDeallocating: "note(ownerDeallocating)"
            case .ownerFreed: "note(ownerFreed)"
            case .usesDeallocatedOwner: "note(usesDeallocatedOwner)"
            case .emptyModeReturned: "note(emptyModeReturned)"
            case .performsCancelled(let task, _, _): "note(performsCancelled \(task != nil))"
            case .delayedPerformsCancelled(let task, _, _): "note(delayedPerformsCancelled \(task != nil))"
            case .addDeclined(_, let kind, _): "note(addDeclined \(kind))"
            case .taskSuspended(_, .yield): "note(taskSuspended yield)"
            case .taskSuspended(_, .sleep): "note(taskSuspended sleep)"
            case .taskFinished: "note(taskFinished)"
            case .asyncMainLeavesMainThread: "note(asyncMainLeavesMainThread)"
            case .asyncMainRunsMainLoop: "note(asyncMainRunsMainLoop)"
            case .asyncMainExits(_, let reason): "note(asyncMainExits \(reason))"
            case .refusedAfterMainThreadExit(_, let kind): "note(refusedAfterMainThreadExit \(kind))"
            }
        case .operation(let operation):
            switch operation.body {
            case .async: "operation(async)"
            case .work: "operation(work)"
            }
        case .submitted(let submission): "submitted(\(submission.kind))"
        case .thread(let use):
            switch use {
            case .new: "thread(new)"
            case .firstSeen: "thread(firstSeen)"
            case .reused: "thread(reused)"
            }
        case .cancel(let point):
            switch point {
            case .alreadyFinished: "cancel(alreadyFinished)"
            case .alreadyCancelled: "cancel(alreadyCancelled)"
            case .queued: "cancel(queued)"
            case .handedTo: "cancel(handedTo)"
            case .executingConnection: "cancel(executingConnection)"
            case .executingNextCheck: "cancel(executingNextCheck)"
            case .workItemQueued: "cancel(workItemQueued)"
            case .workItemRunning: "cancel(workItemRunning)"
            }
        case .finish(let outcome): "finish(\(outcome))"
        case .origin(let origin):
            switch origin {
            case .worker: "origin(worker)"
            case .dispatch: "origin(dispatch)"
            case .detached: "origin(detached)"
            }
        case .end(let end):
            switch end {
            case .idle: "end(idle)"
            case .taskDone: "end(taskDone)"
            }
        case .limit(let limit):
            switch limit {
            case .count: "limit(count)"
            case .automatic(let width): "limit(automatic \(width != nil))"
            }
        case .queue(let action): "queue(\(action))"
        case .result(let result): "result(\(result))"
        case .command(let step):
            switch step.outcome {
            case .posted: "command(posted)"
            case .refused: "command(refused)"
            case .performed: "command(performed)"
            case .dropped: "command(dropped)"
            }
        case .returned(let value): "returned(\(value))"
        case .mark(let mark): "mark(\(mark))"
        case .dropped: "dropped"
        case .stack: "stack"
        case .module: "module"
        case .paused: "paused"
        case .order: "order"
        case .delayed: "delayed"
        case .invalidated(let kind, let modes): "invalidated(\(kind) \(modes.count))"
        case .fireCalled(let repeats): "fireCalled(\(repeats))"
        case .job(.taskStart): "job(taskStart)"
        case .job(.resumed(after: .yield)): "job(resumed yield)"
        case .job(.resumed(after: .sleep)): "job(resumed sleep)"
        case .job(.asyncAfter): "job(asyncAfter)"
        case .job(.asyncAfterTeardown): "job(asyncAfterTeardown)"
        }
    }

    @Test("the table covers every case of every fact")
    func tableCoversEveryCase() {
        let covered = Set(Self.table.map { Self.caseName($0.1) })
        let every = [
            "run(poll)", "run(forever)", "run(seconds)", "messages", "late(busy)", "late(-)", "late(modeNotRunning)",
            "late(addedAfterDue)", "late(sleptPast)", "activity", "wait(poll)",
            "wait(sleep false false)", "wait(sleep true false)", "wait(sleep false true)", "wait(sleep true true)",
            "wait(sleep false true ready)", "wait(sleep false false ready)",
            "woken(nothing)", "woken(wakeUpPort)", "woken(timerPort)", "woken(mainQueue)", "woken(port)",
            "woken(unknownPort)", "modes", "wakeUp(stop -)", "wakeUp(timeout -)",
            "wakeUp(setNextFireDate afterTheWait)",
            "wakeUp(- noRun)", "ignored", "ignored(portSource)", "mode", "stop(entry)", "stop(iteration)", "stop(exit)",
            "note(say)",
            "note(duplicateOperation)",
            "note(notAsynchronous)",
            "note(noSuchQueue)", "note(noSuchThread)", "note(performInline)", "note(emptyModeSpins)",
            "note(timerOrderUnused)", "note(ownerDeallocating)", "note(ownerFreed)", "note(usesDeallocatedOwner)",
            "note(performsCancelled true)", "note(emptyModeReturned)", "note(performsCancelled false)",
            "note(addDeclined timer)", "note(addDeclined observer)", "order",
            "operation(async)", "operation(work)", "thread(new)", "thread(firstSeen)", "thread(reused)",
            "cancel(alreadyFinished)", "cancel(alreadyCancelled)", "cancel(queued)", "cancel(handedTo)",
            "cancel(executingConnection)", "cancel(executingNextCheck)", "finish(done)", "finish(doneAfterLateCancel)",
            "finish(cancelledBeforeStart)", "finish(cancelledWhileRunning)", "origin(worker)", "origin(dispatch)",
            "origin(detached)", "end(idle)", "end(taskDone)", "limit(count)", "limit(automatic true)",
            "limit(automatic false)", "queue(suspended)", "queue(resumed)", "queue(cancelAll)", "queue(waitAll)",
            "result(finished)", "result(stopped)", "result(timedOut)", "result(handledSource)", "returned(true)",
            "returned(false)", "mark(point)", "mark(begin)", "mark(end)", "dropped", "stack", "module", "paused",
            "query(currentMode)",
            "query(limitDate)", "query(nextTimerFireDate)", "query(isWaiting)", "query(contains)", "query(isValid)",
            "query(nextFireDate)", "query(allModes)", "command(posted)", "command(refused)", "command(performed)",
            "command(dropped)", "submitted(block)", "submitted(workItem)",
            "cancel(workItemQueued)", "cancel(workItemRunning)", "finish(workItemSkipped)",
            "finish(workItemRanDespiteCancel)", "delayed", "note(delayedPerformsCancelled true)",
            "note(delayedPerformsCancelled false)", "invalidated(timer 2)", "invalidated(observer 1)",
            "invalidated(source0 3)", "invalidated(source1 0)", "fireCalled(true)", "fireCalled(false)",
            "job(taskStart)", "job(resumed yield)", "job(resumed sleep)", "job(asyncAfter)", "job(asyncAfterTeardown)",
            "note(taskSuspended yield)", "note(taskSuspended sleep)", "note(taskFinished)",
            "note(asyncMainLeavesMainThread)", "note(asyncMainRunsMainLoop)", "note(asyncMainExits returned)",
            "note(asyncMainExits loopReturned)", "note(refusedAfterMainThreadExit timer)",
            "note(refusedAfterMainThreadExit block)",
        ]
        #expect(covered == Set(every))
    }

    @Test("the text trace, JSONL and Mermaid show a fact in the same words")
    func everyFormatUsesTheWords() throws {
        for (kind, fact, words) in Self.table where !Self.isTheName(fact) {
            let event = Self.event(kind, fact)
            let row = TextTraceFormatter.format([event], header: false)
            #expect(row.hasSuffix("  " + words + "\n") || row.hasSuffix(" " + words + "\n"), "text: \(row)")
            let line = JSONLTraceFormatter.line(event)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["detail"] as? String == words, "jsonl: \(line)")
        }
        for (kind, fact, _) in Self.table where Self.isTheName(fact) {
            #expect(JSONLTraceFormatter.line(Self.event(kind, fact)).contains(#""detail":null,"fact":["#))
        }
        // Mermaid words a callout's fact on its arrow, a control event's on its arrow, a note as a note.
        let trace = [
            Self.event(.runStart, .run(.poll, returnAfterSourceHandled: false)),
            Self.event(.observer, .activity(.entry)),
            Self.event(.wakeUp, .wakeUp(nil, ignored: .afterTheWait)),
            Self.event(.note, .note(.say("hello"))),
            Self.event(.sleep, .wait(.sleep(nextTimer: nil, timeLimit: Self.t200))),
            Self.event(.wake, .woken(.timerPort)),
        ]
        let diagram = MermaidTraceFormatter.format(trace, scenario: "")
        for words in ["run x (limit poll)", "observer (entry)", "wakeUp (ignored: after the wait)", "hello"] {
            #expect(diagram.contains(words), "mermaid lacks \(words):\n\(diagram)")
        }
        #expect(diagram.contains("sleep until time limit at 0.200") && diagram.contains("0.100: timer port"))
    }
}
