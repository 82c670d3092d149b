/// Receives every event a loop emits, on the thread that emits it, while the engine's lock is held.
/// Keep `record` short: it is on the loop's hot path.
public protocol TraceSink: AnyObject {
    func record(_ event: LoopEvent)
}

/// Keeps every event in order: the sink for tests, headless runs and replay.
public final class TraceRecorder: TraceSink, @unchecked Sendable {
    // @unchecked Sendable: `record` is only called with the engine lock held; read `events` when loops are idle.
    public private(set) var events: [LoopEvent] = []
    /// Called after each event; the UI uses it to halt a replay at a chosen step.
    public var onRecord: ((Int) -> Void)?
    /// Events past this count are dropped (a replay halted at step N keeps exactly N events).
    public var limit: Int?

    public init() {}

    public func record(_ event: LoopEvent) {
        if let limit, events.count >= limit { return }
        events.append(event)
        onRecord?(events.count)
    }

    public func removeAll() { events.removeAll() }
}
