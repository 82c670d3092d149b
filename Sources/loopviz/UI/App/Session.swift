import LoopEngine

/// The scenario being shown plus everything the user did to it, and the trace that results.
///
/// The engine is deterministic, so the session never keeps a live engine around: every poke becomes an outside
/// event anchored to the step it was made after (``OutsideEvent/afterEvent``), and the whole trace is computed
/// again. Stepping back is just showing
/// fewer events; it is instant.
struct Session: Equatable {
    /// What the user did, after which step, to which thread.
    struct Intervention: Equatable {
        /// Not before this virtual time (the play clock may be past the step, the loop asleep).
        var time: Duration
        /// The events on screen when the key was pressed: the poke takes effect right after the last of them
        /// (at the first moment another thread could act), whatever else happens at the same time.
        var afterEvent: Int = 0
        /// The thread whose loop the actions address; nil: the first.
        var thread: String?
        var label: String
        var actions: [Action]
        var newItem: ItemSpec?
    }

    var script: LoopScript
    var interventions: [Intervention] = []
    /// How far the virtual clock is run.
    var horizon: Duration
    /// The horizon of the first run (``extend()`` doubles it).
    let firstHorizon: Duration
    private(set) var trace = LoopTrace()
    private(set) var haltReason: VirtualWorld.HaltReason?
    /// The threads the replay left blocked for good in a wait (the world went idle).
    private(set) var stuckWaits: [StuckWait] = []
    /// `--clock real`: the scenario runs on real threads (the runtime owns the run); the trace is what they have
    /// done so far, appended as it arrives, and the user's pokes are performed on the spot, never replayed.
    let isLive: Bool
    /// A trace file replayed (``init(replay:)``): live-like, with no threads behind it and nothing to poke.
    var isReplay = false
    /// A long trace file replayed a window at a time (``TraceIndex``): the events held are the file's events
    /// `forgottenEvents ..< forgottenEvents + trace.count`, and a step outside them reads another window.
    var replayIndex: TraceIndex?
    /// Why the window shown ends before the file does (a line that is not an event), once a read found it.
    var replayProblem: TraceIndex.Problem?
    /// Once a window met a line that is not an event: the events before it, where the replay ends from then on.
    var replayEnd: Int?
    /// A replayed trace: the clock its header says it was written on.
    var replayClock: TraceClock?
    /// A windowed replay: the threads of every window read so far, in the order they were first seen (each keeps
    /// its lane as windows change).
    var replayThreads: [String] = []
    /// The window asked for (``requestWindow(showing:)``) and not read yet: keys wait meanwhile.
    var pendingWindow: Range<Int>?
    /// `--follow`: a replay whose file is still being written; it grows as the file does (``appendFollowed(_:)``).
    var isFollowing = false
    /// Following: why the file could not be read further (the events read are kept).
    var followProblem: FollowProblem?
    /// Live: events the bounded buffer between the loops and the UI had to drop (the UI fell behind).
    private(set) var droppedEvents = 0
    /// Live: every program and every thread started on the way has ended.
    private(set) var liveEnded = false
    /// The trace's hangs, found when the trace is computed or read (a live session's growing trace has none).
    var hangs = TimelineHangs()
    /// `--follow`: the stack samples' frames named so far, as the feed read them (``FollowBatch/frames``).
    var followedFrames: [StackSymbolizer.Lookup: StackSymbolizer.Frame] = [:]
    /// `--follow`: the recording's header, and the threads its events named so far (at most
    /// `ThreadLimit.maximumThreads`): a recording of every thread's loop grows a lane for each.
    var followedHeader: JSONLTraceHeader?
    var followedThreads: [String] = []
    /// A replayed recording: the timeline follows its activities, as it has no run starts, results, sleeps or
    /// wakes (``TimelineRows/Row/follow(activity:depth:)``).
    var fillsFromActivities = false
    /// Live: the oldest events forgotten to keep the trace bounded. What is folded from the trace (the loop's
    /// state, the pool's counters) then starts from the oldest event kept.
    private(set) var forgottenEvents = 0
    /// Which way the virtual world goes where threads race (`X` opens another outcome's); the default unless told.
    var schedule = Schedule.default
    /// The events whose place depends on a schedule choice (nil-free: empty live, where the OS chooses).
    private(set) var branchMarks = BranchMarks()
    /// Where the last run adopted chose who went first, as it answered them (``branchMarks`` are made from them):
    /// the answer again for a poke that cannot change the trace (``requestRun(keeping:)``).
    private var branchPoints: [ScheduleBranchPoint] = []
    private var branchPointsCut = false
    /// The event each `say` line of the script is tied to.
    private(set) var narrationAnchors = NarrationAnchors()
    /// The event each `ask` line of the script is tied to (the quiz's questions), found as the `say` lines' are.
    private(set) var questionAnchors = NarrationAnchors()

