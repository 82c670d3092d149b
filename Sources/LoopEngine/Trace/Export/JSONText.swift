/// Hand-written JSON for the export formats: LoopEngine has no Foundation, and the formats promise a fixed key
/// order that a generic encoder would not keep anyway.
package enum JSONText {
    /// `text` as a JSON string literal. Quotes and backslashes are escaped, every control character (and DEL,
    /// which Perfetto's tokenizer rejects, and U+2028/U+2029, which break JavaScript readers), every C1 control
    /// and every bidirectional control (``TerminalSafeText/isUnsafe(_:)``: a terminal showing the file would act
    /// on them) becomes `\uXXXX`, which decodes to the same text; other non-ASCII passes through as UTF-8.
    package static func quoted(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// A JSON string literal, or `null`.
    package static func quoted(_ text: String?) -> String {
        text.map { quoted($0) } ?? "null"
    }

    /// ``quoted(_:)`` as UTF-8 appended to `bytes`, or `null` for nil.
    static func appendQuoted(_ text: String?, to bytes: inout [UInt8]) {
        guard let text else {
            bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            return
        }
        // A native string's bytes are read in place (no copy of the string): nearly every name is plain ASCII.
        let plain =
            text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
                for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
                bytes.append(0x22)
                bytes.append(contentsOf: utf8)
                bytes.append(0x22)
                return true
            } ?? false
        if !plain {
            var quoted = ""
            appendQuoted(text, to: &quoted)
            quoted.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }

    /// ``quoted(_:)`` appended to `out`, or `null` for nil: how a line is built without a string per value.
    static func appendQuoted(_ text: String?, to out: inout String) {
        guard let text else {
            out += "null"
            return
        }
        // Most names are plain printable ASCII: those need no scan of scalars.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            out += "\""
            out += text
            out += "\""
            return
        }
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where needsUnicodeEscape(scalar.value): out += unicodeEscape(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `{"key":value,...}` in the given order; values must already be JSON.
    package static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// An integer scaled down by `10^decimals` as a plain decimal number: no exponent, trailing zeros dropped
    /// (`1500, 3` → `1.5`, `2000, 3` → `2`). Exact, unlike going through `Double`.
    package static func decimal(_ value: Int64, decimals: Int) -> String {
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let magnitude = value.magnitude
        let whole = magnitude / scale
        var fraction = magnitude % scale
        var digits = decimals
        while digits > 0 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var text = (value < 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return text
    }

    private static func needsUnicodeEscape(_ value: UInt32) -> Bool {
        Unicode.Scalar(value).map(TerminalSafeText.isUnsafe) ?? false
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
