/// Text that is safe to show on a terminal: every character that a terminal would act on instead of showing
/// (C0 and C1 controls, ESC, DEL) and every bidirectional control (which reorders what the reader sees, as in
/// "Trojan Source") is replaced by a visible escape (`\e`, `\n`, `\u{202E}`), never written raw.
///
/// A scenario file is input from anyone: its names, titles and `say` texts reach the user's terminal through the
/// text trace, diagnostics, `check` and `compare` output, Mermaid and the UI. Each of those passes such text
/// through ``terminalSafe(_:)`` (one line of text) or ``terminalSafeOutput(_:)`` (whole output, whose own line
/// breaks and tabs are kept).
package enum TerminalSafeText {
    /// `text` with every unsafe character shown as an escape, newlines and tabs included: for one field of a line.
    package static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` with every unsafe character shown as an escape, except the line breaks and tabs that lay out a
    /// whole output: the last guard before bytes reach a terminal.
    package static func terminalSafeOutput(_ text: String) -> String {
        let unsafe = { (scalar: Unicode.Scalar) in scalar != "\n" && scalar != "\t" && isUnsafe(scalar) }
        guard text.unicodeScalars.contains(where: unsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if unsafe(scalar) {
                out.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// True for a character a terminal acts on, or one that reorders the text around it.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // Bidirectional marks, embeddings, overrides and isolates; line and paragraph separators.
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        // Invisible: a zero-width space, a word joiner or a byte-order mark would make two names look alike (the
        // zero-width joiner stays: emoji sequences are made with it).
        case 0x200B, 0x2060, 0xFEFF: return true
        default: return false
        }
    }

    /// The visible spelling of an unsafe character, as a Swift string literal would write it.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\u{1B}": return "\\e"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\0": return "\\0"
        default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
