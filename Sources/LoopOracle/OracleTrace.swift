import LoopEngine
import Synchronization

/// The oracle's thread-safe trace buffer, one for every thread of a scenario: events are appended in the order they
/// happen, all timed on one clock from one start. It also keeps, per thread, the stack of runs that thread is
/// inside, which gives every event its `depth` and `mode` (CF does not report them; the oracle counts its own run
/// calls).
final class OracleLog: Sendable {
    private struct State {
        var events: [LoopEvent] = []
        /// Per loop (thread) name, the mode names (raw values) of its active runs, outermost first.
        var runs: [String: [String]] = [:]
        /// An event came when `maxEvents` were recorded: it and every later one were dropped.
        var reachedLimit = false

        mutating func append(_ event: LoopEvent, limit: Int) {
            if events.count < limit { events.append(event) } else { reachedLimit = true }
        }
    }

    /// CLOCK_MONOTONIC nanoseconds of the scenario start (``start()``): event times are measured from here.
    var origin: Int64 { startNanoseconds.load(ordering: .acquiring) }
    private let startNanoseconds = Atomic<Int64>(0)
    /// The most events kept: the real CFRunLoop has no event budget of its own, so a runaway scenario would
    /// otherwise grow the trace until the time limit.
    let maxEvents: Int
    private let state = LoopLocked(State())

    init(maxEvents: Int = .max) {
        self.maxEvents = maxEvents
    }

    /// The scenario starts now: called once, before any event.
    func start() {
        startNanoseconds.store(OracleClock.now(), ordering: .releasing)
    }

    /// Everything recorded so far.
    var events: [LoopEvent] { state.withLock { $0.events } }

    /// True once an event was dropped because `maxEvents` were recorded.
    var reachedLimit: Bool { state.withLock { $0.reachedLimit } }

    func record(_ loop: String, _ kind: LoopEvent.Kind, _ name: String?, _ fact: LoopEvent.Fact?) {
        state.withLock { state in
            state.append(Self.makeEvent(state, loop, kind, name, fact, origin: origin), limit: maxEvents)
        }
    }

    func beginRun(_ loop: String, _ mode: ModeName, runStart call: LoopEvent.Fact?) {
        state.withLock { state in
            state.runs[loop, default: []].append(mode.rawValue)
            if let call {
                state.append(
                    Self.makeEvent(state, loop, .runStart, mode.rawValue, call, origin: origin), limit: maxEvents)
            }
        }
    }

    func endRun(_ loop: String, result: RunResult?) {
        state.withLock { state in
            if let result {
                let event = Self.makeEvent(state, loop, .result, result.description, .result(result), origin: origin)
                state.append(event, limit: maxEvents)
            }
            if state.runs[loop]?.isEmpty == false { state.runs[loop]?.removeLast() }
        }
    }

    private static func makeEvent(
        _ state: State, _ loop: String, _ kind: LoopEvent.Kind, _ name: String?, _ fact: LoopEvent.Fact?,
        origin: Int64
    ) -> LoopEvent {
        let runs = state.runs[loop] ?? []
        return LoopEvent(
            time: LoopInstant(nanoseconds: OracleClock.now() - origin), loop: loop, depth: runs.count,
            mode: runs.last, iteration: 0, kind: kind, name: name, fact: fact)
    }
}

/// One thread's view of the scenario's ``OracleLog``: every event it records carries the thread's name.
final class OracleTrace: Sendable {
    /// The loop (thread) name every event carries.
    let loop: String
    let log: OracleLog

    init(loop: String, log: OracleLog) {
        self.loop = loop
        self.log = log
    }

    /// CLOCK_MONOTONIC nanoseconds of the scenario start.
    var origin: Int64 { log.origin }

    /// Appends an event at the current time, at this thread's current depth and mode.
    func record(_ kind: LoopEvent.Kind, _ name: String? = nil, fact: LoopEvent.Fact? = nil) {
        log.record(loop, kind, name, fact)
    }

    /// Enters a run of `mode`. With `call` (the facts of a direct `CFRunLoopRunInMode` call) it records the
    /// `runStart`; for the wrappers (`CFRunLoopRun`, Foundation) it records nothing and only counts the run.
    func beginRun(_ mode: ModeName, runStart call: LoopEvent.Fact?) {
        log.beginRun(loop, mode, runStart: call)
    }

    /// Leaves the innermost run, recording its `result` first when `result` is given.
    func endRun(result: RunResult?) {
        log.endRun(loop, result: result)
    }
}
