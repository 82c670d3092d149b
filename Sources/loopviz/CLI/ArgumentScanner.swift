/// A small argument reader (swift-argument-parser cannot be fetched here): flags, options with values
/// (`--trace jsonl` or `--trace=jsonl`), and positional arguments, with usage errors as values.
struct ArgumentScanner {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: option names that take a value (`--trace`, `-o`).
    ///   - switches: flag names without a value (`--verbose`).
    init(_ arguments: [String], valued: Set<String>, switches: Set<String>) throws(UsageError) {
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
            if switches.contains(name) {
                if value != nil { throw UsageError(description: "option '\(name)' takes no value") }
                guard flags.insert(name).inserted || name == "-h" || name == "--help" else {
                    throw UsageError(description: "option '\(name)' is given twice")
                }
            } else if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else {
                        throw UsageError(description: "option '\(name)' needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
                if options[name] != nil { throw UsageError(description: "option '\(name)' is given twice") }
                options[name] = value
            } else {
                throw UsageError(description: "unknown option '\(name)'")
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { options[name] }

    /// The value of `name` as one of `choices`.
    func choice<T: RawRepresentable>(_ name: String, default fallback: T) throws(UsageError) -> T
    where T.RawValue == String, T: CaseIterable {
        guard let text = options[name] else { return fallback }
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError(description: "'\(text)' is not a valid value for \(name); expected one of: \(names)")
        }
        return value
    }
}
