/// Receives every event a loop emits, on the thread that emits it, while the engine's lock is held.
/// Keep `record` short: it is on the loop's hot path.
public protocol TraceSink: AnyObject {
    /// Takes one event, in the order the loop emits them.
    func record(_ event: consuming LoopEvent)
}

/// Keeps every event in order: the sink for tests, headless runs and replay.
public final class TraceRecorder: TraceSink, @unchecked Sendable {
    // @unchecked Sendable: `record` is only called with the engine lock held; read `events` when loops are idle.

    private struct State {
        var trace = LoopTrace()
        var limit = Int.max
        var onRecord: ((Int) -> Void)?
    }

    /// The state lives behind a pointer allocated once: `record` runs about fifteen times per loop iteration, and
    /// a stored property of a class would cost it a dynamic exclusivity check (two runtime calls) per access. The
    /// engine lock already makes every access exclusive.
    private let state: UnsafeMutablePointer<State>

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
    public var trace: LoopTrace { state.pointee.trace }

    /// Every event recorded, in order.
    public var events: [LoopEvent] { Array(state.pointee.trace) }

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

    public func record(_ event: consuming LoopEvent) {
        guard state.pointee.trace.count < state.pointee.limit else { return }
        state.pointee.trace.append(event)
        if let onRecord = state.pointee.onRecord { onRecord(state.pointee.trace.count) }
    }

    /// Forgets every event recorded so far.
    public func removeAll() { state.pointee.trace = LoopTrace() }
}
