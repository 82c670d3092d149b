/// How many terminal columns text takes: what aligned columns and carets must count, since a CJK character or an
/// emoji takes two and a combining mark none. An approximation of `wcwidth(3)` from Unicode's properties (no
/// locale), good for the names, titles and texts of scenario files.
package enum DisplayWidth {
    /// The columns of `text`, each character counted by its first scalar plus any wide scalar it joins.
    package static func columns(_ text: String) -> Int {
        // ASCII, nearly every cell of a trace, is one column a byte: asking a scalar's Unicode properties costs far
        // more (most of a long text trace's formatting went there).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var total = 0
        for scalar in text.unicodeScalars { total += columns(scalar) }
        return total
    }

    /// 0 for combining marks, joiners and variation selectors; 2 for East Asian wide and full-width characters and
    /// emoji shown as pictures; 1 otherwise.
    package static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // ASCII has no mark, no format character, nothing wide and no emoji presentation.
        if value < 0x80 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) { return 0 }
        return isWide(value) || scalar.properties.isEmojiPresentation ? 2 : 1
    }

    /// East Asian Wide and Fullwidth blocks.
    static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value) || (0x3041...0x33FF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xA000...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            || (0x1F300...0x1F64F).contains(value) || (0x1F900...0x1FAFF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
    }

    /// `text` followed by spaces up to `width` columns (none when it is already as wide).
    package static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }
}
