/// A scenario as data: loops, their items, what callouts do, what the outside world does and when, and how each
/// thread runs its loop. The `.loop` language parses into this; the engine's ``ScenarioRunner`` and the real
/// CFRunLoop oracle both run it, which is what makes differential tests possible.
public struct Scenario: Sendable, Equatable {
    /// The scenario's name (a lesson's file name without `.loop`).
    public var name: String
    package var profile: PlatformProfile
    package var threads: [ThreadSpec]
    /// What other threads (or the user) do, at times measured from the start.
    package var outside: [OutsideEvent]
    /// Operation queues (thread pools) any thread may add operations to; their worker threads come and go.
    package var queues: [QueueSpec]
    /// What one iteration of a loop costs on the virtual clock (``VirtualWorld/iterationCost``; `iteration cost`
    /// in a `.loop` file). Real threads ignore it: their iterations take real time.
    package var iterationCost: Duration
    /// Objects that own threads and go away (`owner vc weak weakSelf`, `dealloc vc`).
    package var owners: [OwnerSpec]
    /// The choices the virtual world makes where several threads (or an outside event) could go on at one
    /// instant (`Schedule`; `loopviz run --schedule ID`). Real threads ignore it: their OS scheduler chooses.
    package var schedule = Schedule.default

    /// True when the main thread's program is an async `main` (`thread NAME main async`).
    package var hasAsyncMain: Bool { threads.contains { $0.isMain && $0.isAsyncMain } }

    package init(
        name: String, profile: PlatformProfile = .linux, threads: [ThreadSpec], outside: [OutsideEvent] = [],
        queues: [QueueSpec] = [], iterationCost: Duration = VirtualWorld.defaultIterationCost, owners: [OwnerSpec] = []
    ) {
        self.name = name
        self.profile = profile
        self.threads = threads
        self.outside = outside
        self.queues = queues
        self.iterationCost = iterationCost
        self.owners = owners
    }

    /// A scenario with one secondary thread named `T`.
    package init(
        name: String, profile: PlatformProfile = .linux, commonModes: [ModeName] = [], items: [ItemSpec],
        program: [Action], outside: [OutsideEvent] = [], iterationCost: Duration = VirtualWorld.defaultIterationCost
    ) {
        self.init(
            name: name, profile: profile,
            threads: [ThreadSpec(name: "T", commonModes: commonModes, items: items, program: program)],
            outside: outside, iterationCost: iterationCost)
    }

    /// Every mode name the scenario mentions (the oracle pre-creates its tracing observer in each).
    package var mentionedModes: [ModeName] {
        var names: Set<ModeName> = [.default]
        for thread in threads {
            names.formUnion(thread.commonModes)
            for item in thread.items { names.formUnion(item.modes) }
            Action.collectModes(thread.program, into: &names)
            for item in thread.items { Action.collectModes(item.script.map(\.action), into: &names) }
        }
        for event in outside { Action.collectModes(event.actions, into: &names) }
        names.remove(.common)
        return names.sorted()
    }
}

/// One thread with its loop.
public struct ThreadSpec: Sendable, Equatable {
    package var name: String
    /// The main thread's loop stands for the libdispatch main queue too (docs/cfrunloop.md §14).
    package var isMain: Bool
    /// Modes made common before anything is added (besides `default`, which always is).
    package var commonModes: [ModeName]
    /// Items, created (and added to their modes, in this order) before the program starts.
    package var items: [ItemSpec]
    /// What the thread does: set-up actions and calls that run its loop.
    package var program: [Action]
    /// The main thread's program is an `async` `main` (`thread NAME main async`): its body is a main-actor task
    /// whose first part runs on the main thread before any run loop (docs/concurrency.md, "The async main").
    package var isAsyncMain = false
    /// A thread started on the way (`thread worker later`): it exists, with its loop and items, only once some
    /// thread's `start worker` (`[thread start]`) has run.
    package var startsLater: Bool

