import LoopEngine

/// What the terminal should show: a grid of cells, built by the pure `render` and drawn by a presenter.
/// A value, so tests compare screens and presenters diff them.
///
/// No cell ever holds a character a terminal would act on: text is laid out with its unsafe characters shown
/// as escapes (``put(_:x:y:style:limit:)``), and every cell written goes through ``safe(_:)``.
struct Screen: Equatable {
    /// How a cell looks. Colours are the terminal's own 16 (so its theme applies); `monochrome` themes use only
    /// attributes and glyphs.
    struct Style: Hashable {
        enum Color: Int, Hashable {
            case normal = -1, black = 0, red, green, yellow, blue, magenta, cyan, white
        }

        var foreground: Color = .normal
        var background: Color = .normal
        var bold = false
        var dim = false
        var reverse = false
        var underline = false

        static let plain = Style()
    }

    /// One column of the screen. A wide character (CJK, full-width) takes two: its own cell, and the cell to its
    /// right marked `isTrailing`, which holds no character of its own (a terminal draws the wide one over both).
    struct Cell: Equatable {
        var character: Character
        var style: Style
        var isTrailing = false
    }

    let width: Int
    let height: Int
    private(set) var cells: [Cell]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(character: " ", style: .plain), count: self.width * self.height)
    }

    /// A cell. Setting one keeps wide characters whole: a wide character also takes the cell to its right (a `?`
    /// where the screen ends first), and a wide character partly overwritten leaves a space in its other half.
    subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            var character = Self.safe(newValue.character)
            let wide = Self.isWide(character)
            if wide && x + 1 >= width { character = "?" }
            clearHalves(x: x, y: y)
            cells[y * width + x] = Cell(character: character, style: newValue.style)
            guard wide && x + 1 < width else { return }
            clearHalves(x: x + 1, y: y)
            cells[y * width + x + 1] = Cell(character: " ", style: newValue.style, isTrailing: true)
        }
    }

    /// Before (x, y) is written: the other half of a wide character that (x, y) belongs to becomes a space.
    private mutating func clearHalves(x: Int, y: Int) {
        let index = y * width + x
        if cells[index].isTrailing, x > 0 {
            cells[index - 1] = Cell(character: " ", style: cells[index - 1].style)
        } else if Self.isWide(cells[index].character), x + 1 < width {
            cells[index + 1] = Cell(character: " ", style: cells[index + 1].style)
        }
    }

    /// True for a character two columns wide (one that ``safe(_:)`` lets through).
    static func isWide(_ character: Character) -> Bool {
        character.unicodeScalars.count == 1 && character.unicodeScalars.first.map(DisplayWidth.columns) == 2
    }

    /// Writes `text` from (x, y), clipped to the screen (and to `limit` columns when given), each character taking
    /// its display width (``DisplayWidth``: two columns for CJK); a wide character that would cross the limit is
    /// left out. Control characters, ESC, DEL and bidirectional controls are shown as their escapes (`\e`,
    /// `\u{202E}`), as far as the width allows: a scenario file cannot inject escape sequences into the terminal,
    /// nor reorder what it shows.
    mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, limit: Int? = nil) {
        guard y >= 0, y < height else { return }
        var column = x
        let end = min(width, limit.map { x + $0 } ?? width)
        guard end > x else { return }
        // Only what can be shown is escaped (escapes only widen the text): bounded by the width, not the text.
        let visible = TerminalSafeText.terminalSafe(String(text.prefix(end - x)))
        for character in visible {
            let columns = Self.isWide(character) ? 2 : 1
            if column + columns > end { break }
            if column >= 0 { self[column, y] = Cell(character: character, style: style) }
            column += columns
        }
    }

    /// Fills a rectangle with one character and style.
    mutating func fill(_ rect: Rect, character: Character = " ", style: Style = .plain) {
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) { self[x, y] = Cell(character: character, style: style) }
        }
    }

    /// `character`, or `?` where a cell cannot show it: a control, ESC, DEL or bidirectional control (the last
    /// guard, for a character written without ``put(_:x:y:style:limit:)``), or a character whose width the grid
    /// cannot be sure of (several scalars, a zero-width one), which would shift it. A wide character is kept: it
    /// takes two cells.
    static func safe(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first else { return "?" }
        if character.unicodeScalars.contains(where: TerminalSafeText.isUnsafe) { return "?" }
        if character.unicodeScalars.count > 1 || DisplayWidth.columns(scalar) == 0 { return "?" }
        return character
    }

    /// The screen as plain text lines (trailing spaces trimmed), a wide character once for its two cells: what
    /// snapshot tests compare.
    var lines: [String] {
        (0..<height).map { y in
            var line = String((0..<width).compactMap { self[$0, y].isTrailing ? nil : self[$0, y].character })
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}

/// A rectangle of the screen, in cells.
struct Rect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// The rectangle without a border of one cell.
    var inner: Rect { Rect(x: x + 1, y: y + 1, width: max(0, width - 2), height: max(0, height - 2)) }
}
