import LoopEngine

/// Fitting text into a number of columns without cutting a word: every panel, overlay and bar that could be too
/// narrow for its text goes through these, so at 80×24 (a projector) nothing reads "fire the selected timer no".
///
/// Widths are terminal columns, as ``Screen/put(_:x:y:style:limit:)`` lays text out (``DisplayWidth``: a CJK
/// character takes two). Chinese has no spaces between words: a line may break between two CJK characters, but
/// never before a closing mark (`，。）」`) nor after an opening one (`（「`).
enum TextFit {
    /// `text` whole when it fits in `width`; else as many whole words as fit followed by `ellipsis` (a word ends at
    /// a space, after a slash, or at a CJK character). A first word wider than the room is the one thing cut, with
    /// the ellipsis after it (there is no word boundary to use).
    static func fit(_ text: String, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.columns(text) <= width { return text }
        let room = width - DisplayWidth.columns(ellipsis)
        guard room > 0 else { return String(prefix(ellipsis[...], columns: width)) }
        // The furthest end within the room that keeps whole words: the end of a piece, or just after a slash
        // inside one (`port/timer/…`: alternatives are words too).
        var best: String.Index?
        var used = 0
        var position = text.startIndex
        func columns(upTo end: String.Index) -> Int {
            while position < end {
                used += DisplayWidth.columns(String(text[position]))
                position = text.index(after: position)
            }
            return used
        }
        scan: for piece in pieces(text) {
            var index = piece.text.startIndex
            while index < piece.text.endIndex {
                let next = piece.text.index(after: index)
                if piece.text[index] == "/" && next < piece.text.endIndex {
                    if columns(upTo: next) > room { break scan }
                    best = next
                }
                index = next
            }
            if columns(upTo: piece.text.endIndex) > room { break }
            best = piece.text.endIndex
        }
        if let best { return text[..<best] + ellipsis }
        return String(prefix(text[...], columns: room)) + ellipsis
    }

    /// Splits `text` into lines of at most `width` columns, at spaces and between CJK characters; a word wider than
    /// `width` is split across lines (the only cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for piece in pieces(text) {
            var word = piece.text
            var wordWidth = DisplayWidth.columns(String(word))
            while wordWidth > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                let head = prefix(word, columns: width, atLeastOne: true)
                lines.append(String(head))
                word = word[head.endIndex...]
                wordWidth = DisplayWidth.columns(String(word))
            }
            if word.isEmpty { continue }
            let gap = piece.spaced ? 1 : 0
            if line.isEmpty {
                line = String(word)
                lineWidth = wordWidth
            } else if lineWidth + gap + wordWidth <= width {
                line += (gap == 1 ? " " : "") + word
                lineWidth += gap + wordWidth
            } else {
                lines.append(line)
                line = String(word)
                lineWidth = wordWidth
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The first of `parts` joined by `separator` that fit in `width` (whole parts only: the hints of a status
    /// bar, `? help  q quit  …`, drop from the end rather than end in "m s").
    static func join(_ parts: [String], separator: String = "  ", width: Int) -> String {
        var text = ""
        for part in parts {
            let next = text.isEmpty ? part : text + separator + part
            if DisplayWidth.columns(next) > width { break }
            text = next
        }
        return text
    }

    /// `lines` cut to `rows`, the last row shown saying with `ellipsis` that more follows (at a word boundary).
    static func clip(_ lines: [String], rows: Int, width: Int, ellipsis: String = "…") -> [String] {
        guard rows > 0 else { return [] }
        guard lines.count > rows else { return lines }
        var shown = Array(lines.prefix(rows))
        // The next line did not fit after the last one shown (that is why it was wrapped): together they are too
        // wide, so `fit` ends the row at a word, with the ellipsis. (A CJK line continues without a space; the
        // space added here is a break the fit may use, never shown inside the kept text.)
        shown[rows - 1] = fit(lines[rows - 1] + " " + lines[rows], width: width, ellipsis: ellipsis)
        return shown
    }

    // MARK: - Pieces

    /// A run of text no line may break inside: a word, or one CJK character with the marks that cling to it.
    struct Piece: Equatable {
        var text: Substring
        /// A space came before it: joined to the piece before with a space (CJK pieces are joined with none).
        var spaced: Bool
    }

    /// `text` cut into pieces at spaces and wherever a CJK line may break.
    static func pieces(_ text: String) -> [Piece] {
        var result: [Piece] = []
        var start: String.Index?
        var spaced = false
        var previous: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == " " {
                if let begun = start { result.append(Piece(text: text[begun..<index], spaced: spaced)) }
                start = nil
                spaced = !result.isEmpty
            } else if let begun = start, let previous, breaks(between: previous, and: character) {
                result.append(Piece(text: text[begun..<index], spaced: spaced))
                spaced = false
                start = index
            } else if start == nil {
                start = index
            }
            previous = character
            index = text.index(after: index)
        }
        if let begun = start { result.append(Piece(text: text[begun...], spaced: spaced)) }
        return result
    }

    /// Marks a line may not start with (they close what comes before them).
    static let closing: Set<Character> = Set("，。、；：！？）」』》〉】〕…—～％,.;:!?)]}%'\"”’")
    /// Marks a line may not end with (they open what comes after them).
    static let opening: Set<Character> = Set("（「『《〈【〔“‘([{")

    /// True when a line may break between `left` and `right` with no space: next to a CJK character, unless a
    /// closing mark follows or an opening mark precedes.
    static func breaks(between left: Character, and right: Character) -> Bool {
        if opening.contains(left) || closing.contains(right) { return false }
        return isWide(left) || isWide(right)
    }

    static func isWide(_ character: Character) -> Bool { DisplayWidth.columns(String(character)) == 2 }

    /// The longest start of `text` at most `columns` wide (its first character even when wider, if `atLeastOne`).
    /// `text` whole when it fits in `width`; else its start and its end around `ellipsis`, the end given half the
    /// room: for names that differ at their ends (`thread 30341`, `thread 30342` read `thre…0341`, `thre…0342`).
    static func middle(_ text: String, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.columns(text) <= width { return text }
        let room = width - DisplayWidth.columns(ellipsis)
        guard room >= 2 else { return String(prefix(text[...], columns: width)) }
        let tailRoom = room / 2
        var tail = text.endIndex
        var used = 0
        while tail > text.startIndex {
            let before = text.index(before: tail)
            let columns = DisplayWidth.columns(String(text[before]))
            if used + columns > tailRoom { break }
            used += columns
            tail = before
        }
        return prefix(text[...], columns: room - used) + ellipsis + text[tail...]
    }

    static func prefix(_ text: Substring, columns: Int, atLeastOne: Bool = false) -> Substring {
        var used = 0
        var end = text.startIndex
        while end < text.endIndex {
            let width = DisplayWidth.columns(String(text[end]))
            if used + width > columns && !(atLeastOne && end == text.startIndex) { break }
            used += width
            end = text.index(after: end)
        }
        return text[..<end]
    }
}