    package init(
        name: String, isMain: Bool = false, commonModes: [ModeName] = [], items: [ItemSpec], program: [Action],
        startsLater: Bool = false
    ) {
        self.name = name
        self.isMain = isMain
        self.commonModes = commonModes
        self.items = items
        self.program = program
        self.startsLater = startsLater
    }
}

/// A named run loop item and what its callout does.
public struct ItemSpec: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case source0(order: Int)
        case port
        /// `first` is measured from the start (negative: a date before it); `interval` zero means one-shot.
        case timer(first: Duration, interval: Duration, tolerance: Duration)
        case observer(activities: Activity, repeats: Bool, order: Int)
    }

    package var name: String
    package var kind: Kind
    /// Modes it is added to at set-up (may be empty: added later by an action).
    package var modes: [ModeName]
    /// What each callout does.
    package var script: [ScriptStep]
    /// A timer's `order` (`CFRunLoopTimerCreate`'s): stored and, as in CF, never used for the firing order. Kept
    /// beside ``Kind/timer(first:interval:tolerance:)`` so that code matching a timer's fields stays as it is.
    package var timerOrder: Int
    /// A version-0 source's schedule and cancel callouts (`on schedule:`, `on cancel:`): what each does, run by
    /// CF inside `CFRunLoopAddSource`, `CFRunLoopRemoveSource` and `CFRunLoopSourceInvalidate`, once per concrete
    /// mode (docs/cfrunloop.md §18). Each counts its own calls (`call 2` is the second schedule).
    package var sourceCallouts: SourceCallouts
    /// A timer made by a Foundation convenience (`foundation init`, `foundation scheduled`): ``Kind`` then holds
    /// the interval given to the call as `first`, and `interval` is that interval when it repeats, 0 when not;
    /// the first fire date is the call's, on the scenario's profile (``firstFire(profile:)``).
    package var foundationTimer: FoundationTimerCall?

    package init(
        name: String, kind: Kind, modes: [ModeName] = [.default], script: [ScriptStep] = [], timerOrder: Int = 0,
        sourceCallouts: SourceCallouts = SourceCallouts(), foundationTimer: FoundationTimerCall? = nil
    ) {
        self.name = name
        self.kind = kind
        self.modes = modes
        self.script = script
        self.timerOrder = timerOrder
        self.sourceCallouts = sourceCallouts
        self.foundationTimer = foundationTimer
    }

    package static func source0(
        _ name: String, order: Int = 0, modes: [ModeName] = [.default], _ script: [ScriptStep] = []
    ) -> ItemSpec {
        ItemSpec(name: name, kind: .source0(order: order), modes: modes, script: script)
    }

    package static func port(_ name: String, modes: [ModeName] = [.default], _ script: [ScriptStep] = []) -> ItemSpec {
        ItemSpec(name: name, kind: .port, modes: modes, script: script)
    }

    package static func timer(
        _ name: String, first: Duration, every interval: Duration = .zero, tolerance: Duration = .zero, order: Int = 0,
        modes: [ModeName] = [.default], _ script: [ScriptStep] = []
    ) -> ItemSpec {
        ItemSpec(
            name: name, kind: .timer(first: first, interval: interval, tolerance: tolerance), modes: modes,
            script: script, timerOrder: order)
    }

    /// A timer made by Foundation's `call` with `interval` (`repeats` as given), at its thread's set-up.
    package static func foundationTimer(
        _ name: String, _ call: FoundationTimerCall, interval: Duration, repeats: Bool = true,
        tolerance: Duration = .zero, modes: [ModeName] = [.default], _ script: [ScriptStep] = []
    ) -> ItemSpec {
        ItemSpec(
            name: name, kind: .timer(first: interval, interval: repeats ? interval : .zero, tolerance: tolerance),
            modes: modes, script: script, foundationTimer: call)
    }

    package static func observer(
        _ name: String, _ activities: Activity = .allActivities, repeats: Bool = true, order: Int = 0,
        modes: [ModeName] = [.default], _ script: [ScriptStep] = []
    ) -> ItemSpec {
        ItemSpec(
            name: name, kind: .observer(activities: activities, repeats: repeats, order: order), modes: modes,
            script: script)
    }
}

