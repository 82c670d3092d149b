import LoopEngine

/// The lesson card of the model's lesson in its language (part by part in English where the translation has
/// none), or nil when the lesson has none (no header comment, or a recorded trace).
func lessonCard(_ model: AppModel) -> LessonCard.Words? {
    guard !model.session.isReplay else { return nil }
    let words = model.session.script.card.words(in: model.language)
    return words.isEmpty ? nil : words
}

/// The card as the overlay shows it: every line of its parts (a heading, none for what the lesson teaches, and its
/// text wrapped to the box), and the window of them shown. Nothing is cut: a card taller than the screen scrolls
/// (↓ j PgDn, ↑ k PgUp), its last text row saying what lies below.
struct CardLayout: Equatable {
    struct Line: Equatable {
        var text: String
        var isHeading = false
        var indent = 0
    }

    var lines: [Line]
    var rect: Rect
    /// Rows of lines shown (the row under them is the scroll indicator); nil when the whole card fits.
    var visibleRows: Int?

    /// The box is as wide as the screen allows up to 100 columns and as tall as its text needs, up to the screen.
    init(_ words: LessonCard.Words, chinese: Bool, width: Int, height: Int) {
        let boxWidth = min(width - 4, 100)
        let textWidth = boxWidth - 4
        var lines: [Line] = []
        func part(_ heading: String?, _ paragraphs: [String]) {
            let indent = heading == nil ? 0 : 2
            let wrapped = paragraphs.flatMap { TextFit.wrap($0, width: textWidth - indent) }
            guard !wrapped.isEmpty else { return }
            if !lines.isEmpty { lines.append(Line(text: "")) }
            if let heading { lines.append(Line(text: heading, isHeading: true)) }
            lines += wrapped.map { Line(text: $0, indent: indent) }
        }
        part(nil, words.teaches)
        part(chinese ? "看点" : "Watch for", words.watchFor.map { [$0] } ?? [])
        part(chinese ? "试试" : "Try", words.tryThis.map { [$0] } ?? [])
        part(nil, words.notes)
        self.lines = lines
        // Rows around the text: the borders, a blank row and the footer.
        let fixed = 4
        let room = max(2, height - 2 - fixed)
        visibleRows = lines.count <= room ? nil : room - 1
        let boxHeight = min(height - 2, fixed + min(lines.count, room))
        rect = Rect(x: (width - boxWidth) / 2, y: max(1, (height - boxHeight) / 2), width: boxWidth, height: boxHeight)
    }

    /// The first line shown for a requested scroll position.
    func firstLine(_ scroll: Int) -> Int {
        guard let visibleRows else { return 0 }
        return ScrollIndicator.clamp(scroll, rows: visibleRows, total: lines.count)
    }
}

extension AppModel {
    /// The card's layout on this model's screen, in its language (the headings are the translation's own when the
    /// lesson has one in the language shown); nil when the lesson has no card.
    var cardLayout: CardLayout? {
        guard let words = lessonCard(self) else { return nil }
        let translation = session.script.card.words[language]
        return CardLayout(words, chinese: language == .zh && translation != nil, width: width, height: height)
    }
}

/// The card over the screen: the lesson's title in the top border, what it teaches, "Watch for" and "Try" each
/// under its own heading, the window of it shown when it scrolls, and the keys.
func drawCard(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    guard let layout = model.cardLayout else { return }
    let rect = layout.rect
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let title = TextFit.fit(model.session.script.scenario.name, width: rect.width - 6, ellipsis: glyphs.ellipsis)
    screen.put(" \(title) ", x: rect.x + 2, y: rect.y, style: glyphs.header)
    let x = rect.x + 2
    let first = layout.firstLine(model.cardScroll)
    let rows = layout.visibleRows ?? layout.lines.count
    for (row, line) in layout.lines.dropFirst(first).prefix(rows).enumerated() {
        screen.put(
            line.text, x: x + line.indent, y: rect.y + 1 + row, style: line.isHeading ? glyphs.header : .plain,
            limit: rect.width - 4 - line.indent)
    }
    if let visibleRows = layout.visibleRows {
        let where_ = ScrollIndicator.text(first: first, shown: visibleRows, total: layout.lines.count, glyphs: glyphs)
        screen.put(
            TextFit.fit(where_, width: rect.width - 4, ellipsis: glyphs.ellipsis), x: x, y: rect.y + 1 + visibleRows,
            style: glyphs.header)
    }
    let keys = model.keys
    let footer =
        layout.visibleRows == nil
        ? "any key closes this card, \(keys.word(for: .showCard)) opens it again, \(keys.word(for: .help)) shows every key"
        : "j k scroll, any other key closes; \(keys.word(for: .previousLesson)) \(keys.word(for: .nextLesson)) another "
            + "lesson; \(keys.word(for: .help)) every key"
    screen.put(
        TextFit.fit(footer, width: rect.width - 4, ellipsis: glyphs.ellipsis), x: x, y: rect.maxY - 2,
        style: glyphs.dimmed)
}
