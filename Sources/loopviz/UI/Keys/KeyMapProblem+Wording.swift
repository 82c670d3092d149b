import LoopEngine

/// The one place that words a ``KeyMapProblem``.
extension KeyMapProblem: CustomStringConvertible {
    /// `FILE:LINE:COLUMN: what is wrong` (`FILE: …` for the whole file), terminal-safe: the file's own words
    /// are quoted as written.
    var description: String {
        let safe = TerminalSafeText.terminalSafe
        let place = [safe(file)] + [line, column].compactMap { $0.map(String.init) }
        return place.joined(separator: ":") + ": " + TerminalSafeText.terminalSafe(words)
    }

    /// What is wrong, and what to write instead.
    var words: String {
        switch reason {
        case .noSuchFile: "no such keymap file"
        case .unreadable: "cannot read the keymap file"
        case .isFolder: "is a folder, not a keymap file"
        case .tooLarge(let limit): "a keymap file is at most \(limit >> 10) KiB"
        case .tooManyLines(let limit): "a keymap file has at most \(limit) lines"
        case .notUTF8: "not UTF-8 text"
        case .unknownDirective(let word):
            "unknown word '\(Self.cut(word))': a line is `bind COMMAND KEY…`, `unbind KEY…` or a # comment"
        case .missingCommand: "bind needs a command and its keys: `bind COMMAND KEY…`"
        case .missingKey(let directive):
            directive == "bind" ? "bind needs at least one key after the command" : "unbind needs at least one key"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(Self.cut(name))'" + (suggestion.map { "; did you mean \($0)?" } ?? "")
                + " (`loopviz keymap` lists them)"
        case .fixedKeys(let command):
            "\(command) keeps the digits 1-9 (item N is digit N); `unbind` a digit to use it elsewhere"
        case .unknownKey(let name):
            "unknown key '\(Self.cut(name))': one character, or Space Enter Esc Tab BackTab Up Down Left Right"
                + " PgUp PgDn Home End Backspace"
        case .tooManyKeys(let command, let limit): "\(command) takes at most \(limit) keys"
        case .conflict(let key, let command, let other, let views):
            "\(key) would do both \(command) and \(other) in the \(views.joined(separator: " and ")) view"
                + (views.count > 1 ? "s" : "")
                + "; put `unbind \(key)` above this line, or bind \(other) to another key"
        case .noKeyLeft(let command):
            "\(command) would have no key left: there must always be a key for quit and one for help"
        }
    }

    /// A word of the file, cut to 40 characters.
    private static func cut(_ word: String) -> String { word.count > 40 ? word.prefix(39) + "…" : word }
}