/// One action of a callout, optionally limited to some calls (the first call is 1).
public struct ScriptStep: Sendable, Equatable {
    package enum When: Sendable, Equatable {
        case always
        /// Only on call number n.
        case call(Int)
        /// On calls 1 through n.
        case callsThrough(Int)
        /// Only when the observer is called for this activity.
        case activity(Activity)
    }

    package var when: When
    package var action: Action

    package init(_ action: Action, when: When = .always) {
        self.when = when
        self.action = action
    }

    /// Whether this step runs on call number `call` (the first is 1) of its item, called for `activity` when the
    /// item is an observer. Package access: the CF oracle chooses its steps by this same rule.
    package func applies(call: Int, activity: Activity?) -> Bool {
        switch when {
        case .always: true
        case .call(let n): call == n
        case .callsThrough(let n): call <= n
        case .activity(let wanted): activity.map { !$0.isDisjoint(with: wanted) } ?? false
        }
    }
}

/// Something a callout, a thread's program or the outside world does.
public indirect enum Action: Sendable, Equatable {
    /// Keep the thread busy (a callout doing real work).
    case work(Duration)
    /// Signal a version-0 source.
    case signal(String)
    /// Send `count` messages to a port source.
    case send(String, count: Int)
    /// Send `count` messages to a port of another thread (`send workerPort on worker`): nothing happens while
    /// that thread has not started.
    case sendTo(thread: String, port: String, count: Int)
    /// Start a thread declared `later` (`[thread start]`); a thread already started is not started again.
    case start(thread: String)
    /// `CFRunLoopWakeUp` of the thread's own loop.
    case wakeUp
    /// `CFRunLoopStop` of the thread's own loop.
    case stop
    /// `_CFRunLoopStopMode`.
    case stopMode(ModeName)
    /// Add an item (by name) to a mode of its thread's loop.
    case add(String, ModeName)
    /// Remove an item (by name) from a mode of its thread's loop.
    case remove(String, ModeName)
    /// `CFRunLoopAddSource`/`AddTimer`/`AddObserver` of an item (by name, as `add` finds it) on another thread's
    /// loop (`add tick to default on worker`). CF adds a source to any number of loops; a timer or an observer
    /// that is in one loop already it silently declines (docs/cfrunloop.md, "One item, two loops"). Nothing
    /// happens while that thread, declared `later`, has not started.
    case addOn(thread: String, item: String, ModeName)
    /// `CFRunLoopRemoveSource`/`RemoveTimer`/`RemoveObserver` on another thread's loop.
    case removeOn(thread: String, item: String, ModeName)
    /// Invalidate an item (by name): `CFRunLoopSourceInvalidate`, `…TimerInvalidate`, `…ObserverInvalidate`.
    case invalidate(String)
    /// `setNextFireDate(now + delay)` on a timer.
    case setNextFireDate(String, after: Duration)
    /// Foundation's `Timer.fire()`: the timer's callout at once, on the calling thread, outside the loop's timer
    /// pass (nothing when the timer is invalid); a repeating timer stays valid on its schedule, a one-shot one is
    /// invalidated after it (docs/cfrunloop.md §9.5).
    case fire(String)
    /// `CFRunLoopPerformBlock` with a name, mode tags and what the block does.
    case performBlock(String, modes: [ModeName], [Action])
    /// `DispatchQueue.main.async` (main thread only).
    case mainQueue(String, [Action])
    /// `Task { @MainActor in … }` (a file with a main thread): each part of the body between two `await`s is one
    /// job of the main queue (docs/concurrency.md).
    case mainActorTask(String, [Action])
    /// `await Task.yield()` or `try await Task.sleep(for:)`, directly in a `mainActorTask`'s body: where the task
    /// suspends and the next job begins.
    case await(TaskAwait)
    /// `DispatchQueue.main.asyncAfter(deadline: .now() + delay)`: a libdispatch timer whose handler is a
    /// main-queue job.
    case asyncAfter(String, delay: Duration, [Action])
    /// `CFRunLoopAddCommonMode` on the thread's own loop.
    case addCommonMode(ModeName)
    /// Run the loop (from a program, or nested from a callout).
    case run(RunCall)
    /// Set a named flag of the scenario (ends a `RunCall.whileNot` loop).
    case setFlag(String)
    /// Set (`true`) or clear a flag or an owner's property (`set vc.stopped`, `clear vc.thread`): a write through
    /// a nil weak reference does nothing, one through a freed owner is a bad access (see `ScenarioFlags`).
    case assign(FlagReference, Bool)
    /// `if CONDITION`: the actions run only when the condition holds when the `if` is reached.
    case ifHolds(Condition, [Action])
    /// The owner's `dealloc`: its weak references become nil, `actions` run (the body of `dealloc`), then it is
    /// freed.
    case dealloc(owner: String, [Action])
    /// The chapter's client adds a command to a custom source's queue (`post CMD to SOURCE`): it waits there,
    /// in order, until the source's perform drains it. No signal, no wake-up: the client does those itself.
    case post(command: String, source: String)
    /// `CFRunLoopWakeUp` of another thread's loop (`wakeup on worker`): the chapter's client holds the run loop
    /// its source's schedule callout handed it.
    case wakeUpThread(String)
    /// `performSelector:onThread:withObject:waitUntilDone:`: run `actions` as a task on `thread`'s loop (a
    /// version-0 source in the common modes, signalled and woken). With `wait` the caller blocks until the task
    /// ran; on the target thread itself the task runs inline.
    case performOn(thread: String, task: String, wait: Bool, [Action])
    /// `RunLoop.current.perform(_:target:argument:order:modes:)` (`performSelector:target:argument:order:modes:`):
    /// queue `actions` as the task `task` of `target` on this thread's own loop; at the start of the next iteration
    /// run in one of `modes`, the queued performs of that mode run once each, lower `order` first.
    case performOrdered(task: String, target: String, order: Int, modes: [ModeName], [Action])
    /// `cancelPerformSelector:target:argument:` (a `task`) or `cancelPerformSelectorsWithTarget:` (nil): removes
    /// the matching queued ordered performs of this thread's loop from every mode.
    case cancelPerforms(task: String?, target: String)
    /// `perform(_:with:afterDelay:inModes:)` (`performSelector:withObject:afterDelay:[inModes:]`): `actions` as the
    /// task `task` of `target`, sent by a one-shot timer on this thread's loop `delay` from now, in `modes`.
    case performDelayed(task: String, target: String, delay: Duration, modes: [ModeName], [Action])
    /// `cancelPreviousPerformRequests(withTarget:selector:object:)` (a `task`) or
    /// `cancelPreviousPerformRequests(withTarget:)` (nil): removes the matching delayed performs of this thread's
    /// loop (not its ordered performs).
    case cancelDelayedPerforms(task: String?, target: String)
    /// A line for the trace.
    case note(String)
    /// Ask the loop something (`query …`): the trace records the question and the answer (a `query` event).
    case query(LoopQuery)
    /// `addOperation` on a queue.
    case addOperation(queue: String, OperationSpec)
    /// `cancel` on an operation (by name, on whichever queue has it).
    case cancelOperation(String)
    /// `cancelAllOperations` on a queue.
    case cancelAll(queue: String)
    /// `isSuspended = true / false`.
    case setSuspended(queue: String, Bool)
    /// `maxConcurrentOperationCount = n` (nil: the default).
    case setLimit(queue: String, Int?)
    /// The "socket callback" of an asynchronous operation: a message on its port, which finishes it.
    case finishOperation(String)
    /// `waitUntilAllOperationsAreFinished`: the calling thread blocks until the queue has nothing left.
    case waitUntilAllFinished(queue: String)
    /// `Thread.detachNewThread`: a new thread (no run loop running) that does `actions` and exits - one thread
    /// per task, what a pool saves.
    case detach(task: String, [Action])

    static func collectModes(_ actions: [Action], into names: inout Set<ModeName>) {
        Action.forEach(in: actions) { action in
            switch action {
            case .stopMode(let mode), .add(_, let mode), .remove(_, let mode), .addCommonMode(let mode),
                .addOn(_, _, let mode), .removeOn(_, _, let mode):
                names.insert(mode)
            case .performBlock(_, let modes, _), .performOrdered(_, _, _, let modes, _),
                .performDelayed(_, _, _, let modes, _):
                names.formUnion(modes)
            case .run(let call):
                names.insert(call.mode)
            default:
                break
            }
        }
    }
}