    /// The most events a replay computes (`--max-events`, the event budget every command shares): the clock stops
    /// there, and the status bar says so.
    let maxEvents: Int
    /// Live: the most events kept; older ones are forgotten, as a terminal forgets its scrollback.
    static let maximumLiveEvents = 200_000

    init(
        script: LoopScript, horizon: Duration = .seconds(20), maxEvents: Int = EventBudget.defaultLimit,
        foldInterval: Int = 2048
    ) {
        self.script = script
        self.foldInterval = foldInterval
        self.horizon = script.until ?? horizon
        firstHorizon = self.horizon
        self.maxEvents = max(1, maxEvents)
        isLive = false
        refold()
        recompute()
    }

    /// A session whose first trace is still to be computed: ``pending`` is the run to ask the runtime for
    /// (``Effect/runEngine(_:)``), and the trace stays empty until ``adopt(_:)`` takes its answer.
    init(uncomputed script: LoopScript, maxEvents: Int = EventBudget.defaultLimit, replacing previous: Session? = nil) {
        self.script = script
        traceIdentity = previous?.traceIdentity ?? 0
        foldInterval = 2048
        horizon = script.until ?? .seconds(20)
        firstHorizon = horizon
        self.maxEvents = max(1, maxEvents)
        isLive = false
        refold()
        _ = requestRun()
    }

    /// A session on the real clock: the trace starts empty and grows with ``appendLive(_:dropped:ended:)``.
    init(liveScript script: LoopScript, replacing previous: Session? = nil) {
        self.script = script
        traceIdentity = previous?.traceIdentity ?? 0
        horizon = .zero
        firstHorizon = .zero
        maxEvents = EventBudget.defaultLimit
        foldInterval = 2048
        isLive = true
        refold()
    }

    /// The first thread of the scenario (the one keys act on when the loop shown has no items of its own).
    var primaryThread: ThreadSpec { effectiveScenario.threads[0] }

    /// The declared thread named `name` with the items the user added, if the file declares it (a pool's worker
    /// is not declared).
    func declaredThread(named name: String) -> ThreadSpec? {
        effectiveScenario.threads.first { $0.name == name }
    }

    /// The scenario with the user's interventions added.
    var effectiveScenario: Scenario {
        var scenario = script.scenario
        for intervention in interventions {
            let index = scenario.threads.firstIndex { $0.name == intervention.thread } ?? 0
            if let item = intervention.newItem { scenario.threads[index].items.append(item) }
            scenario.outside.append(
                OutsideEvent(
                    at: intervention.time, thread: scenario.threads[index].name,
                    afterEvent: isLive ? nil : intervention.afterEvent, intervention.actions))
        }
        if !isLive { scenario.schedule = schedule }
        return scenario
    }

    /// True when running longer would show more (the clock stopped at the horizon, not because the loop is done
    /// or the event budget is spent).
    var canExtend: Bool { !isLive && !reachedEventBudget && (haltReason == .horizon || haltReason == .requested) }

    /// True when the replay stopped at the event budget: what follows is not computed.
    private(set) var reachedEventBudget = false

    /// The engine run asked for and not answered yet (nil when the trace is up to date): the UI shows
    /// "computing…" meanwhile.
    private(set) var pending: EngineRequest?
    /// The number of the last run asked for: an answer to an earlier one is stale.
    private var generation = 0
    /// The events at the start of the trace the pending run leaves as they were (a poke changes only what follows
    /// its step): their fold checkpoints are kept.
    private var unchangedPrefix = 0

    /// Asks for the trace of the scenario and the interventions as they are now; `unchanged` events at its start
    /// are known to stay as they are.
    mutating func requestRun(keeping unchanged: Int = 0) -> EngineRequest {
        generation += 1
        // The events before a poke are this trace's: the run counts them and records only what follows.
        var request = EngineRequest(
            generation: generation, scenario: effectiveScenario, horizon: horizon, maxEvents: maxEvents,
            reused: unchanged > 0 ? trace : nil, reusedCount: unchanged)
        if pending == nil, reachedEventBudget, unchanged >= trace.count {
            // Every event this trace holds comes before the poke, and the budget ends the run at its last one:
            // the run would halt right where the poke is scheduled, before it acts (a halted world performs
            // nothing more). Its answer is this trace's, known without running a million events again.
            request.answer = EngineResult(
                generation: generation, trace: trace, haltReason: haltReason, stuckWaits: stuckWaits,
                reachedEventLimit: true, branchPoints: branchPoints, branchPointsCut: branchPointsCut)
        }
        pending = request
        unchangedPrefix = unchanged
        return request
    }

