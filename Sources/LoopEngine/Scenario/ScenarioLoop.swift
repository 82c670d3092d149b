/// What a `.loop` program does to one thread's run loop, and the little the language needs to know of the threads
/// around it.
///
/// The language itself - flags, conditions, owners, call counts, which items an action reaches, queries, the
/// `while` idioms - is interpreted once, in `ScenarioLoop+Interpreter.swift`, against this protocol. It has two
/// adapters: the engine's (`ScriptInterpreter`, over `RunLoopCore`) and the real CFRunLoop's (the oracle's
/// `OracleHost`, which keeps only its CF calls). A new construct is written once in the interpreter, and only
/// what it does to a loop is written once per adapter, so the two cannot disagree on what the program means;
/// the differential tests then compare what the loops do.
///
/// Items are named: an adapter acts on its own thread's items (the interpreter finds the thread that owns one,
/// ``owner(of:)``). Every thread of one scenario is the same adapter type (`Self`).
package protocol ScenarioLoop: AnyObject {
    // MARK: - The scenario around the loop

    /// The scenario's flags and owners, shared by every thread (`ScenarioFlags` holds the rules).
    var flags: ScenarioFlags { get }
    /// The run was halted (its budget, horizon or time limit): programs and scripts stop acting.
    var isHalted: Bool { get }
    /// Whether this thread has an item called `name`.
    func hasItem(_ name: String) -> Bool
    /// Thread `name`'s loop: a declared thread, or one started on the way; nil when there is none (yet).
    func thread(named name: String) -> Self?
    /// Whether thread `name` has a loop: a declared thread's, or a started thread's from its creation, before its
    /// program has run (CF makes a thread's loop on demand: docs/cfrunloop.md §17.1).
    func hasLoop(named name: String) -> Bool
    /// Whether thread `name` is this thread.
    func isThisThread(_ name: String) -> Bool
    /// The first thread, declared ones in order and then those started on the way, for which `test` holds.
    func firstThread(where test: (Self) -> Bool) -> Self?

    // MARK: - The interpreter's hooks

    /// Called before each action (`outside`: an outside event's); false ends the list of actions.
    func mayPerform(outside: Bool) -> Bool
    /// Called after each action (the oracle's tracer looks for the modes the action made).
    func didPerform()
    /// Records an event on this thread's trace: a program's note, a query's answer, a run's Bool, an owner's note.
    func record(_ kind: LoopEvent.Kind, _ name: String?, fact: LoopEvent.Fact?)
    /// A note the engine adds to explain what the program did (an empty mode spinning, a perform done inline, a
    /// thread that does not exist). Not the real CF's doing: the reference records none (compare leaves notes out).
    func diagnose(_ note: LoopEvent.Note)
    /// The callouts of each item so far (the first call is 1), which `ScriptStep.applies` reads.
    var callCounts: ScriptCallCounts { get }

    // MARK: - Items and modes (on this thread's own items)

    /// Adds item `name` to `mode` of thread `thread`'s loop (this thread's own when nil: `add … on THREAD`
    /// otherwise; nothing when that thread has no loop).
    func add(_ name: String, _ mode: ModeName, onThread thread: String?)
    /// Removes item `name` from `mode` of thread `thread`'s loop (this thread's own when nil).
    func remove(_ name: String, _ mode: ModeName, onThread thread: String?)
    /// Invalidates item `name` (a custom source's queued commands are dropped after its cancel callouts).
    func invalidate(_ name: String)
    /// Signals version-0 source `name`.
    func signal(_ name: String)
    /// Sends one message to port `name`.
    func send(_ name: String)
    /// Moves timer `name`'s next fire date to `delay` from now.
    func setNextFireDate(_ name: String, after delay: Duration)
    /// Whether timer `name` repeats (`CFRunLoopTimerDoesRepeat`); nil when it is invalid (or no timer).
    func timerRepeats(_ name: String) -> Bool?
    /// What item `name`'s callout does.
    func script(of name: String) -> [ScriptStep]
    /// Invalidates one-shot timer `name` after a `Timer.fire()` (`Timer.invalidate()` inside `fire()`), recorded
    /// as the `timer` event's fact already, not as an `invalidate` event of its own.
    func invalidateAfterFire(_ name: String)
    /// `post CMD to SOURCE`: a command into custom source `source`'s queue, recorded at the client's moment.
    func post(_ command: String, to source: String)
    /// Makes `mode` one of the common modes.
    func addCommonMode(_ mode: ModeName)

    // MARK: - The loop

    /// The program works (blocks its thread without running the loop) for `duration`.
    func work(_ duration: Duration, outside: Bool)
    /// `CFRunLoopWakeUp`.
    func wakeUp()
    /// `CFRunLoopStop`.
    func stop()
    /// `_CFRunLoopStopMode`.
    func stopMode(_ mode: ModeName)
    /// A run call other than the `while` idioms (those are the interpreter's: ``runOnce(_:)``).
    func run(_ call: RunCall)
    /// One `run(mode:before: .distantFuture)` of a `while` idiom; the Bool it returns.
    func runOnce(_ mode: ModeName) -> Bool
    /// Brackets the runs of one `while` idiom in `mode` (the oracle counts them for depth and mode).
    func runs(in mode: ModeName, _ body: () -> Void)
    /// The answer to a query, asked of this thread's loop at this moment; the item it names (if any) is
    /// `holder`'s, the thread the interpreter found owns it (``owner(of:)``): a program may ask about another
    /// thread's item, which it holds a reference to, as of its own.
    func answer(_ question: LoopQuery, itemsOf holder: Self) -> QueryAnswer

    // MARK: - Blocks, performs and threads

    /// `CFRunLoopPerformBlock` of a block that performs `inner`.
    func performBlock(_ name: String, modes: [ModeName], _ inner: [Action])
    /// `DispatchQueue.main.async` of a block that performs `inner` (on the main thread's loop).
    func mainQueue(_ name: String, _ inner: [Action])
    /// `Task { @MainActor in … }` whose jobs are `parts` (the interpreter's ``MainActorTaskPart``): each part runs
    /// as the main thread's ``runTaskPart(_:_:)``, and its `await` decides when the next is queued.
    func mainActorTask(_ name: String, _ parts: [MainActorTaskPart])
    /// The program of `thread NAME main async` (`name`): an async `main` whose body is `parts`. Its first part runs
    /// here, on the main thread before any run loop; at its first `await` the main thread leaves for
    /// `dispatch_main()` (Linux) or runs `CFRunLoopRun()` (Darwin); its end is `exit(0)` (docs/concurrency.md).
    func asyncMain(_ name: String, _ parts: [MainActorTaskPart])
    /// `DispatchQueue.main.asyncAfter(deadline: .now() + delay)` of a block that performs `inner`.
    func asyncAfter(_ name: String, delay: Duration, _ inner: [Action])
    /// `performSelector:onThread:` of a task performing `inner` on thread `thread`'s loop, another thread's or
    /// (without `wait`) this one; with `wait` the caller blocks until it has run.
    func performTask(_ task: String, onThread thread: String, wait: Bool, _ inner: [Action])
    /// `wakeup on THREAD`: wakes thread `thread`'s loop, if it has one.
    func wakeUp(thread: String)
    /// `performSelector:target:argument:order:modes:` on this thread's loop.
    func performOrdered(_ task: String, target: String, order: Int, modes: [ModeName], _ inner: [Action])
    /// `cancelPerformSelector…` of ordered performs.
    func cancelOrderedPerforms(task: String?, target: String)
    /// `performSelector:withObject:afterDelay:inModes:` on this thread's loop.
    func performDelayed(_ task: String, target: String, delay: Duration, modes: [ModeName], _ inner: [Action])
    /// `cancelPreviousPerformRequestsWithTarget:…` of delayed performs.
    func cancelDelayedPerforms(task: String?, target: String)
    /// `[thread start]` of the thread declared `later` as `name`.
    func startThread(_ name: String)
    /// `Thread.detachNewThread` of a task performing `inner`.
    func detach(_ task: String, _ inner: [Action])

    // MARK: - Operation and dispatch queues (the CF oracle refuses them; the Foundation pool oracle runs them)

    /// `addOperation` of `spec` to operation queue `queue`, or `async` of a block or work item to dispatch queue
    /// `queue`; an unknown queue is a `noSuchQueue` note.
    func addOperation(_ spec: OperationSpec, to queue: String)
    /// `cancel` of operation (or dispatch work item) `name`, on whichever queue has it.
    func cancelOperation(_ name: String)
    /// `cancelAllOperations` of queue `queue`.
    func cancelAll(_ queue: String)
    /// `isSuspended = flag` of queue `queue`.
    func setSuspended(_ queue: String, _ flag: Bool)
    /// `maxConcurrentOperationCount = limit` of queue `queue` (nil: the default).
    func setLimit(_ queue: String, _ limit: Int?)
    /// The message that finishes asynchronous operation `name`.
    func finishOperation(_ name: String)
    /// `waitUntilAllOperationsAreFinished` of queue `queue`: this thread blocks until it has nothing left.
    func waitUntilAllFinished(_ queue: String)
}

/// The callout counts of one thread's items, per key (an item's name, or a source's `schedule`/`cancel`
/// callout). Guarded by a lock: an item in two threads' loops is called out by both.
package final class ScriptCallCounts: @unchecked Sendable {
    // @unchecked Sendable: `counts` is only touched with `lock` held.
    private var counts: [String: Int] = [:]
    private let lock = LoopLock()

    package init() {}

    /// Counts one more call of `key`; its number (the first is 1).
    package func next(_ key: String) -> Int {
        lock.withLock {
            let call = (counts[key] ?? 0) + 1
            counts[key] = call
            return call
        }
    }
}
