#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit statuses, named the way a careful Unix tool documents them. Every command uses the same numbers, and
/// ``helpText`` documents the shared ones in each command's help.
enum ExitStatus: Int32, Error {
    case success = 0
    /// An expectation failed, or two traces differ.
    case failure = 1
    /// Invalid input or usage; also an `-o` path that is one of the inputs.
    case usage = 2
    /// The event budget (`--max-events`) stopped a run: what was recorded up to it was still printed.
    case budget = 3
    /// Output could not be written; the message names the path (or standard output) and the reason.
    case writeError = 4
    /// Ended by a signal: 128 + its number, the shells' convention.
    case hangup = 129
    case interrupt = 130
    case quit = 131
    /// Standard output is a closed pipe (`| head`): the command ends quietly, as if SIGPIPE had ended it.
    case brokenPipe = 141
    case terminated = 143

    /// The status for ending on `signal` (SIGHUP, SIGINT, SIGQUIT, SIGPIPE or SIGTERM).
    init(endedBy signal: Int32) {
        self = ExitStatus(rawValue: 128 + signal) ?? .terminated
    }

    /// The statuses every command shares, listed at the end of each command's help after its own (the
    /// defaults: `run`'s words). `budget` says what exit 3 means for the command; `signals` what a signal leaves.
    static func helpText(
        budget: String = "the event budget (--max-events) stopped a run; what was recorded is printed",
        signals: String = "the terminal restored, no half-written -o file left"
    ) -> String {
        """
          3    \(budget)
          4    output could not be written; the message names the path (or standard output) and why
          129  SIGHUP, 130 SIGINT (Ctrl-C), 131 SIGQUIT (Ctrl-\\), 143 SIGTERM: ended by that signal (128 + its
               number), \(signals)
          141  standard output is a closed pipe (`| head`): the command ends quietly
        """
    }

    /// The shared statuses of a command that prints no trace and writes no file (`check`, `compare`).
    static func checkingHelpText(_ stopped: String) -> String {
        helpText(
            budget: "the event budget (--max-events) stopped a run; \(stopped)", signals: "the terminal restored")
    }
}
