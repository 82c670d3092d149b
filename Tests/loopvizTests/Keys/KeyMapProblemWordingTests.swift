import Testing

@testable import loopviz

/// Every ``KeyMapProblem`` in the words a user reads: `KeyMapProblem+Wording.swift` is the one place they are made.
@Suite("keymap problems are worded in one place")
struct KeyMapProblemWordingTests {
    /// The reason's name: a new reason does not compile here until it has one, then fails until it has a row.
    static func name(_ reason: KeyMapProblem.Reason) -> String {
        switch reason {
        case .noSuchFile: "noSuchFile"
        case .unreadable: "unreadable"
        case .isFolder: "isFolder"
        case .tooLarge: "tooLarge"
        case .tooManyLines: "tooManyLines"
        case .notUTF8: "notUTF8"
        case .unknownDirective: "unknownDirective"
        case .missingCommand: "missingCommand"
        case .missingKey: "missingKey"
        case .unknownCommand: "unknownCommand"
        case .fixedKeys: "fixedKeys"
        case .unknownKey: "unknownKey"
        case .tooManyKeys: "tooManyKeys"
        case .conflict: "conflict"
        case .noKeyLeft: "noKeyLeft"
        }
    }

    static let names: Set = [
        "noSuchFile", "unreadable", "isFolder", "tooLarge", "tooManyLines", "notUTF8", "unknownDirective",
        "missingCommand", "missingKey", "unknownCommand", "fixedKeys", "unknownKey", "tooManyKeys", "conflict",
        "noKeyLeft",
    ]

    static let table: [(problem: KeyMapProblem, words: String)] = [
        (KeyMapProblem("k", .noSuchFile), "k: no such keymap file"),
        (KeyMapProblem("k", .unreadable), "k: cannot read the keymap file"),
        (KeyMapProblem("k", .isFolder), "k: is a folder, not a keymap file"),
        (KeyMapProblem("k", .tooLarge(limit: 65536)), "k: a keymap file is at most 64 KiB"),
        (KeyMapProblem("k", .tooManyLines(limit: 2000)), "k: a keymap file has at most 2000 lines"),
        (KeyMapProblem("k", .notUTF8), "k: not UTF-8 text"),
        (
            KeyMapProblem("k", line: 1, column: 1, .unknownDirective("bnd")),
            "k:1:1: unknown word 'bnd': a line is `bind COMMAND KEY…`, `unbind KEY…` or a # comment"
        ),
        (
            KeyMapProblem("k", line: 2, column: 1, .missingCommand),
            "k:2:1: bind needs a command and its keys: `bind COMMAND KEY…`"
        ),
        (
            KeyMapProblem("k", line: 2, column: 10, .missingKey(directive: "bind")),
            "k:2:10: bind needs at least one key after the command"
        ),
        (
            KeyMapProblem("k", line: 2, column: 7, .missingKey(directive: "unbind")),
            "k:2:7: unbind needs at least one key"
        ),
        (
            KeyMapProblem("k", line: 3, column: 6, .unknownCommand("step-foward", suggestion: "step-forward")),
            "k:3:6: unknown command 'step-foward'; did you mean step-forward? (`loopviz keymap` lists them)"
        ),
        (
            KeyMapProblem("k", line: 3, column: 6, .fixedKeys(command: "select-item")),
            "k:3:6: select-item keeps the digits 1-9 (item N is digit N); `unbind` a digit to use it elsewhere"
        ),
        (
            KeyMapProblem("k", line: 3, column: 13, .unknownKey(String(repeating: "x", count: 50))),
            "k:3:13: unknown key '\(String(repeating: "x", count: 39))…': one character, or Space Enter Esc Tab "
                + "BackTab Up Down Left Right PgUp PgDn Home End Backspace"
        ),
        (
            KeyMapProblem("k", line: 4, column: 35, .tooManyKeys(command: "quit", limit: 12)),
            "k:4:35: quit takes at most 12 keys"
        ),
        (
            KeyMapProblem(
                "k", line: 1, column: 19,
                .conflict(key: "j", command: "step-forward", other: "select-next-operation", views: ["pool"])),
            "k:1:19: j would do both step-forward and select-next-operation in the pool view; put `unbind j` above "
                + "this line, or bind select-next-operation to another key"
        ),
        (
            KeyMapProblem(
                "k", line: 2, column: 11, .conflict(key: "u", command: "help", other: "quit", views: ["loop", "pool"])),
            "k:2:11: u would do both help and quit in the loop and pool views; put `unbind u` above this line, or "
                + "bind quit to another key"
        ),
        (
            KeyMapProblem("k", line: 1, column: 8, .noKeyLeft(command: "quit")),
            "k:1:8: quit would have no key left: there must always be a key for quit and one for help"
        ),
        (
            KeyMapProblem("a\u{1b}[2Jb", line: 1, column: 1, .unknownKey("\u{7}x")),
            "a\\e[2Jb:1:1: unknown key '\\u{7}x': one character, or Space Enter Esc Tab BackTab Up Down Left Right "
                + "PgUp PgDn Home End Backspace"
        ),
    ]

    @Test("each problem reads as the table says", arguments: table.indices)
    func wording(_ index: Int) {
        #expect(Self.table[index].problem.description == Self.table[index].words)
    }

    @Test("every reason has a row in the table")
    func everyReasonHasARow() {
        #expect(Set(Self.table.map { Self.name($0.problem.reason) }) == Self.names)
    }
}
