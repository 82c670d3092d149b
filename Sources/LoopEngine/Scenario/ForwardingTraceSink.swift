/// Hands each event to a consumer as it is recorded, keeping none: the sink of a streaming run
/// (``ScenarioRunner/run(_:horizon:maxEvents:consume:)``). After `limit` events, or once the consumer says no more,
/// it halts the world and drops what follows (the unwinding runs' last steps).
final class ForwardingTraceSink: TraceSink {
    private let limit: Int
    private let consume: (LoopEvent) -> Bool
    private let halt: () -> Void
    private var stopped = false
    /// Events handed to the consumer.
    private(set) var count = 0
    /// Called with the count after each event handed on (the runner's outside events anchored to a count).
    var onRecord: ((Int) -> Void)?

    init(limit: Int?, consume: @escaping (LoopEvent) -> Bool, halt: @escaping () -> Void) {
        self.limit = limit ?? .max
        self.consume = consume
        self.halt = halt
    }

    func record(_ event: consuming LoopEvent) {
        guard !stopped else { return }
        count += 1
        let kept = consume(event)
        onRecord?(count)
        if !kept || count >= limit {
            stopped = true
            halt()
        }
    }
}