/// The ways a thread runs its loop.
public enum RunCall: Sendable, Equatable {
    /// `CFRunLoopRunInMode(mode, seconds, returnAfterSourceHandled)`.
    case inMode(ModeName, seconds: Double, returnAfterSourceHandled: Bool)
    /// `CFRunLoopRun()`.
    case untilStopped
    /// Foundation's `RunLoop.current.run(mode:before:)`; the program sees the Bool it returns (`returned`).
    case foundation(ModeName, before: FoundationDate)
    /// Foundation's `RunLoop.current.run(until:)`: `run(mode: .default, before:)` again and again until the date
    /// has passed or the default mode is empty.
    case foundationUntil(FoundationDate)
    /// Foundation's `RunLoop.current.acceptInput(forMode:before:)`: one `CFRunLoopRunInMode(mode, date - now,
    /// true)`, without the emptiness check of `run(mode:before:)` and without a result.
    case acceptInput(ModeName, before: FoundationDate)
    /// Foundation's `RunLoop.current.run()`.
    case foundationForever
    /// The keep-alive idiom `while !flag { RunLoop.current.run(mode:before: .distantFuture) }`.
    case whileNot(flag: String, mode: ModeName)
    /// The same idiom with any condition: `while (weakSelf && !weakSelf.stopped) { … }` is
    /// `.all([.ownerAlive("vc"), .not(.isSet(.property(owner: "vc", name: "stopped", weak: true)))])`.
    case whileHolds(Condition, mode: ModeName)

