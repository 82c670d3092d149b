import LoopEngine

/// The oracle's thread-safe trace buffer. It also keeps the stack of runs the scenario thread is inside, which gives
/// every event its `depth` and `mode` (CF does not report them; the oracle counts its own run calls).
final class OracleTrace: Sendable {
    private struct State {
        var events: [LoopEvent] = []
        /// Mode names (raw values) of the active runs, outermost first.
        var runs: [String] = []
        /// An event came when `maxEvents` were recorded: it and every later one were dropped.
        var reachedLimit = false

        mutating func append(_ event: LoopEvent, limit: Int) {
            if events.count < limit { events.append(event) } else { reachedLimit = true }
        }
    }

    /// The loop (thread) name every event carries.
    let loop: String
    /// CLOCK_MONOTONIC nanoseconds of the scenario start: event times are measured from here.
    let origin: Int64
    /// The most events kept: the real CFRunLoop has no event budget of its own, so a runaway scenario would
    /// otherwise grow the trace until the time limit.
    let maxEvents: Int
    private let state = LoopLocked(State())

    init(loop: String, origin: Int64, maxEvents: Int = .max) {
        self.loop = loop
        self.origin = origin
        self.maxEvents = maxEvents
    }

    /// Everything recorded so far.
    var events: [LoopEvent] { state.withLock { $0.events } }

    /// True once an event was dropped because `maxEvents` were recorded.
    var reachedLimit: Bool { state.withLock { $0.reachedLimit } }

    /// Appends an event at the current time, at the current depth and mode.
    func record(_ kind: LoopEvent.Kind, _ name: String? = nil, fact: LoopEvent.Fact? = nil) {
        state.withLock { state in
            state.append(makeEvent(state, kind, name, fact), limit: maxEvents)
        }
    }

    /// Enters a run of `mode`. With `call` (the facts of a direct `CFRunLoopRunInMode` call) it records the
    /// `runStart`; for the wrappers (`CFRunLoopRun`, Foundation) it records nothing and only counts the run.
    func beginRun(_ mode: ModeName, runStart call: LoopEvent.Fact?) {
        state.withLock { state in
            state.runs.append(mode.rawValue)
            if let call { state.append(makeEvent(state, .runStart, mode.rawValue, call), limit: maxEvents) }
        }
    }

    /// Leaves the innermost run, recording its `result` first when `result` is given.
    func endRun(result: RunResult?) {
        state.withLock { state in
            if let result {
                state.append(makeEvent(state, .result, result.description, .result(result)), limit: maxEvents)
            }
            if !state.runs.isEmpty { state.runs.removeLast() }
        }
    }

    private func makeEvent(
        _ state: State, _ kind: LoopEvent.Kind, _ name: String?, _ fact: LoopEvent.Fact?
    )
        -> LoopEvent
    {
        LoopEvent(
            time: LoopInstant(nanoseconds: OracleClock.now() - origin), loop: loop, depth: state.runs.count,
            mode: state.runs.last, iteration: 0, kind: kind, name: name, fact: fact)
    }
}
