import LoopEngine

/// States folded from one trace, saved every ``spacing`` events: the state after any prefix is a saved state
/// plus fewer than `spacing` events, so a frame, a step or a jump to event 1,000,000 never folds from event 0
/// again. Saved states are made in order, once each, by whoever changes the trace: a computed session saves
/// every state due as soon as its trace is computed, a live session as its trace grows
/// (``saveStates(through:in:)``). Reading (``state(after:in:)``) saves nothing, so `render` stays a pure function
/// of the model.
///
/// The saved states are bounded in bytes, not in number: each state's size is estimated when it is saved (from
/// its item counts), and when the estimates pass ``byteBudget`` every other state is dropped and the spacing
/// doubles. A scenario with a few items keeps a state every 2,048 events; one with 100,000 timers keeps a few, so
/// a step folds more events (slower, never wrong) and memory stays within the budget whatever the trace's length.
///
/// A value the session owns, for one trace: whoever changes a trace other than by appending to it starts a new
/// one. Two are equal when they hold the same saved states at the same spacing (the fold and the size estimate
/// are closures, the same for one scenario: ``Session/Folds`` also compares the trace they are for).
struct FoldCheckpoints<State: Equatable>: Equatable {
    /// The bytes all saved states of one fold may take by default (the estimates of ``bytes``).
    static var defaultByteBudget: Int { 32 << 20 }

    /// Events between two saved states at first: a few hundred microseconds of folding.
    let interval: Int
    /// Events between two saved states now: ``interval`` doubled once per thinning.
    private(set) var spacing: Int
    /// The most the saved states may take together, as estimated by `bytes`.
    let byteBudget: Int
    private let initial: State
    private let apply: (inout State, Int, LoopEvent) -> Void
    private let bytes: (State) -> Int
    /// `saved[i]`: the state after `i * spacing` events; `sizes[i]` its estimated bytes.
    private var saved: [State]
    private var sizes: [Int]
    /// The estimated bytes of the saved states together: at most ``byteBudget`` once more than two are saved.
    private(set) var savedBytes: Int

    /// `apply` folds the event at an index into the state; `bytes` estimates what a state takes in memory.
    init(
        interval: Int = 2048, byteBudget: Int = defaultByteBudget, initial: State,
        bytes: @escaping (State) -> Int = { _ in MemoryLayout<State>.size },
        apply: @escaping (inout State, Int, LoopEvent) -> Void
    ) {
        precondition(interval > 0)
        self.interval = interval
        spacing = interval
        self.byteBudget = byteBudget
        self.initial = initial
        self.apply = apply
        self.bytes = bytes
        saved = [initial]
        sizes = [bytes(initial)]
        savedBytes = sizes[0]
    }

    /// The state after the first `count` events of `trace` (the trace these checkpoints were made from, or a
    /// longer one that starts with it): the last saved state at or before `count`, and the events after it.
    func state(after count: Int, in trace: LoopTrace) -> State {
        let count = min(max(0, count), trace.count)
        let checkpoint = min(count / spacing, saved.count - 1)
        var state = saved[checkpoint]
        for index in (checkpoint * spacing)..<count { apply(&state, index, trace[index]) }
        return state
    }

    /// Saves every state due up to the first `count` events of `trace`: what a session does once its trace is
    /// computed, so that the first jump anywhere folds fewer than ``spacing`` events, not the whole trace.
    mutating func saveStates(through count: Int, in trace: LoopTrace) {
        let count = min(max(0, count), trace.count)
        while nextCheckpoint <= count {
            let start = (saved.count - 1) * spacing
            var state = saved[saved.count - 1]
            for index in start..<(start + spacing) { apply(&state, index, trace[index]) }
            save(state)
        }
    }

    /// The count of events after which the next state is saved (`Int.max` past the end of time).
    private var nextCheckpoint: Int {
        let (next, overflow) = saved.count.multipliedReportingOverflow(by: spacing)
        return overflow ? .max : next
    }

    /// Saves the next state; over the budget, keeps every other state (the first always) and doubles the spacing.
    private mutating func save(_ state: State) {
        saved.append(state)
        sizes.append(bytes(state))
        savedBytes += sizes[sizes.count - 1]
        while savedBytes > byteBudget, saved.count > 2, spacing <= Int.max / 2 {
            saved = stride(from: 0, to: saved.count, by: 2).map { saved[$0] }
            sizes = stride(from: 0, to: sizes.count, by: 2).map { sizes[$0] }
            savedBytes = sizes.reduce(0, +)
            spacing *= 2
        }
    }

    /// Takes `other`'s saved states for the first `count` events, which must be the same events in this trace:
    /// after a poke the trace before it is unchanged, and its checkpoints need not be folded again.
    mutating func adopt(_ other: FoldCheckpoints, upTo count: Int) {
        guard other.interval == interval, other.byteBudget == byteBudget else { return }
        let usable = min(other.saved.count, count / other.spacing + 1)
        guard (usable - 1) * other.spacing > (saved.count - 1) * spacing else { return }
        saved = Array(other.saved.prefix(usable))
        sizes = Array(other.sizes.prefix(usable))
        savedBytes = sizes.reduce(0, +)
        spacing = other.spacing
    }

    /// How many states are saved (the initial one included).
    var savedCount: Int { saved.count }

    /// The same saved states at the same spacing and budget: what ``state(after:in:)`` answers from.
    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.interval == rhs.interval && lhs.byteBudget == rhs.byteBudget && lhs.spacing == rhs.spacing
            && lhs.sizes == rhs.sizes && lhs.saved == rhs.saved && lhs.initial == rhs.initial
    }
}
