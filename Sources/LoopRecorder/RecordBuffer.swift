/// The bounded hand-over between the recorded loop and the writer thread: the loop appends under a short lock and
/// never waits for the file; when the buffer is full the event is dropped and counted, and the count is written as
/// an event as soon as there is room again (or at the end), so a drop is never silent.
final class RecordBuffer: Sendable {
    private struct State {
        var events: [RecordedEvent] = []
        var droppedSinceReport = 0
        /// The first event dropped since the last report: the report stands where the gap begins.
        var firstDropped: RecordedEvent?
        var droppedTotal = 0
        var closed = false
        /// The time of the last event appended: no line of the file is earlier than the one before it.
        var latest: Int64 = .min
    }

    let capacity: Int
    private let state: RecorderLocked<State>

    /// The most events a buffer holds (about 128 MB): `capacity: Int.max` would trap reserving it.
    static let maximumCapacity = 1 << 20

    /// `capacity` is bounded to 2…``maximumCapacity``.
    init(capacity: Int) {
        self.capacity = min(max(2, capacity), Self.maximumCapacity)
        var initial = State()
        initial.events.reserveCapacity(self.capacity)
        state = RecorderLocked(initial)
    }

    /// Appends the event, or counts it as dropped when the buffer is full (a report of earlier drops needs a
    /// second place). An event stamped before one that another thread appended first (two loops, or a loop and
    /// the stack sampler, a few nanoseconds apart) takes that event's time, so the file's times never go back.
    func append(_ event: RecordedEvent) {
        var event = event
        state.withLock { state in
            guard !state.closed else { return }
            event.nanoseconds = max(event.nanoseconds, state.latest)
            state.latest = event.nanoseconds
            let needed = state.droppedSinceReport > 0 ? 2 : 1
            guard state.events.count + needed <= capacity else {
                if state.droppedSinceReport == 0 { state.firstDropped = event }
                state.droppedSinceReport += 1
                state.droppedTotal += 1
                return
            }
            if state.droppedSinceReport > 0 { Self.report(&state) }
            state.events.append(event)
        }
    }

    /// Takes every buffered event. With `closing`, later appends are ignored and a drop not yet reported is
    /// reported last. `spare` (the events the writer took last time, written) becomes the buffer again, emptied:
    /// its storage is reused rather than a whole buffer reserved anew at every flush.
    func take(
        closing: Bool, reusing spare: inout [RecordedEvent]
    ) -> (events: [RecordedEvent], droppedTotal: Int) {
        spare.removeAll(keepingCapacity: true)
        if spare.capacity < capacity { spare.reserveCapacity(capacity) }
        return state.withLock { state in
            var taken = spare
            spare = []
            swap(&taken, &state.events)
            if closing {
                state.closed = true
                if state.droppedSinceReport > 0 {
                    Self.report(&state)
                    taken.append(contentsOf: state.events)
                    state.events = []
                }
            }
            return (taken, state.droppedTotal)
        }
    }

    /// Every event dropped so far.
    var droppedTotal: Int { state.withLock { $0.droppedTotal } }

    /// Appends the event that says how many were dropped, where the first of them was.
    private static func report(_ state: inout State) {
        guard let first = state.firstDropped else { return }
        state.events.append(
            RecordedEvent(
                nanoseconds: first.nanoseconds, depth: first.depth, mode: first.mode, iteration: first.iteration,
                kind: .note, name: nil, fact: .dropped(state.droppedSinceReport), loop: first.loop))
        state.droppedSinceReport = 0
        state.firstDropped = nil
    }
}
