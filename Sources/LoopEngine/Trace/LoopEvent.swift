/// One step of a run loop, as the engine reports it. A trace is an array of these; the UI animates them and
/// every export format is made from them.
public struct LoopEvent: Hashable, Sendable {
    /// What happened. Raw values are the names used in every trace format (CF's vocabulary where CF has one).
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A call of `CFRunLoopRunInMode` began (`name` = mode; the fact: its limit and returnAfterSourceHandled).
        case runStart
        /// The observer activities (`kCFRunLoopEntry` … `kCFRunLoopExit`), as the loop reaches them.
        case entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit
        /// A version-0 source was performed.
        case source0
        /// A version-1 (port) source was performed (fact: messages consumed).
        case source1
        /// A timer fired (fact: the deadline it was fired for).
        case timer
        /// A block queued with `perform(_:)` ran.
        case block
        /// An observer was called (fact: the activity).
        case observer
        /// The main thread drained a block of the main queue (docs/cfrunloop.md §14).
        case mainQueue
        /// The loop entered its wait (fact: poll, until T, or indefinitely).
        case sleep
        /// The wait ended (fact: which port, or nothing).
        case wake
        /// A run returned (`name` = the result).
        case result
        /// A block was queued with `perform(_:modes:_:)` (fact: its mode tags); it runs in a later blocks pass.
        case enqueue
        /// A version-0 source was signalled.
        case signal
        /// A message was sent to a port source.
        case send
        /// `wakeUp()` was called (its fact says when it was ignored).
        case wakeUp
        /// `stop()` was called (its fact says when it was ignored).
        case stop
        /// A source's schedule callout (added to a mode) or cancel callout (removed from one).
        case schedule, cancel
        /// A program invalidated an item (`CFRunLoopSourceInvalidate`, `CFRunLoopTimerInvalidate`,
        /// `CFRunLoopObserverInvalidate`): it left every mode at once (fact: what it is and the modes it left). No
        /// callout of its own; a version-0 source's cancel callouts follow, one per mode.
        case invalidate
        /// A command of a custom source's queue (`name` = the command; fact: posted, refused, performed or
        /// dropped, and the source).
        case command
        /// A task sent with perform-on-thread ran on this loop (`performSelector:onThread:`).
        case perform
        /// Free text from a scenario (a callout's `say`, a lesson's narration).
        case note
        /// A program asked the loop something (`query`; fact: the question and its answer).
        case query
        /// An operation was added to a queue (`loop` = the queue; `detail` = its priority and dependencies).
        case opAdd
        /// An operation became ready: every dependency has finished.
        case opReady
        /// A worker thread started an operation (`loop` = the worker; `detail` = new or reused thread).
        case opStart
        /// An operation was cancelled (fact: what it was doing: queued, executing, finished).
        case opCancel
        /// An operation finished (fact: done, or how cancellation ended it).
        case opFinish
        /// A thread was created (`loop` = the new thread: a queue's worker, or a detached thread).
        case threadCreate
        /// A thread ended (fact: why: a worker idle too long, a detached thread's task done).
        case threadExit
        /// A queue changed (`loop` = the queue; `name` = suspended, resumed, limit or waitAll).
        case queue

        /// The six activities, in order.
        package static let activities: [Kind] = [
            .entry, .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .exit,
        ]

        /// The kinds a thread pool (operation queue) emits.
        static let poolKinds: [Kind] = [
            .opAdd, .opReady, .opStart, .opCancel, .opFinish, .threadCreate, .threadExit, .queue,
        ]

        /// The kinds of item an `invalidate` event names (its fact's `kind`).
        package static let invalidatable: [Kind] = [.timer, .observer, .source0, .source1]

        package var isActivity: Bool { Self.activities.contains(self) }
        package var isPool: Bool { Self.poolKinds.contains(self) }
        /// True for the calls out of the loop into user code.
        package var isCallout: Bool {
            switch self {
            case .source0, .source1, .timer, .block, .observer, .mainQueue, .perform: true
            default: false
            }
        }
    }

    /// When it happened.
    public var time: LoopInstant
    /// The loop (thread) it happened on.
    public var loop: String
    /// How many runs were active (1 = the outermost run; 0 = outside any run).
    public var depth: Int
    /// The mode of the innermost run, if any.
    public var mode: String?
    /// The iteration of the innermost run (0 = before its first iteration).
    public var iteration: Int
    /// What happened: an observer activity, a callout, a sleep, a wake, a run's start or end, ….
    public var kind: Kind
    /// The item (source, timer, observer, block), the mode of a `runStart`, or the result.
    public var name: String?
    /// What else it says, as values (what a sleep waits for, why a wake happened, an observer's activity);
    /// ``TextTraceFormatter`` words it.
    public var fact: Fact?

    package init(
        time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int, kind: Kind,
        name: String? = nil, fact: Fact? = nil
    ) {
        self.time = time
        self.loop = loop
        self.depth = depth
        self.mode = mode
        self.iteration = iteration
        self.kind = kind
        self.name = name
        self.fact = fact
    }
}
