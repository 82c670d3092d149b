import LoopEngine

/// The lines of the aggregate views' table shown: each with the row it selects (nil: a header or a title).
func statsLines(_ overlay: StatsOverlay, _ glyphs: Glyphs) -> [(text: String, row: Int?)] {
    let stats = overlay.stats
    let ascii = !glyphs.theme.unicode
    let rows = stats.rows(overlay.table, bar: ascii ? "#" : "█", ascii: ascii)
    var lines: [(text: String, row: Int?)] = []
    if let header = TraceStats.header(overlay.table) { lines.append(("  " + header, nil)) }
    switch overlay.table {
    case .items:
        lines += rows.enumerated().map { ("  \($1)", $0) }
        if rows.isEmpty { lines.append(("  no callouts", nil)) }
        if let other = stats.otherCallsLine { lines.append(("  " + other, nil)) }
    case .activities:
        lines += rows.enumerated().map { ("  \($1)", $0) }
    case .iterations:
        let split = TraceStats.Bucket.allCases.count
        let titles = stats.histogramTitles(ascii: ascii)
        lines.append(("  " + titles.iterations, nil))
        lines += rows[..<split].enumerated().map { ("  \($1)", $0) }
        lines.append(("  " + titles.sleeps, nil))
        lines += rows[split...].enumerated().map { ("  \($1)", split + $0) }
    }
    return lines
}

/// `H`: a box with the tabs on its first line, then the table shown, the highlighted row marked; a window of it
/// when the table is taller than the box.
func drawStats(_ model: AppModel, _ overlay: StatsOverlay, _ screen: inout Screen, _ glyphs: Glyphs) {
    let lines = statsLines(overlay, glyphs)
    let (rect, visible) = listBox(model, rows: lines.count + 1, maxWidth: 110, &screen, glyphs)
    let inner = rect.inner
    let width = inner.width - 2
    let tabs = TraceStats.Table.allCases.map { $0 == overlay.table ? "[\($0.title)]" : " \($0.title) " }
    let title =
        "Totals of \(LoopEvent.count(overlay.stats.events, "event")): " + tabs.joined(separator: " ")
        + "  (Tab, \(glyphs.plain("↑↓")) Enter shows the events, Esc)"
    screen.put(
        TextFit.fit(title, width: width, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y, style: glyphs.header)
    let selected = lines.firstIndex { $0.row == overlay.row } ?? 0
    let room = max(1, visible - 1)
    let first = min(max(0, selected - room + 1), max(0, lines.count - room))
    for (offset, line) in lines.dropFirst(first).prefix(room).enumerated() {
        let isRow = line.row == overlay.row && line.row != nil
        var text = line.text
        if isRow { text = glyphs.arrow + String(text.dropFirst(1)) }
        screen.put(
            TextFit.fit(text, width: width, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y + 2 + offset,
            style: isRow ? glyphs.current : line.row == nil ? glyphs.dimmed : .plain)
    }
    if lines.count > room {
        let text = "(\(first) above, \(lines.count - first - room) below)"
        screen.put(
            TextFit.fit(text, width: width, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y + 2 + room,
            style: glyphs.dimmed)
    }
}
