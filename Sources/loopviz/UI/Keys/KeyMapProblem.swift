/// A problem with a keymap file, as data: where it is (`file:line:column`; no line for the file as a whole) and
/// what is wrong. `KeyMapProblem+Wording.swift` is the one place that words it; the UI refuses to start on one
/// (exit 2, before the terminal is touched), so a user never plays with keys they did not mean.
struct KeyMapProblem: Error, Equatable, Sendable {
    enum Reason: Equatable, Sendable {
        case noSuchFile
        case unreadable
        case isFolder
        /// Larger than `limit` bytes (``KeyMapFile/maximumBytes``).
        case tooLarge(limit: Int)
        /// More than `limit` lines (``KeyMapFile/maximumLines``).
        case tooManyLines(limit: Int)
        case notUTF8
        /// A line that starts with neither `bind` nor `unbind`.
        case unknownDirective(String)
        /// `bind` with nothing after it.
        case missingCommand
        /// `bind COMMAND` or `unbind` without a key.
        case missingKey(directive: String)
        /// A command name of no command; `suggestion` is the nearest name.
        case unknownCommand(String, suggestion: String?)
        /// `bind select-item`: the item keys are the digits, by number.
        case fixedKeys(command: String)
        case unknownKey(String)
        /// More than `limit` keys for one command.
        case tooManyKeys(command: String, limit: Int)
        /// `key` does `command` and `other` in `views` (`loop`, `pool`).
        case conflict(key: String, command: String, other: String, views: [String])
        /// `quit` or `help` left without a key: there must always be a way out and a way to the keys.
        case noKeyLeft(command: String)
    }

    var file: String
    /// 1-based; nil for a problem of the whole file.
    var line: Int?
    /// 1-based, in characters.
    var column: Int?
    var reason: Reason

    init(_ file: String, line: Int? = nil, column: Int? = nil, _ reason: Reason) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }
}
