extension LoopEvent {
    /// What an event says beyond its kind and item, as values: the UI, the comparisons and the exports decide
    /// on these, and only the wording (`LoopEvent.detail`, `Trace/Wording`; ``TextTraceFormatter`` shows it)
    /// turns them into words.
    public enum Fact: Hashable, Sendable {
        /// `runStart`: the call's time limit and its `returnAfterSourceHandled`.
        case run(RunLimit, returnAfterSourceHandled: Bool)
        /// `source1`: how many messages the perform consumed, when more than one.
        case messages(Int)
        /// `timer`: it fired late, for the deadline `due`, and `missed` ticks of its grid went by meanwhile (nil:
        /// a one-shot timer, which has no grid), and why it could not fire at its deadline. Late means a tick was
        /// missed or the fire came at least `RunLoopCore.lateThreshold` after its deadline; a fire on time (or a
        /// real clock's wake latency) has no fact.
        case late(due: LoopInstant, missed: Int?, cause: LateCause?)
        /// `observer`: the activity it was called for.
        case activity(Activity)
        /// `sleep`: what the wait is for.
        case wait(Wait)
        /// `wake`: what ended the wait.
        case woken(WakeCause)
        /// `enqueue`: the block's mode tags.
        case modes([String])
        /// `wakeUp`: who in the engine asked (nil: a scenario or a user) and why it was ignored (nil: the port is
        /// written).
        case wakeUp(WakeUpCaller?, ignored: Ignored?)
        /// `stop`: ignored, there was no run to stop.
        case ignored(Ignored)
        /// `stop` of the innermost run (`CFRunLoopStop`): where that run was - before its first iteration, in an
        /// iteration, or past its result - which decides what the stop does.
        case stop(StopPoint)
        /// `stop` of a mode (`_CFRunLoopStopMode`), `schedule`, `cancel`: the mode.
        case mode(String)
        /// `note`: a scenario's words, or something the engine had to say about the scenario.
        case note(Note)
        /// `opAdd`: what the operation is. Boxed: it is the largest payload and the rarest, and every event's
        /// fact is as large as the largest.
        indirect case operation(OperationFacts)
        /// `opAdd` on a dispatch queue: what `async` submitted (a plain block, or a `DispatchWorkItem`).
        case submitted(DispatchSubmission)
        /// `opStart`: the thread it starts on.
        case thread(ThreadUse)
        /// `opCancel`: what the operation was doing when `cancel()` reached it.
        case cancel(CancelPoint)
        /// `opFinish`: how it ended.
        case finish(FinishOutcome)
        /// `threadCreate`: whose thread it is.
        case origin(ThreadOrigin)
        /// `threadExit`: why the thread ended.
        case end(ThreadEnd)
        /// `queue limit`: the new `maxConcurrentOperationCount`.
        case limit(QueueLimit)
        /// `queue`: the other changes of a queue (its name says which, in the same word).
        case queue(QueueAction)
        /// `result`: what the run returned (its name says it, in the same word).
        case result(RunResult)
        /// `note`: the Bool a `run(mode:before:)` of the program gave back (false: the mode was empty and it did
        /// not run). A fact of a note, not an event kind of its own: what the program sees after the run.
        case returned(Bool)
        /// `note` of a recording: a mark the program made (`LoopRecorder.mark`), or an interval's begin or end;
        /// the event's name is the program's label.
        case mark(Mark)
        /// `note` of a recording: events the recorder dropped because its buffer was full.
        case dropped(Int)
        /// `note` of a recording: a sample of the loop thread's stack while it was busy (return addresses, the
        /// interrupted instruction first). Boxed: a sample is large and rare.
        indirect case stack(StackSample)
        /// `note` of a recording: an object loaded in the process (the event's name is its file), so that a
        /// sample's addresses can be found in it when the recording is read.
        case module(LoadedModule)
        /// `note` of a recording: the recorder's stack sampler did not run for this long, past its wait, while the
        /// loop was busy (the event comes at the end of that time): the whole process was stopped (a signal, a
        /// debugger) or had no CPU, so that time is not the program's work.
        case paused(Duration)
        /// `query`: what the program asked and what the loop answered.
        case query(LoopQuery, QueryAnswer)
        /// `perform` of an ordered perform (`performSelector:target:argument:order:modes:`): its order.
        case order(Int)
        /// `perform` of a delayed perform (`performSelector:withObject:afterDelay:`): the delay it was asked with.
        case delayed(Duration)
        /// `command`: what happened to a command of a custom source's queue, and which source's it is.
        case command(CommandStep)
        /// `invalidate`: what the item is (`kind` is `.timer`, `.observer`, `.source0` or `.source1`) and the
        /// concrete modes of this loop it was in, which it left at once. The engine's own invalidations (a one-shot
        /// timer or observer after its callout) are not reported: the item's own event says it.
        case invalidated(kind: Kind, modes: [String])
        /// `timer`: the program called Foundation's `Timer.fire()`: the callout ran at once, on the calling
        /// thread, outside the loop's timer pass; a timer that `repeats` stays valid on its schedule, a one-shot
        /// one is invalidated after it (docs/cfrunloop.md §9.5).
        case fireCalled(repeats: Bool)
        /// `mainQueue`: the job is a main-actor task's or an `asyncAfter`'s, not a plain block.
        case job(MainQueueJob)
    }

