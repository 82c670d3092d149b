import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CommandLine {
    /// Every command, in the order `loopviz --help` lists them. A new command is one declaration (a
    /// ``LoopvizCommand`` with its options, help and run) and its line here: its parsing, `--help`,
    /// `loopviz help NAME` and its line in `loopviz --help` follow from it.
    static let commands: [LoopvizCommand] = [
        RunCommand.command, CheckCommand.command, FmtCommand.command, NewCommand.command, LspCommand.command,
        CompareCommand.command, ExploreCommand.command, DiffCommand.command, UICommand.screen,
        HangsCommand.command, StatsCommand.command, RecordCommand.command, BenchCommand.command, FuzzCommand.command,
        KeymapCommand.command,
    ]

    /// `loopviz --help`'s own options.
    static let options: [CommandOption] = [
        CommandOption(
            names: ["-h", "--help"],
            help: "Show this help (`loopviz help COMMAND` or `loopviz COMMAND --help` for a command)."),
        CommandOption("--version", help: "Print the version."),
    ]

    static var usage: String {
        """
        OVERVIEW: loopviz - an interactive terminal visualiser of run loop behaviour

        USAGE: loopviz [FILE.loop[@N] | FOLDER | FILE.loop...] [--step N] [--clock virtual|real] [--no-color] [--ascii] [--lang en|zh]
                       [--record FILE.cast]
                                      the interactive UI (built-in lesson without FILE; a FOLDER
                                      opens its lessons in the lesson picker; @N or --step N opens
                                      at event N)
               loopviz <command> [options]

        loopviz models Core Foundation's CFRunLoop (modes, sources, timers, observers, blocks, stop and
        wake-up, nested runs), the kept-alive thread and a thread pool (an operation queue on run-loop
        threads), on a virtual clock or real threads, and checks them against the real CFRunLoop and
        Foundation's OperationQueue.

        COMMANDS:
        \(commands.map(\.commandsEntry).joined(separator: "\n"))

        OPTIONS:
        \(options.map { CommandHelp.lines($0, column: 18) }.joined(separator: "\n"))

        Scenario files are written in the .loop language: see docs/language.md and examples/.

        EXIT STATUS: each command's help lists its own (0 success, 1 failed or differs, 2 invalid input or
        usage); every command shares:
        \(ExitStatus.helpText())
        """
    }

    /// The command named `name`.
    static func command(_ name: String) -> LoopvizCommand? { commands.first { $0.name == name } }

    /// Parses `arguments` (without the program name) and returns the process exit status.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else { return UICommand.ui([]) }
        // `FILE@N` links to step N of FILE (``DeepLink``).
        let linked = DeepLink(first, exists: { access($0, F_OK) == 0 })?.path ?? first
        if linked.hasSuffix(".loop") || TraceLoader.isTrace(linked) || linked != first
            || UICommand.launchOptions.contains(where: { $0.names.contains(first) })
        {
            return UICommand.ui(arguments)
        }
        if let command = command(first) {
            return command(Array(arguments.dropFirst()))
        }
        switch first {
        case AsyncMainOracleProcess.commandName:
            #if os(Linux)
            return AsyncMainOracleProcess.child(Array(arguments.dropFirst()))
            #else
            return .usage
            #endif
        case "-h", "--help":
            print(usage)
            return .success
        case "help":
            guard arguments.count > 1 else {
                print(usage)
                return .success
            }
            guard let command = command(arguments[1]) else { return report(.unknownCommand(arguments[1])) }
            print(command.helpText)
            return .success
        case "--version":
            print("loopviz \(LoopEngineVersion.string)")
            return .success
        default:
            // A scenario file whose name does not end in .loop (`loopviz ./lesson`) opens as one; a folder opens
            // its lessons in the picker.
            var info = stat()
            if !first.hasPrefix("-"), stat(first, &info) == 0,
                info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFDIR
            {
                return UICommand.ui(arguments)
            }
            return report(first.hasPrefix("-") ? .unknownOption(first) : .unknownCommand(first))
        }
    }

    /// Prints `problem` on standard error and returns its exit status: a usage problem with where to read more
    /// (`command`'s help, or loopviz's), any other as an error of what was asked.
    @discardableResult
    static func report(_ problem: CommandLineProblem, command: String? = nil) -> ExitStatus {
        guard problem.isUsage else {
            printError("loopviz: error: \(problem)")
            return .usage
        }
        let help = command.map { "loopviz \($0) --help" } ?? "loopviz --help"
        printError("loopviz: error: \(TerminalSafeText.terminalSafe(problem.description))\nSee '\(help)'.")
        return .usage
    }

    /// Writes `message` to stderr, terminal-safe (``TerminalSafeText/terminalSafeOutput(_:)``: its own line
    /// breaks and tabs are kept, any other control is shown as an escape), whatever put it together.
    static func printError(_ message: String) {
        var text = TerminalSafeText.terminalSafeOutput(message)
        if !text.hasSuffix("\n") { text += "\n" }
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
