/// The canonical layout of a `.loop` file (`loopviz fmt`): two spaces per block level, one space between words,
/// `a, b` and `worker: sleep`, no trailing blanks, at most one blank line in a row, none at the start or the end,
/// a line break at the end.
///
/// It lays out the file's own lines rather than printing the parsed script, because the parser keeps no comments:
/// every comment stays, word for word, on its line (a comment alone on a line takes the indentation of the line
/// after it), and every word and string is kept as written. Its result is checked before it is returned: it must
/// parse to the same script (line numbers aside) and hold the same comments, or `format` gives nil rather than a
/// file that would lose something.
package enum LoopFormatter {
    /// The formatted text of `source`, nil if the layout would change the script or lose a comment (a bug of the
    /// formatter, never written); `file` names it in diagnostics.
    /// - Throws: the problems of a file that does not parse, each with its line and column.
    package static func format(_ source: String, file: String) throws(ScenarioDiagnostics) -> String? {
        let script = try ScenarioParser.parse(source, file: file)
        let formatted = layout(source)
        guard let again = try? ScenarioParser.parse(formatted, file: file),
            again.isSame(as: script), comments(of: formatted) == comments(of: source)
        else { return nil }
        return formatted
    }

    /// The comments of a `.loop` text in order, each from its `#` to the end of its line (trailing blanks
    /// dropped): what the formatter must keep.
    package static func comments(of source: String) -> [String] {
        lines(of: source).compactMap { split($0).comment }
    }

    /// The layout itself, for a text that parses (its indentation is consistent, it has no tabs).
    static func layout(_ source: String) -> String {
        var text = source
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        let parts = lines(of: text).map(split)
        // The block depth of each line with words, as the parser's tree finds it from the indentation.
        var depths: [Int?] = []
        var stack: [Int] = []
        for part in parts {
            guard let indent = part.indent, !part.code.isEmpty else {
                depths.append(nil)
                continue
            }
            while let top = stack.last, indent <= top { stack.removeLast() }
            depths.append(stack.count)
            stack.append(indent)
        }
        var output: [String] = []
        var nextDepth = 0
        var laidOut: [String] = Array(repeating: "", count: parts.count)
        // Backwards, so that a comment alone on its line knows the depth of the line after it.
        for index in parts.indices.reversed() {
            let part = parts[index]
            if let depth = depths[index] {
                nextDepth = depth
                let pad = String(repeating: "  ", count: depth)
                laidOut[index] = pad + part.code + (part.comment.map { " " + $0 } ?? "")
            } else if let comment = part.comment {
                laidOut[index] = String(repeating: "  ", count: nextDepth) + comment
            }
        }
        for line in laidOut {
            if line.isEmpty && (output.last?.isEmpty ?? true) { continue }
            output.append(line)
        }
        while output.last?.isEmpty == true { output.removeLast() }
        return output.joined(separator: "\n") + "\n"
    }

    /// The lines of a text, split on the byte `\n` as the lexer splits them (a `\r` before it dropped): "\r\n" is
    /// one Character, which a split on the Character "\n" would not see.
    private static func lines(of text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { bytes in
            let line = Substring(bytes)
            return line.hasSuffix("\r") ? line.dropLast() : line
        }
    }

    /// A line's indentation (nil for a blank line or a comment alone), its words and strings with their spacing
    /// made canonical, and its comment.
    private static func split(_ line: Substring) -> (indent: Int?, code: String, comment: String?) {
        let characters = Array(line)
        var index = 0
        while index < characters.count && (characters[index] == " " || characters[index] == "\t") { index += 1 }
        let indent = index
        var code = ""
        var comment: String?
        var pendingSpace = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t":
                pendingSpace = true
                index += 1
                continue
            case "#":
                var rest = String(characters[index...])
                while rest.last == " " || rest.last == "\t" { rest.removeLast() }
                comment = rest
                index = characters.count
                continue
            default:
                break
            }
            // No space before `,` `:` `)` or after `(`; one after `,` and `:`; elsewhere the file's blanks are one.
            let tight = character == "," || character == ":" || character == ")" || code.last == "("
            if pendingSpace && !code.isEmpty && !tight { code += " " }
            pendingSpace = character == "," || character == ":"
            if character == "\"" {
                // A string, escapes and all, as written.
                code.append(character)
                index += 1
                while index < characters.count {
                    let inner = characters[index]
                    code.append(inner)
                    index += 1
                    if inner == "\\" && index < characters.count {
                        code.append(characters[index])
                        index += 1
                    } else if inner == "\"" {
                        break
                    }
                }
                continue
            }
            code.append(character)
            index += 1
        }
        return (code.isEmpty ? nil : indent, code, comment)
    }
}