    /// A command of a custom source's queue (the run-loops chapter's `addCommand:` and `sourceFired`).
    public struct CommandStep: Hashable, Sendable {
        /// The source whose queue it is in.
        public var source: String
        /// What became of the command.
        public var outcome: CommandOutcome

        package init(source: String, _ outcome: CommandOutcome) {
            self.source = source
            self.outcome = outcome
        }
    }

    /// What happened to a command.
    public enum CommandOutcome: Hashable, Sendable {
        /// The client added it; `queued` commands wait now, this one included.
        case posted(queued: Int)
        /// The queue was full (`capacity` commands wait): the command was not added.
        case refused(capacity: Int)
        /// The source's perform took it from the queue and ran it (in order, first posted first).
        case performed
        /// The source was invalidated with the command still queued: no perform will ever take it.
        case dropped
    }

    /// What a program's mark is: a point in time, or the begin or end of a named interval.
    public enum Mark: String, Hashable, Sendable, CaseIterable {
        /// What the recorded program called: `LoopRecorder.mark` (a point), `.begin` or `.end` (of an interval).
        case point, begin, end
    }

    /// A change of a queue other than its limit.
    public enum QueueAction: String, Hashable, Sendable, CaseIterable {
        /// `isSuspended = true`.
        case suspended
        /// `isSuspended = false`.
        case resumed
        /// `cancelAllOperations()`.
        case cancelAll
        /// A thread blocks in `waitUntilAllOperationsAreFinished`.
        case waitAll
    }

    /// The time limit of a `CFRunLoopRunInMode` call.
    public enum RunLimit: Hashable, Sendable {
        /// Zero or less: one pass without sleeping.
        case poll
        /// Longer than CF's limit (`TIMER_INTERVAL_LIMIT`): no deadline at all.
        case forever
        /// A deadline this long after the call began.
        case seconds(Duration)

        /// CF's reading of a `seconds` argument (NaN is no limit: CF tests `seconds <= 0` first).
        package init(seconds: Double) {
            if seconds.isNaN {
                self = .forever
            } else if !(seconds > 0) {
                self = .poll
            } else if seconds > RunLoopCore.timeIntervalLimit {
                self = .forever
            } else {
                self = .seconds(.secondsValue(seconds))
            }
        }
    }

    /// What a wait waits for.
    public enum Wait: Hashable, Sendable {
        /// A poll: the ports are looked at, the thread does not sleep.
        case poll
        /// A sleep until the first of: the next timer (nil: none) and the run's time limit (nil: none). Neither
        /// is a sleep until a port wakes it. `ready` is the port the kernel holds ready already, which the wait
        /// returns at once (``WakeCause/nothing``: none, the thread really sleeps; nil: the kernel cannot tell
        /// without reading its ports - a real loop's epoll).
        case sleep(nextTimer: TimerDeadline?, timeLimit: LoopInstant?, ready: WakeCause? = nil)

        package var isPoll: Bool { self == .poll }
    }

    /// A timer and the instant it will fire.
    public struct TimerDeadline: Hashable, Sendable {
        /// The timer.
        public var name: String
        /// When it will fire.
        public var fireTime: LoopInstant
        package init(name: String, fireTime: LoopInstant) {
            self.name = name
            self.fireTime = fireTime
        }
    }

