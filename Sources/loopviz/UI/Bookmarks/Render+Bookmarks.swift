import LoopEngine

// Render: the bookmark list (`M`) and the note prompt (`;`).

/// The list's rows: each mark's step, its time and event when computed, and its note.
func bookmarkRows(_ model: AppModel) -> [String] {
    model.bookmarks.marks.map { mark in
        var text = "step \(mark.step)"
        if mark.step <= model.trace.count {
            let event = model.trace[mark.step - 1]
            text += "  t=\(event.time)s  \(event.loop)  \(event.kind.rawValue)" + (event.name.map { " " + $0 } ?? "")
        }
        return mark.note.isEmpty ? text : text + "  " + glyphsDash(model) + " " + mark.note
    }
}

private func glyphsDash(_ model: AppModel) -> String { model.theme.unicode ? "—" : "-" }

func drawBookmarks(_ model: AppModel, _ row: Int, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rows = bookmarkRows(model)
    let (rect, visible) = listBox(model, rows: rows.count, maxWidth: 100, &screen, glyphs)
    let file =
        model.bookmarksPath.map { "in " + ($0.split(separator: "/").last.map(String.init) ?? $0) }
        ?? "this session only"
    let title = "Bookmarks, \(file) (\(glyphs.plain("↑↓")) Enter goes, B removes, Esc)"
    drawListRows(title: title, rows, row: row, in: rect, visible: visible, &screen, glyphs)
}

/// `;`: the note prompt takes the status bar's place.
func drawNotePrompt(_ model: AppModel, _ typed: String, _ screen: inout Screen, _ glyphs: Glyphs) {
    let y = model.height - 1
    screen.fill(Rect(x: 0, y: y, width: model.width, height: 1), style: glyphs.title)
    var badge = glyphs.title
    badge.bold = true
    screen.put(" NOTE ", x: 0, y: y, style: badge)
    let room = model.width - 7
    let head = "step \(model.cursor): "
    let typedShown = typed + "_"
    let roomForTyped = room - DisplayWidth.columns(head)
    let shown =
        DisplayWidth.columns(typedShown) > roomForTyped
        ? glyphs.ellipsis + String(typedShown.suffix(max(1, roomForTyped - 1))) : typedShown
    let hint = "  Enter keeps, Esc cancels"
    let text =
        head + shown + TextFit.fit(hint, width: room - DisplayWidth.columns(head + shown), ellipsis: glyphs.ellipsis)
    screen.put(text, x: 7, y: y, style: glyphs.title, limit: room)
}