    /// Takes the engine's answer to the pending run; false (and nothing changes) when it answers another one.
    @discardableResult
    mutating func adopt(_ result: EngineResult) -> Bool {
        guard !isLive, let pending, result.generation == pending.generation else { return false }
        // The engine is deterministic and an outside event cannot change what happened before it: the events up
        // to the poke's step are the same in the new trace, and so are the checkpoints folded from them.
        let previous = folds
        let unchanged = min(unchangedPrefix, result.trace.count)
        // Every event the same (a poke past the end the budget stopped): what is found in them stays.
        let sameEvents = unchanged > 0 && unchanged >= result.trace.count && result.trace.count == trace.count
        trace = result.trace
        if !sameEvents {
            hangs = TimelineHangs(trace)
            narrationAnchors = NarrationAnchors()
            narrationAnchors.advance(script.narration, in: trace, forgotten: 0)
            questionAnchors = NarrationAnchors()
            questionAnchors.advance(script.questionLines, in: trace, forgotten: 0)
        }
        branchPoints = result.branchPoints
        branchPointsCut = result.branchPointsCut
        branchMarks = BranchMarks(result.branchPoints, cut: result.branchPointsCut, events: trace.count)
        refold()
        if unchanged > 0 {
            folds.loops.adopt(previous.loops, upTo: unchanged)
            folds.pool.adopt(previous.pool, upTo: unchanged)
        }
        saveFolds()
        haltReason = result.haltReason
        stuckWaits = result.stuckWaits
        reachedEventBudget = result.reachedEventLimit
        self.pending = nil
        return true
    }

    /// Computes the trace again here and now (blocking): for the commands and tests that draw one screen, never
    /// for the interactive UI's `update`, which asks the runtime instead (``requestRun(keeping:)``).
    mutating func recompute() {
        guard !isLive else { return }
        adopt(requestRun().run())
    }

    /// Asks to run twice as far, for a session that reached the end of what was computed; nil when running
    /// further would show nothing more.
    mutating func extend() -> EngineRequest? {
        guard canExtend else { return nil }
        horizon = horizon + horizon
        return requestRun()
    }

    /// ``extend()``, computed here and now (blocking), for the commands that draw one screen.
    mutating func extendNow() {
        if let request = extend() { adopt(request.run()) }
    }

    /// Adds the user's poke and asks for the trace again (nil live, where the runtime performs the poke on the
    /// spot). Pokes made after a later step are forgotten: they were made in a future this poke changes (their
    /// step would now be another event); `forgotten` says how many were.
    mutating func intervene(_ intervention: Intervention) -> (forgotten: Int, run: EngineRequest?) {
        let kept = interventions.filter { isLive || $0.afterEvent <= intervention.afterEvent }
        let forgotten = interventions.count - kept.count
        interventions = kept + [intervention]
        guard !isLive else { return (forgotten, nil) }
        return (forgotten, requestRun(keeping: intervention.afterEvent))
    }

    /// Live: events the real threads recorded since the last batch, how many were dropped after them, and the
    /// limit that halted the run if one did (kept once seen); a replay's first batch also says how many of the
    /// file's events came before it and are not kept (`forgottenBefore`). Returns how many old events were
    /// forgotten to keep the trace bounded.
    @discardableResult
    mutating func appendLive(
        _ events: [LoopEvent], dropped: Int, ended: Bool, halt: VirtualWorld.HaltReason? = nil,
        forgottenBefore: Int = 0
    ) -> Int {
        if let halt, haltReason == nil { haltReason = halt }
        forgottenEvents += forgottenBefore
        // The folds start from the first event held: they learn the runs it is in.
        if forgottenBefore > 0 && trace.isEmpty { refold() }
        trace.append(contentsOf: events.lazy.map { $0.rounded(to: Self.liveResolution) })
        droppedEvents += dropped
        narrationAnchors.advance(script.narration, in: trace, forgotten: forgottenEvents)
        questionAnchors.advance(script.questionLines, in: trace, forgotten: forgottenEvents)
        liveEnded = ended
        guard trace.count > Self.maximumLiveEvents else {
            saveFolds()
            return 0
        }
        // Forget a quarter at once, so that a long run does not shift the whole trace at every batch.
        let forget = trace.count - Self.maximumLiveEvents * 3 / 4
        trace = LoopTrace(trace.dropFirst(forget))
        forgottenEvents += forget
        refold()
        saveFolds()
        return forget
    }

