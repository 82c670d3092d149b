import LoopEngine

// Render: boxes and small text helpers the overlays share.

func box(_ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    let unicode = glyphs.theme.unicode
    let (h, v) = unicode ? ("─", "│") : ("-", "|")
    let corners = unicode ? ["┌", "┐", "└", "┘"] : ["+", "+", "+", "+"]
    for x in rect.x..<rect.maxX {
        screen.put(h, x: x, y: rect.y)
        screen.put(h, x: x, y: rect.maxY - 1)
    }
    for y in rect.y..<rect.maxY {
        screen.put(v, x: rect.x, y: y)
        screen.put(v, x: rect.maxX - 1, y: y)
    }
    screen.put(corners[0], x: rect.x, y: rect.y)
    screen.put(corners[1], x: rect.maxX - 1, y: rect.y)
    screen.put(corners[2], x: rect.x, y: rect.maxY - 1)
    screen.put(corners[3], x: rect.maxX - 1, y: rect.maxY - 1)
}

extension String {
    /// Spaces after the text up to `width` columns (display width: a CJK name takes two per character).
    func padded(_ width: Int) -> String {
        DisplayWidth.padded(self, to: width)
    }

    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.columns(self))) + self
    }
}
