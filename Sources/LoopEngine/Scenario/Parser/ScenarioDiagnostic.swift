/// One problem found in a `.loop` file, with its position. Rendered the way compilers do:
///
///     lessons/timer.loop:7:14: error: unknown source 'tuch' (known: touch, tick)
///       signal tuch
///              ^
///
/// Everything rendered from the file (its name, the excerpt, the message's quotes) is terminal-safe, and the
/// excerpt is a window of at most `excerptWidth` characters around the column: a diagnostic on a line of
/// 10 MB prints one short line, not the 10 MB.
public struct ScenarioDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// How many characters of the offending line the excerpt shows, around the column.
    static let excerptWidth = 100

    /// The file as the parser was told to name it (`file:` of `ScenarioParser.parse`).
    public var file: String
    /// 1-based line and column (column counts characters).
    public var line: Int
    /// 1-based, in characters.
    public var column: Int
    /// What users read: the problem's wording (`ScenarioProblem+Wording.swift`).
    public var message: String
    /// The problem as data, when the parser found it (nil for a diagnostic made from a message alone).
    package var problem: ScenarioProblem?
    /// The text of the offending line, for the excerpt (shared with the parser's copy, not copied).
    public var sourceLine: String
    /// A lint's warning (`LoopScript.warnings`): the file runs, but probably not as meant; `check --strict`
    /// fails on it.
    package var isWarning = false

    package init(file: String, line: Int, column: Int, message: String, sourceLine: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    /// A problem the parser found, worded.
    package init(file: String, line: Int, column: Int, problem: ScenarioProblem, sourceLine: String) {
        self.init(file: file, line: line, column: column, message: problem.message.text, sourceLine: sourceLine)
        self.problem = problem
    }

    public var description: String {
        let (shown, caretOffset) = Self.excerpt(sourceLine, column: column)
        let caret = String(repeating: " ", count: caretOffset) + "^"
        let place = "\(TerminalSafeText.terminalSafe(file)):\(line):\(column)"
        return
            "\(place): \(isWarning ? "warning" : "error"): \(TerminalSafeText.terminalSafe(message))\n  \(shown)\n  \(caret)"
    }

    /// The part of `line` shown under the message, terminal-safe, and how far in the caret goes.
    ///
    /// At most about `excerptWidth` columns around `column`, with `…` where the line goes on; an unsafe
    /// character is shown as its escape (`\e`, `\u{202E}`) and counts the escape's width, so the caret stays under
    /// its character; widths are terminal columns (``DisplayWidth``: a CJK character counts two, a combining mark
    /// none). A character made of many scalars (a base and thousands of combining marks) shows its first
    /// scalar only, so the width stays bounded. Costs O(column + excerptWidth).
    static func excerpt(_ line: String, column: Int) -> (text: String, caret: Int) {
        let target = max(0, column - 1)
        let half = excerptWidth / 2
        // The characters that can be shown: `half` columns need at most `half` characters on each side.
        var before: [String] = []
        var after: [String] = []
        var index = 0
        var more = false
        for character in line {
            if index >= target + half {
                more = true
                break
            }
            if index >= target - half {
                let scalars = character.unicodeScalars
                let piece = TerminalSafeText.terminalSafe(
                    scalars.count > 4 ? String(scalars.first!) : String(character))
                if index < target { before.append(piece) } else { after.append(piece) }
            }
            index += 1
        }
        var left = ""
        var leftWidth = 0
        var cutLeft = target > half
        for piece in before.reversed() {
            let width = DisplayWidth.columns(piece)
            if leftWidth + width > half {
                cutLeft = true
                break
            }
            left = piece + left
            leftWidth += width
        }
        var right = ""
        var rightWidth = 0
        for piece in after {
            let width = DisplayWidth.columns(piece)
            if rightWidth + width > half {
                more = true
                break
            }
            right += piece
            rightWidth += width
        }
        let lead = cutLeft ? "…" : ""
        // A column past the end of the line (an error at the end) puts the caret after the last character.
        let pastEnd = min(half, max(0, target - index))
        return (lead + left + right + (more ? "…" : ""), lead.count + leftWidth + pastEnd)
    }
}

/// Every problem of one file; parsing reports them all, not just the first.
///
/// Only the first `shownLimit` (in line order) are kept and shown; `total` counts all of them, so a file of
/// random bytes costs a bounded amount of memory and output, and the count line stays true:
///
///     f.loop:1:1: error: …            (20 of them)
///     and 9980 more errors
///     10000 errors generated.
public struct ScenarioDiagnostics: Error, Equatable, Sendable, CustomStringConvertible {
    /// How many diagnostics of one file are kept and printed.
    package static let shownLimit = 20

    /// The first problems, in line order (at most `shownLimit` when produced by the parser).
    public var diagnostics: [ScenarioDiagnostic]
    /// How many problems were found, shown or not.
    public var total: Int

    package init(_ diagnostics: [ScenarioDiagnostic], total: Int? = nil) {
        self.diagnostics = diagnostics
        self.total = max(total ?? diagnostics.count, diagnostics.count)
    }

    public var description: String {
        let shown = diagnostics.prefix(Self.shownLimit)
        var lines = shown.map(\.description)
        let hidden = total - shown.count
        if hidden > 0 { lines.append("and \(hidden) more error\(hidden == 1 ? "" : "s")") }
        lines.append("\(total) error\(total == 1 ? "" : "s") generated.")
        return lines.joined(separator: "\n")
    }
}
