import Testing

@testable import loopviz

/// Each option is declared once, and that declaration is both what the command accepts and what its help lists.
@Suite("Every declared option is parsed and listed in its command's help")
struct CommandOptionTests {
    /// Every command, the UI included, by the name its help hint gives.
    static let commands: [LoopvizCommand] = CommandLine.commands + [UICommand.ui]

    /// The arguments that give `option` by `name`: a switch alone, a valued option with a value within its bounds.
    static func arguments(_ option: CommandOption, _ name: String) -> [String] {
        switch option.value {
        case .none: [name]
        case .text: [name, "value"]
        case .number(_, let bounds): [name, String(bounds.lowerBound)]
        }
    }

    @Test("every declared option of every command is listed in its --help, with its value's placeholder")
    func listedInHelp() {
        for command in Self.commands {
            let help = command.helpText
            for option in command.options where !option.refusedWithReason {
                #expect(
                    help.contains(CommandHelp.lines(option)),
                    "\(command.name.isEmpty ? "the UI" : command.name): \(option.names) is not in its help")
            }
            #expect(help.contains("  -h, --help              Show this help."))
        }
    }

    @Test("every declared option of every command is accepted by its scanner, with its value")
    func parsed() throws {
        for command in Self.commands {
            for option in command.options {
                for name in option.names {
                    let scanner = try ArgumentScanner(Self.arguments(option, name) + ["FILE"], options: command.options)
                    #expect(scanner.gave(name), "\(command.name) \(name)")
                    #expect(scanner.positional == ["FILE"], "\(command.name) \(name)")
                    if case .number(_, let bounds) = option.value {
                        #expect(try scanner.number(name) { _, _ in .notAStep("") } == bounds.lowerBound)
                    }
                }
            }
        }
    }

    @Test("a number outside an option's declared bounds is the problem its command words")
    func bounds() throws {
        let beyond = try ArgumentScanner(["--cases", "100001"], options: FuzzCommand.options)
        #expect(throws: CommandLineProblem.notAStep("100001 1...100000")) {
            try beyond.number("--cases") { text, bounds in .notAStep("\(text) \(bounds)") }
        }
    }

    @Test("a name no option of the command declares is an unknown option, wherever it is declared elsewhere")
    func undeclaredIsUnknown() {
        #expect(throws: CommandLineProblem.unknownOption("--trace")) {
            try ArgumentScanner(["--trace", "text"], options: CheckCommand.command.options)
        }
    }

    @Test("the scanner's own problems: a value given to a switch, a valued option at the end, an option twice")
    func scannerProblems() {
        let options = RunCommand.options
        #expect(throws: CommandLineProblem.takesNoValue(option: "--help")) {
            try ArgumentScanner(["--help=3"], options: options)
        }
        #expect(throws: CommandLineProblem.needsValue(option: "-o")) { try ArgumentScanner(["-o"], options: options) }
        #expect(throws: CommandLineProblem.givenTwice(option: "--trace")) {
            try ArgumentScanner(["--trace=text", "--trace", "jsonl"], options: options)
        }
    }

    @Test("every command is listed in loopviz --help, and `loopviz help NAME` finds it")
    func everyCommandIsListed() {
        for command in CommandLine.commands {
            #expect(CommandLine.usage.contains(command.commandsEntry), "\(command.name)")
            #expect(CommandLine.command(command.name)?.helpText == command.helpText)
        }
    }

    @Test("an option `screen` refuses with a reason is accepted by its scanner but not listed in its help")
    func refusedOptions() throws {
        let refused = UICommand.screen.options.filter(\.refusedWithReason).map(\.name)
        #expect(refused == ["--clock", "--record"])
        for name in refused { #expect(!UICommand.screen.helpText.contains("\n  " + name + " ")) }
    }
}
