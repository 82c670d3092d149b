import LoopEngine

/// `--iteration-cost TIME`, shared by the commands that run scenarios on the virtual clock (run, check, compare,
/// screen, the UI): what one loop iteration costs there, over the file's `iteration cost`.
enum IterationCostOption {
    static let name = "--iteration-cost"

    /// The option's lines in a command's OPTIONS help.
    static let help = """
          --iteration-cost TIME   What one loop iteration costs on the virtual clock (e.g. 2us; default: the
                                  file's `iteration cost`, else 1.5us, measured on the real CFRunLoop). 0 keeps
                                  virtual time still between waits (exact instants, but a loop that never
                                  sleeps never ends).
        """

    /// The cost given on the command line, nil when none.
    /// - Throws: a usage error for a value that is not a time from 0 to 1s.
    static func value(in scanner: ArgumentScanner) throws(ArgumentScanner.UsageError) -> Duration? {
        guard let text = scanner.value(name) else { return nil }
        guard let cost = ScriptLoader.duration(text), cost <= .seconds(1) else {
            throw ArgumentScanner.UsageError(
                description: "'\(TerminalSafeText.terminalSafe(text))' is not an iteration cost; use a time from "
                    + "0 to 1s, e.g. 2us or 0")
        }
        return cost
    }
}
