/// Why a call of `run(mode:seconds:returnAfterSourceHandled:)` returned; raw values are CF's.
public enum RunResult: Int32, Sendable, CustomStringConvertible, CaseIterable {
    /// The mode was missing or empty at entry, or became empty.
    case finished = 1
    /// `stop()` reached this run.
    case stopped = 2
    /// The run's time limit passed.
    case timedOut = 3
    /// `returnAfterSourceHandled` was set and a source was performed.
    case handledSource = 4

    /// Its name in traces: `finished`, `stopped`, `timedOut`, `handledSource`.
    public var description: String {
        switch self {
        case .finished: "finished"
        case .stopped: "stopped"
        case .timedOut: "timedOut"
        case .handledSource: "handledSource"
        }
    }
}
