#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exit statuses, named the way a careful Unix tool documents them. Every command uses the same numbers, and
/// ``helpText`` documents the shared ones in each command's help.
///
/// A struct rather than an enum: a signal ends a command with 128 + its number, and every signal of
/// ``TerminationSignals/all`` has its own (138 SIGUSR1, 152 SIGXCPU, …), more than a case each would name.
struct ExitStatus: RawRepresentable, Hashable, Error {
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    static let success = ExitStatus(rawValue: 0)
    /// An expectation failed, or two traces differ.
    static let failure = ExitStatus(rawValue: 1)
    /// Invalid input or usage; also an `-o` path that is one of the inputs.
    static let usage = ExitStatus(rawValue: 2)
    /// The event budget (`--max-events`) stopped a run: what was recorded up to it was still printed.
    static let budget = ExitStatus(rawValue: 3)
    /// Output could not be written; the message names the path (or standard output) and the reason.
    static let writeError = ExitStatus(rawValue: 4)
    /// Ended by a signal: 128 + its number, the shells' convention.
    static let hangup = ExitStatus(endedBy: SIGHUP)
    static let interrupt = ExitStatus(endedBy: SIGINT)
    static let quit = ExitStatus(endedBy: SIGQUIT)
    /// Standard output is a closed pipe (`| head`): the command ends quietly, as if SIGPIPE had ended it.
    static let brokenPipe = ExitStatus(endedBy: SIGPIPE)
    static let terminated = ExitStatus(endedBy: SIGTERM)

    /// The status for ending on `signal`: 128 + its number.
    init(endedBy signal: Int32) {
        rawValue = 128 + signal
    }

    /// True for a status a signal gave (128 + its number).
    var isSignal: Bool { rawValue > 128 }

    /// The statuses every command shares, listed at the end of each command's help after its own (the
    /// defaults: `run`'s words). `budget` says what exit 3 means for the command; `signals` what a signal leaves.
    static func helpText(
        budget: String = "the event budget (--max-events) stopped a run; what was recorded is printed",
        signals: String = "the terminal restored, no half-written -o file left"
    ) -> String {
        """
          3    \(budget)
          4    output could not be written; the message names the path (or standard output) and why
          128+N ended by signal N (129 SIGHUP, 130 SIGINT or Ctrl-C, 131 SIGQUIT or Ctrl-\\, 143 SIGTERM, and
               every other signal that ends a process: 138 SIGUSR1, 142 SIGALRM, 152 SIGXCPU, …):
               \(signals)
          141  standard output is a closed pipe (`| head`): the command ends quietly
        """
    }

    /// The shared statuses of a command that prints no trace and writes no file (`check`, `compare`).
    static func checkingHelpText(_ stopped: String) -> String {
        helpText(
            budget: "the event budget (--max-events) stopped a run; \(stopped)", signals: "the terminal restored")
    }
}
