/// A token of one line of a `.loop` file.
struct ScenarioToken: Equatable {
    enum Kind: Equatable {
        /// A name or keyword: letters, digits, `_` and `.` (`RunLoop.run`, `UITrackingRunLoopMode`).
        case word
        /// A number with an optional unit directly after it (`250ms`, `1.5s`, `3`, `0.100`).
        case number(Double, unit: String)
        /// A double-quoted string; `text` holds its value without quotes or escapes.
        case string
        /// One of `,` `:` `(` `)` `!`.
        case punctuation
    }

    var kind: Kind
    var text: String
    /// 1-based column of the token's first character.
    var column: Int

    var isWord: Bool { kind == .word }
    func isWord(_ word: String) -> Bool { kind == .word && text == word }
    func isPunctuation(_ mark: String) -> Bool { kind == .punctuation && text == mark }
}

/// One non-blank line, tokenised, with its indentation.
struct ScenarioLine {
    var number: Int
    var indent: Int
    var tokens: [ScenarioToken]
    var text: String
}

/// Splits a `.loop` file into lines of tokens. Never fails: problems become diagnostics and the line is kept
/// with the tokens read so far, so the parser can go on and report more.
///
/// Linear in the size of the file: each line is split once and each character classified once, a run of
/// characters it cannot read is one diagnostic (not one per character), `report` receives the line's text to
/// share (never a copy) and a message it builds only if it keeps the diagnostic.
enum ScenarioLexer {
    /// `report(line, column, lineText, problem)`.
    typealias Report = (Int, Int, String, () -> ScenarioProblem) -> Void

    static func lines(of source: String, report: Report) -> (lines: [ScenarioLine], header: [String]) {
        var result: [ScenarioLine] = []
        var header: [String] = []
        var inHeader = true
        var number = 0
        // Split on the byte, not the Character: "\r\n" is one Character, so a CRLF file would be one long line,
        // and bytes are cheaper to scan than graphemes. One line at a time: no array of every line.
        let bytes = source.utf8
        var start = bytes.startIndex
        var more = true
        while more {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            let raw = bytes[start..<end]
            if end == bytes.endIndex { more = false } else { start = bytes.index(after: end) }
            number += 1
            var text = String(Substring(raw))
            if text.hasSuffix("\r") { text.removeLast() }
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if trimmed.first == "#" {
                // Blanks around the words are layout, not words (`loopviz fmt` drops trailing ones).
                if inHeader {
                    var words = trimmed.dropFirst().drop { $0 == " " }
                    while words.last == " " || words.last == "\t" { words = words.dropLast() }
                    header.append(String(words))
                }
                continue
            }
            inHeader = false
            var indent = 0
            var reportedTab = false
            for character in text {
                if character == " " {
                    indent += 1
                } else if character == "\t" {
                    // One complaint per line, however many tabs.
                    if !reportedTab {
                        report(number, indent + 1, text) { .tabIndentation }
                        reportedTab = true
                    }
                    indent += 1
                } else {
                    break
                }
            }
            let tokens = tokenize(text, line: number, report: report)
            if tokens.isEmpty { continue }
            result.append(ScenarioLine(number: number, indent: indent, tokens: tokens, text: text))
        }
        return (result, header)
    }

    /// What a character can be in a token, decided once per character (a table for ASCII).
    private enum Class: UInt8 {
        case blank, hash, quote, backslash, digit, dot, minus, underscore, asciiLetter, letter, number, punctuation
        case other

        init(_ character: Character) {
            guard let byte = character.asciiValue else {
                self = character.isLetter ? .letter : character.isNumber ? .number : .other
                return
            }
            switch byte {
            case 0x20, 0x09: self = .blank
            case 0x23: self = .hash
            case 0x22: self = .quote
            case 0x5C: self = .backslash
            case 0x30...0x39: self = .digit
            case 0x2E: self = .dot
            case 0x2D: self = .minus
            case 0x5F: self = .underscore
            case 0x41...0x5A, 0x61...0x7A: self = .asciiLetter
            case 0x2C, 0x3A, 0x28, 0x29, 0x21: self = .punctuation
            default: self = .other
            }
        }

        var startsWord: Bool { self == .asciiLetter || self == .letter || self == .underscore }
        var continuesWord: Bool { startsWord || self == .digit || self == .number || self == .dot }
    }

    private static func tokenize(_ text: String, line: Int, report: Report) -> [ScenarioToken] {
        let characters = Array(text)
        let classes = characters.map(Class.init)
        var tokens: [ScenarioToken] = []
        var index = 0
        /// Whether a token (or a blank, or a comment) can start at `position`.
        func isReadable(_ position: Int) -> Bool {
            switch classes[position] {
            case .minus: position + 1 < classes.count && classes[position + 1] == .digit
            case .other, .dot, .backslash, .number: false
            default: true
            }
        }
        while index < characters.count {
            let column = index + 1
            switch classes[index] {
            case .blank:
                index += 1
            case .hash:
                return tokens
            case .quote:
                var value = ""
                var closed = false
                index += 1
                while index < characters.count {
                    if classes[index] == .quote {
                        closed = true
                        index += 1
                        break
                    }
                    if classes[index] == .backslash && index + 1 < characters.count {
                        let escaped = characters[index + 1]
                        value.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
                        index += 2
                        continue
                    }
                    value.append(characters[index])
                    index += 1
                }
                if !closed { report(line, column, text) { .unterminatedString } }
                tokens.append(ScenarioToken(kind: .string, text: value, column: column))
            case let start
            where start == .digit || (start == .minus && index + 1 < classes.count && classes[index + 1] == .digit):
                var end = index + 1
                while end < classes.count && (classes[end] == .digit || classes[end] == .dot) { end += 1 }
                let digits = String(characters[index..<end])
                var unitEnd = end
                while unitEnd < classes.count && classes[unitEnd] == .asciiLetter { unitEnd += 1 }
                let unit = String(characters[end..<unitEnd])
                let whole = String(characters[index..<unitEnd])
                if let value = Double(digits), value.isFinite {
                    tokens.append(ScenarioToken(kind: .number(value, unit: unit), text: whole, column: column))
                } else {
                    report(line, column, text) { .notANumber(whole) }
                    tokens.append(ScenarioToken(kind: .word, text: whole, column: column))
                }
                index = unitEnd
            case let start where start.startsWord:
                var end = index + 1
                while end < classes.count && classes[end].continuesWord { end += 1 }
                tokens.append(ScenarioToken(kind: .word, text: String(characters[index..<end]), column: column))
                index = end
            case .punctuation:
                tokens.append(ScenarioToken(kind: .punctuation, text: String(characters[index]), column: column))
                index += 1
            default:
                // The whole run of characters that cannot start a token: one diagnostic for it.
                var end = index + 1
                while end < characters.count && !isReadable(end) { end += 1 }
                let first = index
                report(line, column, text) {
                    .unexpectedCharacters(
                        String(characters[first..<min(end, first + DiagnosticMessage.maxQuoted + 1)]),
                        count: end - first)
                }
                index = end
            }
        }
        return tokens
    }
}
