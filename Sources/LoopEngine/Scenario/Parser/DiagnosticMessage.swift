/// The text of a diagnostic, safe and short by construction: every value interpolated into it (a token, a name,
/// a list of names) is shown terminal-safe (``TerminalSafeText``) and cut to ``maxQuoted`` characters with an
/// ellipsis. A scenario file is input from anyone, so a message quoting it (`found '…'`) must neither carry an
/// escape sequence to the user's terminal nor repeat a 10 MB token.
///
///     case .unknownAction(let word): return "unknown action '\(word)'"   // word is escaped and bounded
///
/// (`ScenarioProblem+Wording.swift` builds every message this way.)
struct DiagnosticMessage: ExpressibleByStringInterpolation, Equatable, CustomStringConvertible {
    /// How many characters of one interpolated value a message shows.
    static let maxQuoted = 80

    private(set) var text: String

    init(stringLiteral value: String) {
        text = value
    }

    init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
    }

    var description: String { text }

    static func + (message: DiagnosticMessage, literal: String) -> DiagnosticMessage {
        var result = message
        result.text += literal
        return result
    }

    static func += (message: inout DiagnosticMessage, literal: String) {
        message.text += literal
    }

    /// `value` shown safely in at most ``maxQuoted`` columns (an escape such as `\u{202E}` counts its width, and
    /// scalars are counted, not characters, so one enormous grapheme cannot slip through either), the rest
    /// replaced by `…`. Costs O(maxQuoted), whatever the length of `value`.
    static func shown(_ value: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        var width = 0
        for scalar in value.unicodeScalars {
            let piece = TerminalSafeText.isUnsafe(scalar) ? TerminalSafeText.escape(scalar) : String(scalar)
            width += piece.unicodeScalars.count
            if width > maxQuoted {
                out.append("…")
                break
            }
            out.append(contentsOf: piece.unicodeScalars)
        }
        return String(out)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Text from the scenario file (or built from it): escaped and bounded.
        mutating func appendInterpolation(_ value: some StringProtocol) {
            text += DiagnosticMessage.shown(value)
        }

        /// Numbers, durations, mode names: their description, escaped and bounded like text.
        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += DiagnosticMessage.shown(value.description)
        }

        /// Another message (a hint built the same way): already safe and bounded, kept whole.
        mutating func appendInterpolation(_ message: DiagnosticMessage) {
            text += message.text
        }
    }
}
