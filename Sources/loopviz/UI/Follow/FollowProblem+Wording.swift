import LoopEngine

extension FollowProblem {
    /// The status bar's words: what happened, and that the view keeps what was read.
    var message: StatusMessage {
        switch self {
        case .truncated(let size, let read):
            StatusMessage(
                "following stopped: the file was truncated",
                detail: "it has \(size) bytes, \(read) were read; the events read are kept")
        case .replaced:
            StatusMessage(
                "following stopped: the file was replaced",
                detail: "its path names another file; the events read are kept")
        case .unreadable(let failure):
            StatusMessage("following stopped: line \(failure.description)", detail: "the events before it are kept")
        case .readFailed(let reason):
            StatusMessage("following stopped: cannot read the file", detail: "\(reason); the events read are kept")
        case .nothingRecorded:
            StatusMessage(
                "the program ended without recording anything",
                detail: "a statically linked or set-user-ID program ignores LD_PRELOAD")
        }
    }
}
