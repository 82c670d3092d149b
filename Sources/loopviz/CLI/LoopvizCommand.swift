/// One command of `loopviz`, declared once: its name, its line in `loopviz --help`, its options, the rest of its
/// help, and what it does with the arguments once they are read. ``CommandLine/commands`` lists every command;
/// reading the arguments, `--help` and the wording of a problem are done here, once for all of them.
struct LoopvizCommand: Sendable {
    /// What follows `loopviz` (`run`); empty for the UI, which takes no command word.
    let name: String
    /// Its line in `loopviz --help`'s COMMANDS: what to type (`run FILE`) and what it does, its lines split where
    /// they should break.
    let synopsis: String
    let summary: String
    let options: [CommandOption]
    let help: CommandHelp
    /// The command itself, given its arguments read against ``options`` (never with `--help`). A problem it
    /// throws is printed with its command's help hint and ends it with ``ExitStatus/usage``.
    let run: @Sendable (ArgumentScanner) throws(CommandLineProblem) -> ExitStatus

    /// What `loopviz NAME --help` prints.
    var helpText: String { help.text(options: options) }

    /// Reads `arguments` (after the command's name), prints the help if asked, else runs the command.
    func callAsFunction(_ arguments: [String]) -> ExitStatus {
        do {
            let scanner = try ArgumentScanner(arguments, options: options)
            if scanner.wantsHelp {
                print(helpText)
                return .success
            }
            return try run(scanner)
        } catch {
            return CommandLine.report(error, command: name.isEmpty ? nil : name)
        }
    }

    /// The command's lines in `loopviz --help`'s COMMANDS: the synopsis in a 16-column field (on its own line when
    /// longer), the summary after it, each further line of it indented to the same column.
    var commandsEntry: String {
        let column = 18
        let indent = String(repeating: " ", count: column)
        let lines = summary.split(separator: "\n", omittingEmptySubsequences: false)
        let head = "  " + synopsis
        let first =
            head.count < column
            ? head + String(repeating: " ", count: column - head.count) + lines[0]
            : head + "\n" + indent + lines[0]
        return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}
