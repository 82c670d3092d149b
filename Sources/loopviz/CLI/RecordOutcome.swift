#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `loopviz record` ended, as a fact; ``words`` (RecordOutcome+Wording.swift) is the one place that says it.
enum RecordOutcome: Equatable {
    /// The program exited with `status`; its recording is at `path`.
    case exited(program: String, status: Int32, path: RecordedFile)
    /// A signal ended the program; the recording holds its loop up to then (the library wrote what it buffered).
    case ended(program: String, signal: Int32, path: RecordedFile)
    /// The time limit came: the program was sent SIGTERM (and SIGKILL when it did not end within the grace).
    case timeLimit(program: String, limit: Duration, path: RecordedFile)
    /// `record --live`: the UI was quit while the program ran; it was sent SIGTERM and ended `end` (SIGKILL when
    /// it outlived the grace). The recording holds its loop up to then.
    case quit(program: String, end: ProgramEnd, path: RecordedFile)
    /// The program ended without the library writing anything: it did not load it (a static or set-user-ID
    /// program ignores LD_PRELOAD) or ended before its constructor ran. No file is left.
    case notLoaded(program: String)
    /// The program could not be started (`errno`).
    case cannotStart(program: String, errorNumber: Int32)
    /// The preloaded library is not beside the loopviz executable.
    case libraryMissing(path: String)

    /// The exit status of `loopviz record`: the program's own, 128 + the signal that ended it, or loopviz's.
    var status: ExitStatus {
        switch self {
        case .exited(_, let status, _): ExitStatus(rawValue: status)
        case .ended(_, let signal, _): ExitStatus(endedBy: signal)
        case .timeLimit: ExitStatus(endedBy: SIGTERM)
        case .quit(_, .exited(let status), _): ExitStatus(rawValue: status)
        case .quit(_, .signaled(let signal), _): ExitStatus(endedBy: signal)
        case .notLoaded: .writeError
        case .cannotStart: RecordOutcome.cannotStartStatus
        case .libraryMissing: .usage
        }
    }

    /// Where the recording is, and which loops it holds.
    struct RecordedFile: Equatable, ExpressibleByStringLiteral {
        var path: String
        /// `--all-threads`: every thread's loop, not only the main one.
        var everyThread = false

        init(path: String, everyThread: Bool = false) {
            self.path = path
            self.everyThread = everyThread
        }

        init(stringLiteral path: String) { self.init(path: path) }
    }

    /// How a program ended: its exit status, or the signal that ended it.
    enum ProgramEnd: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// The shells' status for a program that cannot be run.
    static let cannotStartStatus = ExitStatus(rawValue: 127)
}