    /// The port whose message ended a wait.
    public enum WakeCause: Hashable, Sendable {
        /// Nothing: a poll found no port ready, or the read found nothing.
        case nothing
        /// The loop's wake-up port (`CFRunLoopWakeUp`).
        case wakeUpPort
        /// The mode's timer port.
        case timerPort
        /// The main queue's port.
        case mainQueue
        /// A version-1 source's port, and the messages the read took.
        case port(String, messages: Int)
        /// A port that is none of these.
        case unknownPort(Int)
    }

    /// Where the run a `CFRunLoopStop` reached was (docs/cfrunloop.md §2.1, §2.2 S1 and L14, §10.2).
    public enum StopPoint: String, Hashable, Sendable, CaseIterable {
        /// Before its first iteration (an `entry` observer's stop): the run ends stopped at once, and the wake-up
        /// the stop writes stays for the next run.
        case entry
        /// In an iteration: the run ends stopped at the end of it, unless handledSource or timedOut wins.
        case iteration
        /// Past its result, in its `exit` observers: the stop is discarded when the run returns.
        case exit
    }

    /// Why a timer fired late: what kept it from firing at its deadline (docs/cfrunloop.md §9.3, §9.4, §9.1).
    public enum LateCause: String, Hashable, Sendable, CaseIterable {
        /// The loop ran the timer's mode at its deadline but was not waiting: a callout (or the loop's own pass)
        /// was still running, so the timer port was taken only later.
        case busy
        /// None of the timer's modes was the running one at its deadline (the loop ran another mode, a nested
        /// run of another mode, or no run at all): a timer fires only while one of its modes runs.
        case modeNotRunning
        /// The timer was added to the mode it fires in after its deadline: it fires at once.
        case addedAfterDue
        /// The loop slept in the timer's mode across its deadline: the timer port was armed for a later instant
        /// (Darwin's tolerance window) or the thread woke late.
        case sleptPast
    }

    /// Who in the engine called `CFRunLoopWakeUp`.
    public enum WakeUpCaller: String, Hashable, Sendable {
        /// `CFRunLoopStop` wakes the loop.
        case stop
        /// A run's time limit passed (CF's dispatch timer).
        case timeout
        /// A timer's fire date was set from another thread.
        case setNextFireDate
    }

    /// Why a wake-up or a stop changed nothing.
    public enum Ignored: Hashable, Sendable {
        /// No run is active.
        case noRun
        /// Between the end of a wait and the next iteration the run ignores wake-ups (docs/cfrunloop.md §10.1).
        case afterTheWait
        /// A signal of a port (version-1) source: only version-0 sources are performed for a signal.
        case portSource
    }

    /// A note in the trace.
    public enum Note: Hashable, Sendable {
        /// A scenario's `say`.
        case say(String)
        /// `add` of an operation the queue already has.
        case duplicateOperation(String)
        /// `finish` of an operation that is not asynchronous.
        case notAsynchronous(String)
        /// `add` to a queue that does not exist.
        case noSuchQueue(operation: String, queue: String)
        /// `perform` on a thread that does not exist.
        case noSuchThread(task: String, thread: String)
        /// `perform` on the thread itself, with waitUntilDone: it runs inline.
        case performInline(task: String)
        /// `RunLoop.run(mode:before:)` returned NO at once because the mode is empty.
        case emptyModeSpins(mode: String)
        /// A timer was given an `order`: CF stores it and never uses it (timers fire by deadline).
        case timerOrderUnused(timer: String, order: Int)
        /// An owner's `dealloc` began (`dealloc vc`): its weak references are nil from now on.
        case ownerDeallocating(owner: String)
        /// An owner's `dealloc` returned: its memory is freed.
        case ownerFreed(owner: String)
        /// A property of a freed owner was used through a strong reference (a task performed on it after its
        /// `dealloc` returned): a bad access on a real device; skipped here, and a read gives false.
        case usesDeallocatedOwner(owner: String, property: String)
        /// Foundation's `run(mode:before:)` came back false without running: the mode is empty (CF calls no
        /// observer then, so nothing else in the trace shows why). The engine's words, not the program's.
        case emptyModeReturned(mode: String)
        /// `cancelPerformSelector:target:argument:` (a task) or `cancelPerformSelectorsWithTarget:` (nil): how
        /// many queued ordered performs it removed.
        case performsCancelled(task: String?, target: String, count: Int)
        /// `cancelPreviousPerformRequestsWithTarget:selector:object:` (a task) or
        /// `cancelPreviousPerformRequestsWithTarget:` (nil): how many delayed performs of this loop it removed.
        case delayedPerformsCancelled(task: String?, target: String, count: Int)
        /// `CFRunLoopAddTimer` or `CFRunLoopAddObserver` of an item (`kind` is `.timer` or `.observer`) that is in
        /// another loop (`holder`'s) already: CF returns without adding it and says nothing. Recorded on the loop
        /// that asked to get it.
        case addDeclined(item: String, kind: Kind, holder: String)
        /// A main-actor task's job reached an `await`: the rest of the task is a later job of the main queue.
        case taskSuspended(task: String, at: TaskAwait)
        /// A main-actor task's last job returned: the task is done.
        case taskFinished(task: String)
        /// An async `main` (`task`, the main thread's name) reached its first `await` on Linux: the main thread
        /// calls `dispatch_main()` and leaves; libdispatch runs the main queue on a worker, without the run loop.
        case asyncMainLeavesMainThread(task: String)
        /// An async `main` reached its first `await` on Darwin: the main thread runs `CFRunLoopRun()`.
        case asyncMainRunsMainLoop(task: String)
        /// CF refused to add `item` (`kind`: a source, timer or observer) to the main run loop, or to queue block
        /// `item` there: the main thread has exited (an async main's `dispatch_main()`); CF logs it once.
        case refusedAfterMainThreadExit(item: String, kind: Kind)
        /// The process ends (`exit(0)`): the async `main` returned, or (Darwin) the run loop it ran returned.
        case asyncMainExits(task: String, because: AsyncMainExit)
    }

