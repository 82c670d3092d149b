import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CommandLine {
    static let usage = """
        OVERVIEW: loopviz - an interactive terminal visualiser of run loop behaviour

        USAGE: loopviz [FILE.loop | FOLDER | FILE.loop...] [--clock virtual|real] [--no-color] [--ascii] [--lang en|zh]
                       [--record FILE.cast]
                                      the interactive UI (built-in lesson without FILE; a FOLDER
                                      opens its lessons in the lesson picker)
               loopviz <command> [options]

        loopviz models Core Foundation's CFRunLoop (modes, sources, timers, observers, blocks, stop and
        wake-up, nested runs), the kept-alive thread and a thread pool (an operation queue on run-loop
        threads), on a virtual clock or real threads, and checks them against the real CFRunLoop and
        Foundation's OperationQueue.

        COMMANDS:
          run FILE        Run a scenario headless and print its trace (text, jsonl, chrome, mermaid).
          check FILE...   Run scenarios and verify their `expect` sections.
          fmt FILE...     Give .loop files the canonical layout, keeping their comments (--check: list the
                          files that would change).
          new NAME        Write a new lesson to start from, NAME.loop (--from default: the built-in lesson).
          lsp             A language server for editors (docs/editors.md).
          compare FILE... Run scenarios on LoopEngine and on the real CFRunLoop (pools: on Foundation's
                          OperationQueue) and compare them.
          screen [FILE]   Print the screen the UI shows at a step, as text.
          hangs FILE.jsonl
                          List the hangs of a trace (a LoopRecorder recording): exit 1 when there is one.
          bench           Measure LoopEngine against the real CFRunLoop on the same workloads.
          fuzz --against cf
                          Compare LoopEngine with the real CFRunLoop on random scenarios.

        OPTIONS:
          -h, --help      Show this help (`loopviz help COMMAND` or `loopviz COMMAND --help` for a command).
          --version       Print the version.

        Scenario files are written in the .loop language: see docs/language.md and examples/.

        EXIT STATUS: each command's help lists its own (0 success, 1 failed or differs, 2 invalid input or
        usage); every command shares:
        \(ExitStatus.helpText())
        """

    static let commands: [String: (help: String, run: @Sendable ([String]) -> ExitStatus)] = [
        "run": (RunCommand.help, RunCommand.run),
        "check": (CheckCommand.help, CheckCommand.run),
        "fmt": (FmtCommand.help, FmtCommand.run),
        "new": (NewCommand.help, NewCommand.run),
        "lsp": (LspCommand.help, LspCommand.run),
        "compare": (CompareCommand.help, CompareCommand.run),
        "screen": (UICommand.screenHelp, { UICommand.run($0, headless: true) }),
        "bench": (BenchCommand.help, BenchCommand.run),
        "hangs": (HangsCommand.help, HangsCommand.run),
        "fuzz": (FuzzCommand.help, FuzzCommand.run),
    ]

    /// Parses `arguments` (without the program name) and returns the process exit status.
    static func run(_ arguments: [String]) -> ExitStatus {
        guard let first = arguments.first else { return UICommand.run([], headless: false) }
        if first.hasSuffix(".loop") || TraceLoader.isTrace(first)
            || [
                "--no-color", "--ascii", "--clock", "--record", IterationCostOption.name, EventBudget.option,
                LanguageOption.name,
            ].contains(first)
        {
            return UICommand.run(arguments, headless: false)
        }
        if let command = commands[first] {
            return command.run(Array(arguments.dropFirst()))
        }
        switch first {
        case "-h", "--help":
            print(usage)
            return .success
        case "help":
            guard arguments.count > 1 else {
                print(usage)
                return .success
            }
            guard let command = commands[arguments[1]] else {
                return usageError("unknown command '\(arguments[1])'", command: nil)
            }
            print(command.help)
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
                return UICommand.run(arguments, headless: false)
            }
            let what = first.hasPrefix("-") ? "option" : "command"
            return usageError("unknown \(what) '\(first)'", command: nil)
        }
    }

    /// Prints a usage problem and where to read more; returns the usage exit status.
    static func usageError(_ message: String, command: String?) -> ExitStatus {
        let help = command.map { "loopviz \($0) --help" } ?? "loopviz --help"
        printError("loopviz: error: \(TerminalSafeText.terminalSafe(message))\nSee '\(help)'.")
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
