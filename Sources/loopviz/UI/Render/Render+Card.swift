import LoopEngine

/// The lesson card of the model's lesson in its language (part by part in English where the translation has
/// none), or nil when the lesson has none (no header comment, or a recorded trace).
func lessonCard(_ model: AppModel) -> LessonCard.Words? {
    guard !model.session.isReplay else { return nil }
    let words = model.session.script.card.words(in: model.language)
    return words.isEmpty ? nil : words
}

/// The card's parts as the overlay shows them: a heading (none for what the lesson teaches) and its text wrapped
/// to the box.
struct CardLayout: Equatable {
    struct Part: Equatable {
        var heading: String?
        var lines: [String]
    }

    var parts: [Part]
    var rect: Rect

    /// The box is as wide as the screen allows up to 100 columns and as tall as its text needs; when the text is
    /// taller than the screen, every part keeps some rows (the longest parts give rows up first, each cut at a
    /// word with an ellipsis), so "Watch for" and "Try" are never pushed off the card by a long introduction.
    init(_ words: LessonCard.Words, chinese: Bool, width: Int, height: Int, ellipsis: String) {
        let boxWidth = min(width - 4, 100)
        let textWidth = boxWidth - 4
        var parts: [Part] = []
        let teaches = words.teaches.flatMap { TextFit.wrap($0, width: textWidth) }
        if !teaches.isEmpty { parts.append(Part(heading: nil, lines: teaches)) }
        if let watch = words.watchFor {
            parts.append(Part(heading: chinese ? "看点" : "Watch for", lines: TextFit.wrap(watch, width: textWidth - 2)))
        }
        if let tryThis = words.tryThis {
            parts.append(Part(heading: chinese ? "试试" : "Try", lines: TextFit.wrap(tryThis, width: textWidth - 2)))
        }
        let notes = words.notes.flatMap { TextFit.wrap($0, width: textWidth) }
        if !notes.isEmpty { parts.append(Part(heading: nil, lines: notes)) }
        // Rows around the text: the borders, a blank row between parts, a heading per part that has one, a blank
        // row and the footer.
        let fixed = 2 + (parts.count - 1) + parts.filter { $0.heading != nil }.count + 2
        let room = max(parts.count, height - 2 - fixed)
        var rows = parts.map(\.lines.count)
        while rows.reduce(0, +) > room, let longest = rows.indices.max(by: { rows[$0] < rows[$1] }), rows[longest] > 1 {
            rows[longest] -= 1
        }
        for index in parts.indices {
            parts[index].lines = TextFit.clip(
                parts[index].lines, rows: rows[index],
                width: textWidth - (parts[index].heading == nil ? 0 : 2), ellipsis: ellipsis)
        }
        self.parts = parts
        let boxHeight = min(height - 2, fixed + rows.reduce(0, +))
        rect = Rect(x: (width - boxWidth) / 2, y: max(1, (height - boxHeight) / 2), width: boxWidth, height: boxHeight)
    }
}

/// The card over the screen: the lesson's title in the top border, what it teaches, "Watch for" and "Try" each
/// under its own heading, and how to close it.
func drawCard(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    guard let words = lessonCard(model) else { return }
    // The headings are the translation's own when the lesson has one in the language shown.
    let translation = model.session.script.card.words[model.language]
    let layout = CardLayout(
        words, chinese: model.language == .zh && translation != nil, width: model.width, height: model.height,
        ellipsis: glyphs.ellipsis)
    let rect = layout.rect
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let title = TextFit.fit(model.session.script.scenario.name, width: rect.width - 6, ellipsis: glyphs.ellipsis)
    screen.put(" \(title) ", x: rect.x + 2, y: rect.y, style: glyphs.header)
    let x = rect.x + 2
    var y = rect.y + 1
    for (index, part) in layout.parts.enumerated() {
        if index > 0 { y += 1 }
        var indent = 0
        if let heading = part.heading {
            screen.put(heading, x: x, y: y, style: glyphs.header)
            y += 1
            indent = 2
        }
        for line in part.lines {
            screen.put(line, x: x + indent, y: y, limit: rect.width - 4 - indent)
            y += 1
        }
    }
    let footer = "any key closes this card, i opens it again, ? shows every key"
    screen.put(
        TextFit.fit(footer, width: rect.width - 4, ellipsis: glyphs.ellipsis), x: x, y: rect.maxY - 2,
        style: glyphs.dimmed)
}
