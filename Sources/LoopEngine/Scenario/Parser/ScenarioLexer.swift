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
enum ScenarioLexer {
    static func lines(
        of source: String, report: (Int, Int, String) -> Void
    ) -> (lines: [ScenarioLine], header: [String]) {
        var result: [ScenarioLine] = []
        var header: [String] = []
        var inHeader = true
        var number = 0
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var text = String(raw)
            if text.hasSuffix("\r") { text.removeLast() }
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty { continue }
            if trimmed.first == "#" {
                if inHeader { header.append(String(trimmed.dropFirst().drop { $0 == " " })) }
                continue
            }
            inHeader = false
            var indent = 0
            for character in text {
                if character == " " {
                    indent += 1
                } else if character == "\t" {
                    report(number, indent + 1, "tabs are not allowed for indentation; indent with spaces")
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

    private static func tokenize(_ text: String, line: Int, report: (Int, Int, String) -> Void) -> [ScenarioToken] {
        let characters = Array(text)
        var tokens: [ScenarioToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character == " " || character == "\t" {
                index += 1
            } else if character == "#" {
                break
            } else if character == "\"" {
                var value = ""
                var closed = false
                index += 1
                while index < characters.count {
                    let next = characters[index]
                    if next == "\"" {
                        closed = true
                        index += 1
                        break
                    }
                    if next == "\\" && index + 1 < characters.count {
                        let escaped = characters[index + 1]
                        value.append(escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped)
                        index += 2
                        continue
                    }
                    value.append(next)
                    index += 1
                }
                if !closed { report(line, column, "unterminated string: add a closing \"") }
                tokens.append(ScenarioToken(kind: .string, text: value, column: column))
            } else if character.isASCII
                && (character.isNumber
                    || (character == "-" && index + 1 < characters.count
                        && characters[index + 1].isASCII && characters[index + 1].isNumber))
            {
                var end = index + 1
                while end < characters.count && characters[end].isASCII
                    && (characters[end].isNumber || characters[end] == ".")
                {
                    end += 1
                }
                let digits = String(characters[index..<end])
                var unitEnd = end
                while unitEnd < characters.count && characters[unitEnd].isASCII && characters[unitEnd].isLetter {
                    unitEnd += 1
                }
                let unit = String(characters[end..<unitEnd])
                let whole = String(characters[index..<unitEnd])
                if let value = Double(digits), value.isFinite {
                    tokens.append(ScenarioToken(kind: .number(value, unit: unit), text: whole, column: column))
                } else {
                    report(line, column, "'\(whole)' is not a number")
                    tokens.append(ScenarioToken(kind: .word, text: whole, column: column))
                }
                index = unitEnd
            } else if character.isLetter || character == "_" {
                var end = index + 1
                while end < characters.count
                    && (characters[end].isLetter || characters[end].isNumber || characters[end] == "_"
                        || characters[end] == ".")
                {
                    end += 1
                }
                tokens.append(ScenarioToken(kind: .word, text: String(characters[index..<end]), column: column))
                index = end
            } else if ",:()!".contains(character) {
                tokens.append(ScenarioToken(kind: .punctuation, text: String(character), column: column))
                index += 1
            } else {
                report(
                    line, column,
                    "unexpected character '\(character.unicodeScalars.first.map { $0.isASCII && $0.value >= 32 ? String(character) : "\\u{\(String($0.value, radix: 16))}" } ?? "?")'"
                )
                index += 1
            }
        }
        return tokens
    }
}