    /// Why an async `main` ends the process (docs/concurrency.md, "The async main").
    public enum AsyncMainExit: String, Hashable, Sendable {
        /// Its body's last part returned.
        case returned
        /// The `CFRunLoopRun()` it ran on Darwin returned (the main loop was stopped) before its body ended.
        case loopReturned
    }

    /// An operation as it was added.
    public struct OperationFacts: Hashable, Sendable {
        /// Its queue priority.
        public var priority: QueuePriority
        /// The operations it waits for, by name.
        public var dependencies: [String]
        /// What it does when it runs.
        public var body: OperationSpec.Body
        /// An asynchronous operation's server reply, this long after it started.
        public var replyAfter: Duration?

        package init(_ spec: OperationSpec) {
            priority = spec.priority
            dependencies = spec.dependencies
            body = spec.body
            replyAfter = spec.replyAfter
        }
    }

    /// The thread an operation starts on.
    public enum ThreadUse: Hashable, Sendable {
        /// A worker the queue created for it.
        case new
        /// A thread this run sees for the first time (libdispatch's, which may have run other work before).
        case firstSeen
        /// A thread that ran `before` operations already.
        case reused(before: Int)

        package var isReuse: Bool { if case .reused = self { true } else { false } }
    }

    /// What an operation was doing when `cancel()` reached it.
    public enum CancelPoint: Hashable, Sendable {
        /// It had finished: the cancel does nothing.
        case alreadyFinished
        /// It had been cancelled: the cancel does nothing.
        case alreadyCancelled
        /// Pending or ready: it finishes when the queue starts it.
        case queued
        /// Given to a worker that has not started it yet.
        case handedTo(worker: String)
        /// Executing an asynchronous operation: its connection is cancelled.
        case executingConnection
        /// Executing: it stops at its next check of `isCancelled`.
        case executingNextCheck
        /// A `DispatchWorkItem` the queue has not reached: its block will not run (the queue skips it).
        case workItemQueued
        /// A `DispatchWorkItem` whose block runs: `cancel()` sets `isCancelled` and the block goes on to its end.
        case workItemRunning

        /// True when the cancel changed nothing.
        package var hadNoEffect: Bool { self == .alreadyFinished || self == .alreadyCancelled }
    }

    /// How an operation ended.
    public enum FinishOutcome: Hashable, Sendable {
        /// Done, not cancelled.
        case done
        /// Done, though it was cancelled: the cancel came after its last check point.
        case doneAfterLateCancel
        /// Cancelled before it started: it finished without running.
        case cancelledBeforeStart
        /// Cancelled while it ran: it stopped at a check of `isCancelled`.
        case cancelledWhileRunning
        /// A `DispatchWorkItem` cancelled before its turn: the queue reached it and skipped its block.
        case workItemSkipped
        /// A `DispatchWorkItem` cancelled while its block ran: the block ran to its end anyway.
        case workItemRanDespiteCancel
        /// A dispatch block (`async`, or a work item never cancelled) returned: nothing depends on it, and its queue
        /// goes on to its next block.
        case blockDone

