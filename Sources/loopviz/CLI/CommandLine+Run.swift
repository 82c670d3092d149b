import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit statuses, named the way a careful Unix tool documents them.
enum ExitStatus: Int32 {
    case success = 0
    case failure = 1
    case usage = 2
}

extension CommandLine {
    static let usage = """
        OVERVIEW: loopviz - an interactive terminal visualiser of run loop behaviour

        USAGE: loopviz [--help] [--version]

        loopviz models Core Foundation's CFRunLoop (modes, sources, timers, observers, blocks,
        stop and wake-up, nested runs) on a virtual clock and checks it against the real CFRunLoop.

        OPTIONS:
          -h, --help       Show this help and exit.
          --version        Print the version and exit.

        The interactive UI and the headless commands (run, check, compare, bench) are being built;
        see README.md for their status.
        """

    /// Parses `arguments` (without the program name) and returns the process exit status.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else {
            print(usage)
            return .success
        }
        switch first {
        case "-h", "--help", "help":
            print(usage)
            return .success
        case "--version":
            print("loopviz \(LoopEngineVersion.string)")
            return .success
        default:
            printError("loopviz: unknown command or option '\(first)'\nSee 'loopviz --help'.")
            return .usage
        }
    }

    static func printError(_ message: String) {
        var text = message
        if !text.hasSuffix("\n") { text += "\n" }
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
