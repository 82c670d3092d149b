import LoopEngine

/// States folded from one trace, saved every ``interval`` events: the state after any prefix is a saved state
/// plus fewer than `interval` events, so a frame, a step or a jump to event 1,000,000 never folds from event 0
/// again. Saved states are made on demand, in order, once each.
///
/// A cache of one trace: whoever changes a trace other than by appending to it starts a new one. It is a class so
/// that `render`, a pure function of the model, can fill it; two sessions with equal traces fold to equal states,
/// so it takes no part in equality.
final class FoldCheckpoints<State>: Equatable {
    /// Events between two saved states: a few hundred microseconds of folding.
    let interval: Int
    private let initial: State
    private let apply: (inout State, Int, LoopEvent) -> Void
    /// `saved[i]`: the state after `i * interval` events.
    private var saved: [State]
    /// The last state asked for and its count: playing asks for the next one, a few events further.
    private var latest: (count: Int, state: State)?

    /// `apply` folds the event at an index into the state.
    init(interval: Int = 2048, initial: State, apply: @escaping (inout State, Int, LoopEvent) -> Void) {
        precondition(interval > 0)
        self.interval = interval
        self.initial = initial
        self.apply = apply
        saved = [initial]
    }

    /// The state after the first `count` events of `trace` (the trace these checkpoints were made from, or a
    /// longer one that starts with it).
    func state(after count: Int, in trace: LoopTrace) -> State {
        let count = min(max(0, count), trace.count)
        let checkpoint = count / interval
        while saved.count <= checkpoint {
            let start = (saved.count - 1) * interval
            var state = saved[saved.count - 1]
            for index in start..<(start + interval) { apply(&state, index, trace[index]) }
            saved.append(state)
        }
        // From the latest answer when it lies between the checkpoint and `count`: a frame while playing folds only
        // the events since the previous frame.
        var start = checkpoint * interval
        var state = saved[checkpoint]
        if let latest, latest.count >= start, latest.count <= count {
            start = latest.count
            state = latest.state
        }
        for index in start..<count { apply(&state, index, trace[index]) }
        latest = (count, state)
        return state
    }

    /// Takes `other`'s saved states for the first `count` events, which must be the same events in this trace:
    /// after a poke the trace before it is unchanged, and its checkpoints need not be folded again.
    func adopt(_ other: FoldCheckpoints, upTo count: Int) {
        guard other.interval == interval else { return }
        let usable = min(other.saved.count, count / interval + 1)
        if usable > saved.count { saved = Array(other.saved.prefix(usable)) }
    }

    /// How many states are saved (the initial one included).
    var savedCount: Int { saved.count }

    static func == (lhs: FoldCheckpoints, rhs: FoldCheckpoints) -> Bool { true }
}
