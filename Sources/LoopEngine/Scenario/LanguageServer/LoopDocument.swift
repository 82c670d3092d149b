/// A `.loop` file open in an editor: its text, and the conversions between the parser's places (1-based line and
/// column, a column counting characters) and the Language Server Protocol's (0-based line, a column counting
/// UTF-16 code units, which is what editors send by default).
package struct LoopDocument: Sendable {
    /// A place in the protocol's terms.
    package struct Position: Equatable, Sendable {
        package var line: Int
        package var character: Int

        package init(line: Int, character: Int) {
            self.line = line
            self.character = character
        }
    }

    /// A stretch of text in the protocol's terms (`end` excluded).
    package struct Range: Equatable, Sendable {
        package var start: Position
        package var end: Position

        package init(start: Position, end: Position) {
            self.start = start
            self.end = end
        }
    }

    /// The file's address as the editor gives it (`file:///…/lesson.loop`).
    package let uri: String
    package let text: String
    /// The lines, split at LF as the parser splits them, each without its CR.
    let lines: [Substring]
    /// The names the file declares (`LoopDocument+Symbols.swift`).
    package let symbols: [Symbol]

    package init(uri: String, text: String) {
        self.uri = uri
        self.text = text
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
        // A file too large to analyse (`problems()` says so) has no names either.
        symbols = text.utf8.count <= Self.maxBytes ? Self.scanSymbols(text) : []
    }

    /// The name diagnostics give the file: the last part of its address.
    package var fileName: String {
        let last = uri.split(separator: "/").last.map(String.init) ?? uri
        return last.isEmpty ? "<editor>" : last
    }

    /// The protocol's position of the parser's `line` and `column` (both 1-based; a column past the end of the
    /// line is the end of the line).
    func position(line: Int, column: Int) -> Position {
        guard line >= 1, line <= lines.count else { return Position(line: max(0, line - 1), character: 0) }
        let text = lines[line - 1]
        var offset = 0
        for (index, character) in text.enumerated() where index < column - 1 {
            offset += character.utf16.count
        }
        return Position(line: line - 1, character: offset)
    }

    /// The parser's 1-based line and column of a protocol position (a position inside a character is that
    /// character; past the end of the line, one past its last character).
    func place(of position: Position) -> (line: Int, column: Int)? {
        guard position.line >= 0, position.line < lines.count else { return nil }
        var offset = 0
        var column = 1
        for character in lines[position.line] {
            let width = character.utf16.count
            if position.character < offset + width { return (position.line + 1, column) }
            offset += width
            column += 1
        }
        return (position.line + 1, column)
    }

    /// The range of the token that starts at the parser's `line` and `column`: a word or a number with its
    /// unit, a string with its quotes, one mark; empty at the end of a line (where "expected …" points).
    func tokenRange(line: Int, column: Int) -> Range {
        let start = position(line: line, column: column)
        guard line >= 1, line <= lines.count else { return Range(start: start, end: start) }
        let characters = Array(lines[line - 1])
        var index = column - 1
        guard index >= 0, index < characters.count else { return Range(start: start, end: start) }
        let first = characters[index]
        if first == "\"" {
            index += 1
            while index < characters.count && characters[index] != "\"" {
                index += characters[index] == "\\" ? 2 : 1
            }
            index = min(index + 1, characters.count)
        } else if Self.isWordCharacter(first) || first == "-" {
            index += 1
            while index < characters.count && Self.isWordCharacter(characters[index]) { index += 1 }
        } else {
            index += 1
        }
        return Range(start: start, end: position(line: line, column: index + 1))
    }

    /// What a word or a number is made of (`RunLoop.run`, `250ms`, `p1..4`).
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "."
    }
}
