/// A small argument reader (swift-argument-parser cannot be fetched here): switches, options with values
/// (`--trace jsonl` or `--trace=jsonl`), and positional arguments, read against a command's declared options
/// (``CommandOption``), with its problems as values (``CommandLineProblem``).
struct ArgumentScanner {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    /// The declared options by name.
    private let declared: [String: CommandOption]

    /// Reads `arguments` against `declared` (and `-h`, `--help`, which every command accepts).
    init(_ arguments: [String], options declared: [CommandOption]) throws(CommandLineProblem) {
        var byName: [String: CommandOption] = [:]
        for option in declared + [.helpSwitch] {
            for name in option.names { byName[name] = option }
        }
        self.declared = byName
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let option = byName[name] else { throw .unknownOption(name) }
            if !option.takesValue {
                if value != nil { throw .takesNoValue(option: name) }
                guard flags.insert(name).inserted || option == .helpSwitch else { throw .givenTwice(option: name) }
            } else {
                if value == nil {
                    guard index < arguments.count else { throw .needsValue(option: name) }
                    value = arguments[index]
                    index += 1
                }
                if options[name] != nil { throw .givenTwice(option: name) }
                options[name] = value
            }
        }
    }

    /// True when `-h` or `--help` was given.
    var wantsHelp: Bool { flags.contains("-h") || flags.contains("--help") }

    /// True when the switch `flag` was given.
    func has(_ flag: String) -> Bool {
        assert(declared[flag] != nil, "\(flag) is not a declared option")
        return flags.contains(flag)
    }

    /// The value given to `name`, nil when none.
    func value(_ name: String) -> String? {
        assert(declared[name] != nil, "\(name) is not a declared option")
        return options[name]
    }

    /// True when `name` was given, switch or valued.
    func gave(_ name: String) -> Bool { has(name) || value(name) != nil }

    /// The value of `name` as one of `choices`.
    func choice<T: RawRepresentable>(_ name: String, default fallback: T) throws(CommandLineProblem) -> T
    where T.RawValue == String, T: CaseIterable {
        guard let text = value(name) else { return fallback }
        guard let value = T(rawValue: text) else {
            throw .notAChoice(text, option: name, expected: T.allCases.map(\.rawValue))
        }
        return value
    }

    /// The whole number given to `name` within its declared bounds, nil when none; `problem` words a value that
    /// is not one (the text and the bounds).
    func number(
        _ name: String, else problem: (String, ClosedRange<Int>) -> CommandLineProblem
    ) throws(CommandLineProblem) -> Int? {
        guard let text = value(name) else { return nil }
        let bounds = declared[name]?.bounds ?? Int.min...Int.max
        guard let number = Int(text), bounds.contains(number) else { throw problem(text, bounds) }
        return number
    }
}
