import LoopEngine

/// The summary's box and lines on a screen of `width`×`height`: the verdict and the "Try" suggestions first (what a
/// class reads at the end), then every `expect` line with ✓ or ✗, then any narration whose claims do not hold; a window of them with a last row saying what
/// lies below when they do not fit.
struct SummaryLayout {
    var rect: Rect
    var lines: [(String, Screen.Style)]
    /// Rows of lines shown (the row under them says what is above and below); nil when everything fits.
    var visibleRows: Int?

    init(_ summary: LessonSummary, width: Int, height: Int, glyphs: Glyphs, keys: KeyMap = .standard) {
        let boxWidth = min(width - 4, 110)
        let room = boxWidth - 4
        var lines: [(String, Screen.Style)] = []
        func add(_ text: String, _ style: Screen.Style = .plain, indent: Int = 0) {
            let pad = String(repeating: " ", count: indent)
            for (index, line) in TextFit.wrap(text, width: room - indent).enumerated() {
                // A wrapped line's continuation is indented under its text, past a mark such as `✓ `.
                lines.append(((index == 0 ? pad : pad + "  ") + line, style))
            }
        }
        let held = glyphs.theme.unicode ? "✓" : "+"
        let differs = glyphs.theme.unicode ? "✗" : "x"
        let unchecked = glyphs.theme.unicode ? "·" : "."
        add("End of the lesson: \(summary.title)", glyphs.header)
        lines.append(("", .plain))
        let total = summary.lineCount
        if summary.sections.isEmpty {
            add("This lesson has no expect section: nothing to check.")
        } else if summary.differing == 0 {
            add("\(held) Every expect line held in this run (\(total) line\(total == 1 ? "" : "s")).", glyphs.callout)
        } else {
            var text = "\(differs) This run differs from the lesson at \(summary.differing) place"
            text += summary.differing == 1 ? "" : "s"
            text += " (\(total) expect lines)"
            switch summary.unchecked {
            case 0: text += "."
            case 1: text += "; the line after a difference is not checked."
            default: text += "; the \(summary.unchecked) lines after a difference are not checked."
            }
            add(text, glyphs.warning)
        }
        if !summary.pokes.isEmpty {
            let count = summary.pokes.count
            let listed = summary.pokes.prefix(3).joined(separator: "; ") + (count > 3 ? "; \(glyphs.ellipsis)" : "")
            var text =
                "You poked the run \(count) time\(count == 1 ? "" : "s") (\(listed)): this run is yours, not the "
            switch summary.lessonRunHolds {
            case true?: text += "lesson's. Without the pokes every line holds."
            case false?: text += "lesson's. Without the pokes the lesson's own run does not hold either."
            case nil: text += "lesson's."
            }
            add(text)
        }
        if !summary.tries.isEmpty {
            lines.append(("", .plain))
            add("Try", glyphs.header)
            for suggestion in summary.tries { add("\(glyphs.trail) " + suggestion, indent: 2) }
        }
        for section in summary.sections {
            lines.append(("", .plain))
            add("expect \(section.mode.rawValue) (line \(section.line))", glyphs.header)
            for line in section.lines {
                switch line.verdict {
                case .held: add("\(held) \(line.text)", indent: 2)
                case .differs:
                    add("\(differs) \(line.text) (line \(line.line)): this run differs here", glyphs.warning, indent: 2)
                    for report in section.report { add(report, glyphs.dimmed, indent: 4) }
                case .unchecked: add("\(unchecked) \(line.text)", glyphs.dimmed, indent: 2)
                }
            }
            if section.ranOn {
                add("\(differs) the run went on after the last line:", glyphs.warning, indent: 2)
                for report in section.report { add(report, glyphs.dimmed, indent: 4) }
            }
        }
        if !summary.claimReport.isEmpty {
            lines.append(("", .plain))
            add("\(differs) Narration this run does not keep (claims under say lines):", glyphs.warning)
            for report in summary.claimReport { add(report, glyphs.dimmed, indent: 2) }
        }
        lines.append(("", .plain))
        add(
            "Esc closes; \(keys.word(for: .previousLesson)) \(keys.word(for: .nextLesson)) the previous or next lesson; "
                + "\(keys.word(for: .openPicker)) all of them.", glyphs.dimmed)
        self.lines = lines
        let innerHeight = max(1, height - 4)
        let rows = min(lines.count, innerHeight)
        let boxHeight = rows + 2
        rect = Rect(x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight)
        visibleRows = lines.count <= innerHeight ? nil : max(1, innerHeight - 1)
    }

    /// The first line shown for a requested scroll position: never past the last window.
    func firstLine(_ scroll: Int) -> Int {
        guard let visibleRows else { return 0 }
        return min(max(0, scroll), max(0, lines.count - visibleRows))
    }
}

/// At the last step: ``LessonSummary`` in a box over the panels.
func drawSummary(_ model: AppModel, _ summary: LessonSummary, _ screen: inout Screen, _ glyphs: Glyphs) {
    let layout = SummaryLayout(
        summary, width: model.width, height: model.height, glyphs: glyphs, keys: model.keys)
    let rect = layout.rect
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let first = layout.firstLine(summary.scroll)
    let rows = layout.visibleRows ?? inner.height
    for (row, line) in layout.lines.dropFirst(first).prefix(rows).enumerated() {
        screen.put(line.0, x: inner.x + 1, y: inner.y + row, style: line.1, limit: inner.width - 2)
    }
    guard let visibleRows = layout.visibleRows else { return }
    let where_ = ScrollIndicator.text(first: first, shown: visibleRows, total: layout.lines.count, glyphs: glyphs)
    screen.put(
        TextFit.fit(where_, width: inner.width - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1,
        y: inner.y + visibleRows, style: glyphs.header)
}
