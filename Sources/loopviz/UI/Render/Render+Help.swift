import LoopEngine

// Render: the help overlay, laid out from KeyMap.

/// The help overlay's lines: a title, each group's keys, the timeline's letters and the status bar's words.
func helpLines(
    _ view: AppModel.View, _ glyphs: Glyphs, keys: KeyMap = .standard, filter: String? = nil
) -> [(String, Screen.Style)] {
    if let filter { return filteredHelpLines(view, glyphs, keys: keys, filter: filter) }
    let groups =
        view == .pool
        ? ["play", "find", "pool", "lesson", "view", "class"] : ["play", "find", "poke", "lesson", "view", "class"]
    // The help key closes it too: the user's, as the keymap has it.
    let close = keys.name(of: .help, in: view).map { "Esc or \($0)" } ?? "Esc"
    var lines: [(String, Screen.Style)] = [("Keys (/ filters, \(close) closes)", glyphs.header)]
    for group in groups {
        lines.append(("", .plain))
        lines.append((group, glyphs.header))
        for binding in keys.bindings(in: view) where binding.group == group && !binding.keys.isEmpty {
            lines.append(("  " + helpKeyColumn(glyphs.plain(binding.label)) + binding.help, .plain))
        }
        // Every box taller than the screen scrolls with the same keys as the log.
        if group == "view" { lines.append(("  j k     scroll a tall card, help, summary, quiz", .plain)) }
    }
    lines.append(("", .plain))
    lines.append(("timeline", glyphs.header))
    lines.append(
        ("  \(glyphs.awake) \(glyphs.asleep)     awake, asleep (up to the wake); \(glyphs.hang) a hang", .plain))
    lines.append(("  letters t timer, s source0, p port, b block, o observer,", .plain))
    lines.append(("          w wake-up, q main queue, P perform, | run ends", .plain))
    lines.append(("", .plain))
    lines.append(("status bar", glyphs.header))
    for (word, meaning) in statusWords(keys) { lines.append(("  " + word.padded(8) + meaning, .plain)) }
    return lines
}

/// `/` in the help: the keys whose label or help contains what is typed (ignoring case), under their groups, as
/// each character is typed.
func filteredHelpLines(
    _ view: AppModel.View, _ glyphs: Glyphs, keys: KeyMap = .standard, filter: String
) -> [(String, Screen.Style)] {
    let wanted = filter.lowercased()
    var lines: [(String, Screen.Style)] = [
        ("Keys matching \"\(filter)\"_ (Backspace widens, Esc clears)", glyphs.header)
    ]
    var group = ""
    for binding in keys.bindings(in: view) where !binding.keys.isEmpty {
        let line = "  " + helpKeyColumn(glyphs.plain(binding.label)) + binding.help
        guard wanted.isEmpty || line.lowercased().contains(wanted) else { continue }
        if binding.group != group {
            group = binding.group
            lines.append((group, glyphs.header))
        }
        lines.append((line, .plain))
    }
    if lines.count == 1 { lines.append(("  no key matches", glyphs.dimmed)) }
    return lines
}

/// A key's label in the help's first column: 8 wide, and a space after a longer one (a keymap's `Backspace`).
func helpKeyColumn(_ label: String) -> String {
    label.padded(max(8, DisplayWidth.columns(label) + 1))
}

/// The status bar's words and what they mean: the help's last group. Each line stays under 59 columns, so the help
/// still fits two columns at 132×43.
func statusWords(_ keys: KeyMap = .standard) -> [(String, String)] {
    AppModel.Playback.allCases.map { ($0.rawValue, $0.meaning(keys)) } + [
        ("REC", "--record: every frame is written to the cast"),
        ("12/37+", "step 12 of 37 computed; + more when played on"),
        ("t=1.5s", "virtual time; digits past the ms (0.6200015)"),
        ("", "are the iteration cost (docs/limits.md)"),
    ]
}

/// How the help overlay is laid out on a screen of `width`×`height`: one column when it fits, two columns split
/// at a group boundary when they fit (every line whole), else one scrolling column whose `visibleRows` show a
/// window of the lines and whose last row says what lies beyond.
struct HelpLayout {
    var columns: [ArraySlice<(String, Screen.Style)>]
    var rect: Rect
    /// Rows of lines shown in a scrolling column (the row under them tells what is above and below); nil when
    /// everything is shown.
    var visibleRows: Int?
    var lineCount: Int

    init(_ lines: [(String, Screen.Style)], width: Int, height: Int) {
        lineCount = lines.count
        let innerHeight = max(1, height - 4)
        let longest = lines.map { DisplayWidth.columns($0.0) }.max() ?? 0
        func place(_ boxWidth: Int, _ rows: Int) -> Rect {
            let boxHeight = min(height - 2, rows + 2)
            return Rect(x: (width - boxWidth) / 2, y: (height - boxHeight) / 2, width: boxWidth, height: boxHeight)
        }
        if lines.count <= innerHeight {
            columns = [lines[...]]
            rect = place(min(width - 4, 64), lines.count)
            visibleRows = nil
            return
        }
        let boxWidth = min(width - 4, 120)
        if let split = lines.indices.filter({ $0 > 0 && lines[$0].0.isEmpty }).min(by: {
            max($0, lines.count - $0 - 1) < max($1, lines.count - $1 - 1)
        }),
            max(split, lines.count - split - 1) <= innerHeight, longest < (boxWidth - 2) / 2
        {
            columns = [lines[..<split], lines[(split + 1)...]]
            rect = place(boxWidth, max(split, lines.count - split - 1))
            visibleRows = nil
            return
        }
        columns = [lines[...]]
        rect = place(min(width - 4, 80), innerHeight)
        visibleRows = max(1, rect.height - 3)
    }

    /// The first line shown for a requested scroll position: never past the last window.
    func firstLine(_ scroll: Int) -> Int {
        guard let visibleRows else { return 0 }
        return min(max(0, scroll), max(0, lineCount - visibleRows))
    }
}

func drawHelp(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    let layout = HelpLayout(
        helpLines(model.view, glyphs, keys: model.keys, filter: model.helpFilter), width: model.width,
        height: model.height)
    let rect = layout.rect
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let columnWidth = inner.width / layout.columns.count
    guard let visibleRows = layout.visibleRows else {
        for (column, content) in layout.columns.enumerated() {
            for (row, line) in content.prefix(inner.height).enumerated() {
                screen.put(
                    TextFit.fit(line.0, width: columnWidth - 1, ellipsis: glyphs.ellipsis),
                    x: inner.x + column * columnWidth, y: inner.y + row, style: line.1)
            }
        }
        return
    }
    let first = layout.firstLine(model.helpScroll)
    let shown = layout.columns[0].dropFirst(first).prefix(visibleRows)
    for (row, line) in shown.enumerated() {
        screen.put(
            TextFit.fit(line.0, width: inner.width - 1, ellipsis: glyphs.ellipsis), x: inner.x, y: inner.y + row,
            style: line.1)
    }
    let where_ = ScrollIndicator.text(first: first, shown: visibleRows, total: layout.lineCount, glyphs: glyphs)
    screen.put(
        TextFit.fit(where_, width: inner.width - 1, ellipsis: glyphs.ellipsis), x: inner.x,
        y: inner.y + visibleRows, style: glyphs.header)
}
