import LoopEngine

// Render: the side by side (`V`).

/// `V`: a box over the panels (the title and the status bar stay): the two runs in two columns, a window of rows
/// around the step highlighted, the same step of both on each row; `>>` marks the first difference, and the last
/// lines say the highlighted step in words (and that the event budget stopped a run, when it did). An 80-column
/// screen drops the times from the columns (the last lines keep them).
func drawVersus(_ model: AppModel, _ comparison: RunComparison, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rect = Rect(x: 0, y: 1, width: model.width, height: max(5, model.height - 2))
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let width = inner.width - 2
    let put = { (text: String, line: Int, style: Screen.Style, screen: inout Screen) in
        screen.put(
            TextFit.fit(text, width: width, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y + line, style: style)
    }
    let other = comparison.other
    let keys = comparison.firstDifference == nil ? "n p move, Esc" : "n p move, d goes to it, Esc"
    put("Side by side: \(comparison.differenceWords) (\(keys))", 0, glyphs.header, &screen)
    // The highlighted step in words, on two lines at most (the last one ends in an ellipsis if it must).
    let words = wrap(TerminalSafeText.terminalSafe(comparison.rowWords(comparison.row)), width: width)
    let footer =
        Array(words.prefix(1)) + (words.count > 1 ? [words.dropFirst().joined(separator: " ")] : [])
        + (comparison.reachedEventLimit ? [RunComparison.budgetWords] : [])
    let numberWidth = max(1, String(comparison.steps).count)
    // `▶>> ` then the step number and a space.
    let prefix = 4 + numberWidth + 1
    let separator = glyphs.theme.unicode ? " │ " : " | "
    let side = max(8, (width - prefix - separator.count) / 2)
    let withTimes = side >= 48
    let rows = max(1, inner.height - 2 - footer.count)
    let first = min(max(0, comparison.row - rows / 2), max(0, comparison.steps - rows))
    let visible = first..<min(comparison.steps, first + rows)
    let threadWidth = visible.reduce(6) { width, row in
        let names = [comparison.shown, comparison.second].compactMap { row < $0.count ? $0[row].loop : nil }
        return min(14, names.reduce(width) { max($0, DisplayWidth.columns(TerminalSafeText.terminalSafe($1))) })
    }
    let cell = { (trace: LoopTrace, row: Int) -> String in
        guard row < trace.count else { return "" }
        let event = trace[row]
        let time = withTimes ? event.time.description.padded(11) : ""
        let step = String(repeating: "  ", count: max(0, event.depth - 1)) + event.step
        let text = time + TerminalSafeText.terminalSafe(event.loop).padded(threadWidth) + " " + step
        return TextFit.fit(TerminalSafeText.terminalSafe(text), width: side, ellipsis: glyphs.ellipsis)
    }
    let titles =
        String(repeating: " ", count: prefix)
        + TextFit.fit(other.shownTitle, width: side, ellipsis: glyphs.ellipsis)
        .padded(side) + separator + other.secondTitle
    put(titles, 1, glyphs.dimmed, &screen)
    guard comparison.steps > 0 else {
        put("no steps in either run", 2, .plain, &screen)
        return
    }
    for (offset, row) in visible.enumerated() {
        let isCurrent = row == comparison.row
        let isDifference = row == comparison.firstDifference
        let marker = (isCurrent ? glyphs.arrow : " ") + (isDifference ? ">>" : "  ") + " "
        let text =
            marker + String(row + 1).leftPadded(numberWidth) + " " + cell(comparison.shown, row).padded(side)
            + separator + cell(comparison.second, row)
        let style = isCurrent ? glyphs.current : isDifference ? Screen.Style(bold: true) : .plain
        put(text, 2 + offset, style, &screen)
    }
    for (offset, line) in footer.enumerated() {
        put(line, inner.height - footer.count + offset, glyphs.dimmed, &screen)
    }
}
