import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordOutcome.RecordedFile {
    /// What the recording holds, as the outcome's line says it.
    fileprivate var loops: String { everyThread ? "its run loops" : "its main run loop" }
    fileprivate var verb: String { everyThread ? "are" : "is" }
}

extension RecordOutcome {
    /// The line `loopviz record` prints on standard error when the program is done (the program's own output
    /// keeps standard output).
    var words: String {
        let safe = TerminalSafeText.terminalSafe
        switch self {
        case .exited(let program, let status, let path):
            return
                "loopviz: \(safe(program)) exited with status \(status); \(path.loops) \(path.verb) recorded in \(safe(path.path))"
        case .ended(let program, let signal, let path):
            return
                "loopviz: \(safe(program)) was ended by \(Self.signalName(signal)); \(path.loops) up to then \(path.verb) recorded in \(safe(path.path))"
        case .timeLimit(let program, let limit, let path):
            return
                "loopviz: \(safe(program)) was still running at the time limit (\(LoopEvent.seconds(limit))) and was sent SIGTERM; \(path.loops) up to then \(path.verb) recorded in \(safe(path.path)) (--time-limit TIME records longer)"
        case .quit(let program, let end, let path):
            let ended =
                switch end {
                case .exited(let status): "exited with status \(status)"
                case .signaled(let signal): "was ended by \(Self.signalName(signal))"
                }
            return
                "loopviz: the UI was quit while \(safe(program)) was running: it was sent SIGTERM and \(ended); \(path.loops) up to then \(path.verb) recorded in \(safe(path.path))"
        case .notLoaded(let program):
            return
                "loopviz: error: \(safe(program)) did not load the recorder: nothing was recorded (a statically linked or set-user-ID program ignores LD_PRELOAD)"
        case .cannotStart(let program, let errorNumber):
            return "loopviz: error: cannot start \(safe(program)): \(String(cString: strerror(errorNumber)))"
        case .libraryMissing(let path):
            return
                "loopviz: error: the recorder library \(safe(path)) is missing (`swift build` builds it beside loopviz)"
        }
    }

    /// The signal's name as the shells spell it (`SIGSEGV`), or `signal N`.
    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV",
            SIGTERM: "SIGTERM", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[number] ?? "signal \(number)"
    }
}
