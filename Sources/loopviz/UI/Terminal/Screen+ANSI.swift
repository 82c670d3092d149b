/// A screen as the bytes a VT100-style terminal needs to show it: what `--record` writes to the cast, so that
/// `asciinema play` draws what the presenter drew (the same cells, with the same attributes and colours).
extension Screen.Style {
    /// The SGR sequence that sets exactly this style (after a reset).
    var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if foreground != .normal { codes.append(String(30 + foreground.rawValue)) }
        if background != .normal { codes.append(String(40 + background.rawValue)) }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

extension Screen {
    /// The bytes that turn `previous` (nil: whatever the terminal shows) into this screen: only the cells that
    /// differ, with a cursor move where a run of them starts and a style change where the style does. The
    /// bottom-right cell is skipped, as the presenter skips it (it would scroll some terminals).
    func ansi(from previous: Screen?) -> String {
        let previous = previous.flatMap { $0.width == width && $0.height == height ? $0 : nil }
        var out = previous == nil ? "\u{1B}[?25l\u{1B}[0m\u{1B}[2J" : ""
        var style: Style? = nil
        var cursor: (x: Int, y: Int)? = nil
        for y in 0..<height {
            for x in 0..<width {
                if y == height - 1 && x == width - 1 { continue }
                let cell = self[x, y]
                if let previous, previous[x, y] == cell { continue }
                if previous == nil && cell.character == " " && cell.style == .plain { continue }
                if cursor.map({ $0.x != x || $0.y != y }) ?? true { out += "\u{1B}[\(y + 1);\(x + 1)H" }
                if style != cell.style {
                    out += cell.style.sgr
                    style = cell.style
                }
                out.append(cell.character)
                cursor = (x + 1, y)
            }
        }
        if style != nil && style != .plain { out += "\u{1B}[0m" }
        return out
    }
}
