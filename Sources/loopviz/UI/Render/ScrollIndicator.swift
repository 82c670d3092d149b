import LoopEngine

/// The last row of a box whose text is taller than the screen (the card, the help, the summary): what lies below
/// and the key that shows it first (the part a narrow box keeps), then where the window is (`lines 1-14 of 40`).
enum ScrollIndicator {
    /// `first`: the first line shown (from 0); `shown`: how many rows show lines; `total`: every line.
    static func text(first: Int, shown: Int, total: Int, glyphs: Glyphs) -> String {
        let last = min(total, first + shown)
        let position = "lines \(first + 1)-\(last) of \(total)"
        let below = total - last
        if below > 0 {
            let back = first > 0 ? ", \(glyphs.plain("↑")) k back" : ""
            return "\(glyphs.plain("↓")) \(below) more below: j or PgDn\(back)  (\(position))"
        }
        return "end: \(glyphs.plain("↑")) k or PgUp back  (\(position))"
    }

    /// The first line shown for a requested scroll position: never before the first line, nor past the last
    /// window.
    static func clamp(_ scroll: Int, rows: Int, total: Int) -> Int {
        min(max(0, scroll), max(0, total - rows))
    }
}
