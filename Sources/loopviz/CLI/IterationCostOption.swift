import LoopEngine

/// `--iteration-cost TIME`, shared by the commands that run scenarios on the virtual clock (run, check, compare,
/// screen, the UI): what one loop iteration costs there, over the file's `iteration cost`.
enum IterationCostOption {
    static let name = "--iteration-cost"

    /// The option, as every command that runs scenarios on the virtual clock declares it.
    static let declaration = CommandOption(
        name, .text(placeholder: "TIME"),
        help: """
            What one loop iteration costs on the virtual clock (e.g. 2us; default: the
            file's `iteration cost`, else 1.5us, measured on the real CFRunLoop). 0 keeps
            virtual time still between waits (exact instants, but a loop that never
            sleeps never ends).
            """)

    /// The cost given on the command line, nil when none.
    /// - Throws: a usage problem for a value that is not a time from 0 to 1s.
    static func value(in scanner: ArgumentScanner) throws(CommandLineProblem) -> Duration? {
        guard let text = scanner.value(name) else { return nil }
        guard let cost = ScriptLoader.duration(text), cost <= .seconds(1) else { throw .notAnIterationCost(text) }
        return cost
    }
}
