import LoopEngine

// Render: the go-to and thread-picker overlays.

func drawGoTo(_ model: AppModel, _ typed: String, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rect = Rect(x: (model.width - 40) / 2, y: model.height / 2 - 2, width: 40, height: 3)
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let more = model.session.canExtend ? "+" : ""
    screen.put(
        "go to event (1-\(model.session.shownEventCount)\(more)): \(typed)_", x: rect.x + 2, y: rect.y + 1,
        limit: rect.width - 4)
}

/// The rows of the thread picker: following the current event (nil), then every thread with a loop.
func threadPickerRows(_ model: AppModel) -> [(thread: String?, text: String)] {
    [(nil, "follow the current event's thread")]
        + model.threadNames.map { name in
            let declared = model.session.declaredThread(named: name) != nil
            return (name, "thread " + name + (declared ? "" : "  (started by the run)"))
        }
}

/// The frame of a list overlay (the thread picker, the bookmarks): at most `maxWidth` wide, as many of `rows` as fit
/// (at least one), centred, filled and boxed; returns the box and how many rows it shows.
func listBox(
    _ model: AppModel, rows: Int, maxWidth: Int, _ screen: inout Screen, _ glyphs: Glyphs
) -> (rect: Rect, visible: Int) {
    let width = min(model.width - 4, maxWidth)
    let visible = max(1, min(rows, model.height - 8))
    let rect = Rect(
        x: (model.width - width) / 2, y: max(1, (model.height - visible - 4) / 2), width: width, height: visible + 4)
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    return (rect, visible)
}

/// The inside of a list box: its title, a window of `rows` that keeps `row` in view (marked), and on the last
/// row where the list goes on when it does not fit, else `footer`.
func drawListRows(
    title: String, _ rows: [String], row: Int, in rect: Rect, visible: Int, footer: String? = nil,
    _ screen: inout Screen, _ glyphs: Glyphs
) {
    let inner = rect.inner
    screen.put(
        TextFit.fit(title, width: inner.width - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y,
        style: glyphs.header)
    guard !rows.isEmpty else { return }
    let row = min(row, rows.count - 1)
    let first = min(max(0, row - visible + 1), max(0, rows.count - visible))
    for (offset, text) in rows.dropFirst(first).prefix(visible).enumerated() {
        let index = first + offset
        let style = index == row ? glyphs.current : Screen.Style.plain
        screen.put(
            TextFit.fit(
                "\(index == row ? glyphs.arrow : " ") \(text)", width: inner.width - 2, ellipsis: glyphs.ellipsis),
            x: inner.x + 1, y: inner.y + 1 + offset, style: style)
    }
    let last = rows.count > visible ? "(\(first) above, \(rows.count - first - visible) below)" : footer
    if let last {
        screen.put(
            TextFit.fit(last, width: inner.width - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1,
            y: inner.y + 1 + visible, style: glyphs.dimmed)
    }
}

/// `t`: a box listing every thread, the highlighted row marked; a window of it when the threads are many.
func drawThreads(_ model: AppModel, _ row: Int, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rows = threadPickerRows(model)
    let (rect, visible) = listBox(model, rows: rows.count, maxWidth: 60, &screen, glyphs)
    let title = "Show the loop of (\(glyphs.plain("↑↓")) or j/k, Enter, Esc)"
    let texts = rows.map { $0.text + ($0.thread == model.shownThread ? "  (now)" : "") }
    drawListRows(title: title, texts, row: row, in: rect, visible: visible, &screen, glyphs)
}