    package var mode: ModeName {
        switch self {
        case .inMode(let mode, _, _), .foundation(let mode, _), .acceptInput(let mode, _), .whileNot(_, let mode),
            .whileHolds(_, let mode):
            mode
        case .untilStopped, .foundationForever, .foundationUntil: .default
        }
    }
}

/// A Foundation `Date` given to a run call, as a scenario writes it.
public enum FoundationDate: Sendable, Equatable {
    /// `Date(timeIntervalSinceNow:)` at the call (zero: `Date()`, `now`; negative: in the past).
    case fromNow(Duration)
    /// This long after the scenario start (`at 300ms`): in the past once the scenario is later than that.
    case sinceStart(Duration)
    /// `Date.distantPast`.
    case distantPast
    /// `Date.distantFuture`.
    case distantFuture
}

/// What the outside world does at a time.
public struct OutsideEvent: Sendable, Equatable {
    package var time: Duration
    /// The thread whose loop the actions address.
    package var thread: String
    package var actions: [Action]
    /// On the virtual clock: the actions happen once this many events have been recorded, at the first moment
    /// after the last of them when another thread could act (the loop releases its lock: a callout, its wait, the
    /// end of an iteration), and not before `time`. Nil: at `time`, before whatever else happens at that time.
    /// The UI's pokes use it, so that a poke lands right after the event on screen whatever shares its time.
    package var afterEvent: Int?

    package init(at time: Duration, thread: String = "T", afterEvent: Int? = nil, _ actions: [Action]) {
        self.time = time
        self.thread = thread
        self.afterEvent = afterEvent
        self.actions = actions
    }
}
