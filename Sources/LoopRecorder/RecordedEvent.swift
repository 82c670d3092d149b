/// One event as the recorder keeps it until the writer thread writes it: the fields of a loopviz trace line
/// (`LoopEvent` of LoopEngine, which this library does not depend on).
struct RecordedEvent: Sendable, Equatable {
    /// What the event is; the raw values are the trace format's `kind` names.
    enum Kind: String, Sendable {
        case entry, beforeTimers, beforeSources, beforeWaiting, afterWaiting, exit, observer, note
    }

    /// The facts a recorder's event can carry (LoopEngine's `LoopEvent.Fact` cases of the same names).
    enum Fact: Sendable, Equatable {
        /// `observer`: the activity the recorder's last observer was called for (CF's bit, and its name).
        case activity(UInt32, String)
        /// `note`: a program's mark (`point`, `begin`, `end`).
        case mark(String)
        /// `note`: events dropped because the buffer was full.
        case dropped(Int)
        /// `note`: a sample of the loop thread's stack while it was busy: return addresses, the interrupted
        /// instruction first.
        case stack([UInt64])
        /// `note`: an object loaded in the process (the event's name is its file): the address it was loaded at
        /// and the extent of its loaded segments, to find a sample's functions when the recording is read.
        case module(base: UInt64, low: UInt64, high: UInt64, buildID: String?)
        /// `note`: the sampler did not run for this many nanoseconds past its wait while the loop was busy.
        case paused(Int64)
    }

    var nanoseconds: Int64
    var depth: Int
    var mode: String?
    var iteration: Int
    var kind: Kind
    var name: String?
    var fact: Fact?
    /// Which of the recording's loops it belongs to: its place in the writer's table of thread names (0 the first
    /// loop's, `LoopRecorder.addCurrentThreadLoop(thread:)` adds the others).
    var loop = 0
}
