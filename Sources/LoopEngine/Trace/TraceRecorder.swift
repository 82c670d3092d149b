/// Keeps every event in order: the sink for tests, headless runs and replay.
public final class TraceRecorder: TraceSink, @unchecked Sendable {
    // @unchecked Sendable: `record` is only called with the engine lock held; read `events` when loops are idle.

    struct State {
        var trace = LoopTrace()
        var limit = Int.max
        var onRecord: ((Int) -> Void)?
        /// The first events are already in `trace` (``reuse(_:count:)``): how many, and how many of them came again.
        var reused = 0
        var repeated = 0
        /// Work handed from one thread to another's loop, in the order it happened (`HandOver`).
        var handOvers: [HandOver] = []
        /// Names this recorder's current name table: a ``TraceNameSlot`` holding it holds an id of that table.
        /// Taken anew whenever the table is replaced by one whose ids differ.
        var tableToken = TraceRecorder.tableTokens.next()
    }

    /// Tokens are never reused, so a slot filled by a recorder that is gone never matches another's table.
    static let tableTokens = AtomicCounter()

    /// The state lives behind a pointer allocated once: `record` runs about fifteen times per loop iteration, and
    /// a stored property of a class would cost it a dynamic exclusivity check (two runtime calls) per access. The
    /// engine lock already makes every access exclusive.
    let state: UnsafeMutablePointer<State>

    /// An empty recorder; give it to a loop as its `sink`.
    public init() {
        state = .allocate(capacity: 1)
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Every event recorded, in order, as the compact trace keeps them.
    public var trace: LoopTrace {
        // A run that ended before it emitted every reused event again recorded only those it did emit.
        let state = state.pointee
        return state.repeated < state.reused ? state.trace.firstEvents(state.repeated) : state.trace
    }

    /// Every event recorded, in order.
    public var events: [LoopEvent] { Array(trace) }

    /// Called after each event; the UI uses it to halt a replay at a chosen step.
    var onRecord: ((Int) -> Void)? {
        get { state.pointee.onRecord }
        set { state.pointee.onRecord = newValue }
    }

    /// Events past this count are dropped (a replay halted at step N keeps exactly N events).
    package var limit: Int? {
        get { state.pointee.limit == .max ? nil : state.pointee.limit }
        set { state.pointee.limit = newValue ?? .max }
    }

    /// Starts the trace with the first `count` events of `trace`, which the run about to be recorded will emit
    /// again, the same (a replay of a deterministic scenario, changed only after them): those are counted as they
    /// come and not stored a second time, so a replay pays for recording only what is new.
    package func reuse(_ trace: LoopTrace, count: Int) {
        let count = min(max(0, count), trace.count)
        state.pointee.trace = trace.firstEvents(count)
        state.pointee.tableToken = Self.tableTokens.next()
        state.pointee.reused = count
        state.pointee.repeated = 0
        state.pointee.handOvers = []
    }

    @inline(__always)
    private func repeatsReusedEvent() -> Bool { handle.repeatsReusedEvent() }

    public func record(_ event: consuming LoopEvent) {
        if repeatsReusedEvent() { return }
        guard state.pointee.trace.count < state.pointee.limit else { return }
        state.pointee.trace.append(event)
        if let onRecord = state.pointee.onRecord { onRecord(state.pointee.trace.count) }
    }

    public func record(
        _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
        name: String?, fact: LoopEvent.Fact?
    ) {
        if repeatsReusedEvent() { return }
        guard state.pointee.trace.count < state.pointee.limit else { return }
        state.pointee.trace.append(
            kind, time: time, loop: loop, depth: depth, mode: mode, iteration: iteration, name: name, fact: fact)
        if let onRecord = state.pointee.onRecord { onRecord(state.pointee.trace.count) }
    }

    /// The work handed from one thread to another's loop while the events were recorded (`HandOver`).
    package var handOvers: [HandOver] { state.pointee.handOvers }

    /// Notes a hand-over to `loop` by thread `from` (nil: an outside event), placed before the next event. Call with the engine lock held,
    /// as `record`. A replay that reuses events notes again those it repeats (their places are counted the same).
    package func recordHandOver(_ what: HandOver.What, from: String?, to loop: String, time: LoopInstant) {
        // Read through the pointer, never a copy of the state: a copy would hold the hand-overs' buffer, and the
        // append below would then copy all of them, at every hand-over (a recorded run was quadratic in them).
        let position =
            state.pointee.repeated < state.pointee.reused ? state.pointee.repeated : state.pointee.trace.count
        guard position < state.pointee.limit, state.pointee.handOvers.count < Self.maximumHandOvers else { return }
        state.pointee.handOvers.append(HandOver(what, from: from, to: loop, position: position, time: time))
    }

    /// The most hand-overs kept (a trace at the event budget holds at most as many events).
    static let maximumHandOvers = 1_000_000

    /// Forgets every event recorded so far.
    public func removeAll() {
        state.pointee.handOvers = []
        state.pointee.trace = LoopTrace()
        state.pointee.tableToken = Self.tableTokens.next()
        state.pointee.reused = 0
        state.pointee.repeated = 0
    }
}
