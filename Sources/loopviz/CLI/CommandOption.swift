/// One option of a command, declared once: its names, whether it takes a value, its bounds, and its lines in the
/// command's `--help`. The same declaration lets ``ArgumentScanner`` accept it and ``CommandHelp`` list it, so an
/// option cannot be parsed without being documented, nor documented without being parsed (`CommandOptionTests`).
struct CommandOption: Hashable, Sendable {
    /// What follows the option's name.
    enum Value: Hashable, Sendable {
        /// A switch: the name alone.
        case none
        /// A value, shown as `placeholder` in the help (`FILE`, `TIME`, `N`).
        case text(placeholder: String)
        /// A whole number within `bounds`, shown as `placeholder`.
        case number(placeholder: String, bounds: ClosedRange<Int>)
    }

    /// The names, each its own option, listed on one line of the help (`--engine, --cf`): usually one.
    let names: [String]
    let value: Value
    /// The help's description, its lines split where they should break (each continues under the first).
    let help: String
    /// Accepted so that a clearer problem than "unknown option" can refuse it (`screen --record`), and not listed
    /// in the help.
    let refusedWithReason: Bool

    init(_ name: String, _ value: Value = .none, help: String, refusedWithReason: Bool = false) {
        self.init(names: [name], value, help: help, refusedWithReason: refusedWithReason)
    }

    init(names: [String], _ value: Value = .none, help: String, refusedWithReason: Bool = false) {
        self.names = names
        self.value = value
        self.help = help
        self.refusedWithReason = refusedWithReason
    }

    /// The first name: the one a command reads.
    var name: String { names[0] }

    var takesValue: Bool { value != .none }

    /// The bounds of a whole-number option.
    var bounds: ClosedRange<Int>? {
        if case .number(_, let bounds) = value { return bounds }
        return nil
    }

    /// `-h, --help`, which every command accepts.
    static let helpSwitch = CommandOption(names: ["-h", "--help"], help: "Show this help.")
}
