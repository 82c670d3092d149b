/// Fitting text into a number of columns without cutting a word: every panel, overlay and bar that could be too
/// narrow for its text goes through these, so at 80×24 (a projector) nothing reads "fire the selected timer no".
///
/// Widths are in characters, as ``Screen/put(_:x:y:style:limit:)`` lays them out (one cell each).
enum TextFit {
    /// `text` whole when it fits in `width`; else as many whole words as fit followed by `ellipsis` (a word ends at
    /// a space or after a slash). A first word wider than the room is the one thing cut, with the ellipsis after it
    /// (there is no word boundary to use).
    static func fit(_ text: String, width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if text.count <= width { return text }
        let room = width - ellipsis.count
        guard room > 0 else { return String(ellipsis.prefix(width)) }
        let head = text.prefix(room + 1)
        // The last space within the room (a space right after the room ends a whole word too), or the last slash
        // (`port/timer/…`: alternatives are words too), whichever keeps more.
        let space = head.lastIndex(of: " ")
        let slash = head.dropLast().lastIndex(of: "/").map { head.index(after: $0) }
        if let end = [space, slash].compactMap({ $0 }).max() {
            var kept = text[..<end]
            while kept.last == " " { kept.removeLast() }
            if !kept.isEmpty { return kept + ellipsis }
        }
        return String(text.prefix(room)) + ellipsis
    }

    /// Splits `text` into lines of at most `width` characters at spaces; a word wider than `width` is split
    /// across lines (the only cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if word.isEmpty { continue }
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
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
            if next.count > width { break }
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
        // wide, so `fit` ends the row at a word, with the ellipsis.
        shown[rows - 1] = fit(lines[rows - 1] + " " + lines[rows], width: width, ellipsis: ellipsis)
        return shown
    }
}
