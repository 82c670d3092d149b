/// A command's `--help`: the words around its OPTIONS, which are drawn from the command's declared options, so
/// each option is written once.
struct CommandHelp: Sendable {
    /// From `OVERVIEW:` to the paragraph before `OPTIONS:`.
    let beforeOptions: String
    /// From the paragraph after the options (usually `EXIT STATUS:`) to the end.
    let afterOptions: String

    /// The column where an option's description starts.
    static let descriptionColumn = 26

    /// The whole help for `options` (in their order, `-h, --help` last).
    func text(options: [CommandOption]) -> String {
        let listed = options.filter { !$0.refusedWithReason } + [.helpSwitch]
        return beforeOptions + "\n\nOPTIONS:\n" + listed.map { Self.lines($0) }.joined(separator: "\n") + "\n\n"
            + afterOptions
    }

    /// An option's lines: `  --name VALUE` padded to `column`, then its description, each further line of it
    /// indented to that column.
    static func lines(_ option: CommandOption, column descriptionColumn: Int = descriptionColumn) -> String {
        var head = "  " + option.names.joined(separator: ", ")
        switch option.value {
        case .none: break
        case .text(let placeholder), .number(let placeholder, _): head += " " + placeholder
        }
        let indent = String(repeating: " ", count: descriptionColumn)
        let description = option.help.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            head.count < descriptionColumn
            ? head + String(repeating: " ", count: descriptionColumn - head.count) + description[0]
            : head + "\n" + indent + description[0]
        return ([first] + description.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }
}