    /// The state of every thread after the first `count` events.
    func snapshots(after count: Int) -> [LoopSnapshot] {
        folds.loops.state(after: count, in: trace).snapshots
    }

    /// The operation queues after the first `count` events.
    func poolSnapshot(after count: Int) -> PoolSnapshot {
        folds.pool.state(after: count, in: trace)
    }

    /// Where the states above are folded from: checkpoints of the current trace.
    private var folds = Folds()
    /// Changes whenever the trace changes other than by growing (a new run, events forgotten); a session made in
    /// place of another continues its count. What render keeps of a trace (``RenderCache``) is for one identity.
    private(set) var traceIdentity = 0
    /// Events between two checkpoints.
    let foldInterval: Int

    /// The checkpoints of both folds; made again whenever the trace changes other than by growing, and filled by
    /// whatever changes the trace (``saveFolds()``), never by reading them: two are equal when they are for the
    /// same trace (``traceIdentity``) and hold the same saved states.
    struct Folds: Equatable {
        /// The ``Session/traceIdentity`` of the trace they fold.
        var trace = 0
        /// Every thread's loop, and the threads known so far.
        struct Loops: Equatable {
            var snapshots: [LoopSnapshot]
            var known: Set<String>

            /// The estimated bytes of every thread's state.
            var estimatedBytes: Int {
                snapshots.reduce(known.count * EstimatedBytes.entry) { $0 + $1.estimatedBytes }
            }
        }

        var loops: FoldCheckpoints<Loops>
        var pool: FoldCheckpoints<PoolSnapshot>

        /// `midTrace`: the trace folded starts after events not held (its first runs are learnt from its events).
        init(
            scenario: Scenario = Scenario(name: "", threads: []), defaultWidth: Int = ScenarioRunner.defaultQueueWidth,
            interval: Int = 2048, byteBudget: Int = FoldCheckpoints<Loops>.defaultByteBudget, midTrace: Bool = false
        ) {
            let oneShot = Set(
                scenario.threads.flatMap(\.items).compactMap { item -> String? in
                    if case .observer(_, let repeats, _) = item.kind, !repeats { return item.name }
                    return nil
                })
            let threads = scenario.threads.map { LoopSnapshot(thread: $0.name, joinsMidTrace: midTrace) }
            loops = FoldCheckpoints(
                interval: interval, byteBudget: byteBudget,
                initial: Loops(snapshots: threads, known: Set(threads.map(\.thread))),
                bytes: { $0.estimatedBytes }
            ) {
                state, _, event in
                // A thread started on the way (a pool's worker, a detached thread) has a loop too, from its
                // creation; a recorded thread (`record --all-threads`) from its first run's entry. At most
                // `ThreadLimit.maximumThreads`, whatever a trace file holds.
                if event.kind == .threadCreate || event.kind == .runStart || event.kind == .entry,
                    state.snapshots.count < ThreadLimit.maximumThreads, state.known.insert(event.loop).inserted
                {
                    state.snapshots.append(LoopSnapshot(thread: event.loop))
                }
                for index in state.snapshots.indices { state.snapshots[index].apply(event, observers: oneShot) }
            }
            pool = FoldCheckpoints(
                interval: interval, byteBudget: byteBudget,
                initial: PoolSnapshot(queues: scenario.queues, defaultWidth: defaultWidth),
                bytes: { $0.estimatedBytes }
            ) { state, index, event in state.fold(event, at: index) }
        }
    }

    /// Saves every checkpoint due in the trace as it is now, so that the first jump far into it folds a few
    /// thousand events, not all before it: after a run is adopted and as a live trace grows. The pool's only when
    /// there is a pool view to show them.
    private mutating func saveFolds() {
        folds.loops.saveStates(through: trace.count, in: trace)
        if hasQueues { folds.pool.saveStates(through: trace.count, in: trace) }
    }

    /// Starts the folds again from the current trace's first event, and names the trace anew.
    /// (Also when a followed recording's header names its thread: the loops folded are the scenario's.)
    mutating func refold() {
        traceIdentity += 1
        folds = Folds(
            scenario: effectiveScenario, defaultWidth: defaultQueueWidth, interval: foldInterval,
            midTrace: forgottenEvents > 0)
        folds.trace = traceIdentity
    }

    /// How many operations a queue at the default limit executes at once: the virtual machine's cores, or on real
    /// threads this machine's.
    var defaultQueueWidth: Int {
        #if os(Linux)
        if isLive { return RealScenarioRunner.defaultQueueWidth }
        #endif
        return ScenarioRunner.defaultQueueWidth
    }

    /// True when the scenario has an operation queue (the pool view has something to show).
    var hasQueues: Bool { !script.scenario.queues.isEmpty }
}