        /// Cancelled, and it ended because of it (a work item that ran anyway is not).
        package var isCancelled: Bool {
            self == .cancelledBeforeStart || self == .cancelledWhileRunning || self == .workItemSkipped
        }
    }

    /// Whose thread a new thread is.
    public enum ThreadOrigin: Hashable, Sendable {
        /// A worker the engine's queue created.
        case worker(of: String)
        /// A libdispatch thread, first seen running an operation of the queue.
        case dispatch(queue: String)
        /// `Thread.detachNewThread`: a thread for one task.
        case detached

        /// The queue whose thread it is, if any.
        package var queue: String? {
            switch self {
            case .worker(let queue), .dispatch(let queue): queue
            case .detached: nil
            }
        }
    }

    /// What a queue runs, so that words about its workers name it: an operation queue's operations, a dispatch
    /// queue's blocks (`async` blocks and work items).
    public enum PoolWork: String, Hashable, Sendable {
        /// `Operation`s of an `OperationQueue`.
        case operation
        /// Blocks and `DispatchWorkItem`s of a `DispatchQueue`.
        case block
    }

    /// Why a thread ended.
    public enum ThreadEnd: Hashable, Sendable {
        /// A worker idle for `timeout` retired, after running `ran` pieces of `work`: operations of an operation
        /// queue, blocks of a dispatch queue.
        case idle(timeout: Duration, ran: Int, work: PoolWork)
        /// A detached thread's task is done.
        case taskDone
    }

    /// A queue's `maxConcurrentOperationCount`.
    public enum QueueLimit: Hashable, Sendable {
        /// At most this many at once.
        case count(Int)
        /// The default: `width` at once on the engine's machine, or libdispatch decides (nil).
        case automatic(width: Int?)

        package var count: Int? { if case .count(let count) = self { count } else { nil } }
    }
}

extension LoopEvent {
    /// A `sleep`'s wait.
    package var wait: Wait? { if case .wait(let wait) = fact { wait } else { nil } }

    /// What ended a `wake`'s wait.
    package var wakeCause: WakeCause? { if case .woken(let cause) = fact { cause } else { nil } }

    /// True for a `wakeUp` or `stop` that changed nothing.
    package var wasIgnored: Bool {
        switch fact {
        case .wakeUp(_, .some), .ignored: return true
        default: return false
        }
    }

    /// The messages a `source1` perform consumed (one unless it says more).
    package var messagesConsumed: Int { if case .messages(let count) = fact { count } else { 1 } }

    /// The Bool of a `run(mode:before:)` the program made (a `note` with the `returned` fact), else nil.
    package var returnedValue: Bool? { if case .returned(let value) = fact { value } else { nil } }

    /// The question and answer of a `query` event, else nil.
    package var queryFact: (question: LoopQuery, answer: QueryAnswer)? {
        if case .query(let question, let answer) = fact { (question, answer) } else { nil }
    }

    /// The deadline a late `timer` fire was for.
    package var lateDue: LoopInstant? { if case .late(let due, _, _) = fact { due } else { nil } }
}

extension LoopEvent {
    /// A sample of a thread's stack: the interrupted instruction's address, then each caller's return address.
    public struct StackSample: Hashable, Sendable {
        /// The addresses, the interrupted instruction first, then each caller's return address.
        public var frames: [UInt64]

        /// A sample of these addresses.
        public init(frames: [UInt64]) { self.frames = frames }
    }

    /// Where an object was loaded: the address its file's addresses are moved by (`base`), and the extent of its
    /// loaded segments.
    public struct LoadedModule: Hashable, Sendable {
        /// What was added to the file's addresses when it was loaded (0 for an executable that is not PIE).
        public var base: UInt64
        /// The lowest address of its loaded segments.
        public var low: UInt64
        /// The address just past its loaded segments.
        public var high: UInt64
        /// Its GNU build ID in hexadecimal, when it has one: the file read when the recording is read must have the
        /// same, or its names are not this object's.
        public var buildID: String?

        /// An object loaded at `base`, its segments from `low` up to `high`, with the build ID `buildID`.
        public init(base: UInt64, low: UInt64, high: UInt64, buildID: String? = nil) {
            self.base = base
            self.low = low
            self.high = high
            self.buildID = buildID
        }

        /// True when `address` lies in its loaded segments.
        public func contains(_ address: UInt64) -> Bool { address >= low && address < high }
    }
}
