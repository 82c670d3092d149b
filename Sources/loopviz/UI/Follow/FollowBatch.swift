import LoopEngine

/// What one look at a followed recording found (`--follow`): the header once read, the new events, whether the
/// recording says the program ended, and why following stopped, if it did.
struct FollowBatch: Equatable {
    var header: JSONLTraceHeader?
    var events: [LoopEvent] = []
    /// The frames of the new events' stack samples not named before, named where the file is read (the symbol
    /// tables are files: never read by the model's update).
    var frames: [StackSymbolizer.Lookup: StackSymbolizer.Frame] = [:]
    var ended = false
    var problem: FollowProblem?
}

/// Why a followed recording cannot be read further: the view keeps what was read.
enum FollowProblem: Equatable {
    /// The file became shorter than what was read (cut back, or written again from the start).
    case truncated(size: Int, read: Int)
    /// The path now names another file (the recording was replaced or removed and made again).
    case replaced
    /// A line is not a trace line (the reader's failure, with its line and column).
    case unreadable(JSONLTraceReader.Failure)
    /// Reading the file failed (the system's words).
    case readFailed(String)
    /// The program ended without writing a header (`record --live`): it never loaded the recorder.
    case nothingRecorded
}
