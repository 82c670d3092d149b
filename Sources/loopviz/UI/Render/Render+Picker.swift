import LoopEngine

/// The rows of the picker's list per lesson: its number, title and topics, then what it teaches.
let pickerRowsPerLesson = 2

/// The picker's box: the whole screen but its title and status rows (the panels behind it would only distract).
func pickerRect(width: Int, height: Int) -> Rect {
    Rect(x: 0, y: 1, width: width, height: max(3, height - 2))
}

/// How many lessons the picker's box lists at once.
func pickerVisibleLessons(width: Int, height: Int) -> Int {
    // Inside the border: the title, the filter line and a rule above the list, the scroll line under it.
    max(1, (pickerRect(width: width, height: height).inner.height - 4) / pickerRowsPerLesson)
}

/// `L`: every lesson of the library, the highlighted one marked, a window of them when they are many; the filter
/// typed after `/` and how many lessons it matches.
func drawPicker(_ model: AppModel, _ picker: LessonPicker, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rect = pickerRect(width: model.width, height: model.height)
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let room = inner.width - 2
    let library = model.library
    let shown = library.matching(picker.filter)
    let keys = "\(glyphs.plain("↑↓")) Enter opens, / filters, Esc closes"
    let count =
        picker.filter.isEmpty ? "\(library.entries.count) lessons" : "\(shown.count) of \(library.entries.count)"
    screen.put(
        TextFit.fit("Lessons (\(keys))", width: room - count.count - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1,
        y: inner.y, style: glyphs.header)
    screen.put(count, x: inner.maxX - 1 - count.count, y: inner.y, style: glyphs.header)
    let filterLine: String
    var filterStyle = Screen.Style.plain
    if picker.typing {
        filterLine = "/ \(picker.filter)_   (title, number or topic; Enter opens, Esc clears)"
        filterStyle = glyphs.warning
    } else if !picker.filter.isEmpty {
        filterLine = "filter: \(picker.filter)   (/ types more, Esc clears)"
        filterStyle = glyphs.warning
    } else {
        filterLine = library.note.map { "note: \($0)" } ?? "/ filters by title, number or topic"
        filterStyle = library.note == nil ? glyphs.dimmed : glyphs.warning
    }
    screen.put(
        TextFit.fit(filterLine, width: room, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y + 1,
        style: filterStyle)
    screen.put(
        String(repeating: glyphs.horizontal, count: max(0, inner.width)), x: inner.x, y: inner.y + 2,
        style: glyphs.dimmed)
    let top = inner.y + 3
    guard !shown.isEmpty else {
        let text =
            library.isEmpty
            ? LessonLibrary.noLibraryMessage : "no lesson matches \u{201C}\(picker.filter)\u{201D}"
        for (row, line) in TextFit.wrap(text, width: room).prefix(inner.height - 4).enumerated() {
            screen.put(line, x: inner.x + 1, y: top + row)
        }
        return
    }
    let visible = pickerVisibleLessons(width: model.width, height: model.height)
    let row = min(picker.row, shown.count - 1)
    let first = min(max(0, row - visible + 1), max(0, shown.count - visible))
    let numberWidth = max(2, shown.map { library.entries[$0].number.count }.max() ?? 2)
    for (offset, index) in shown.dropFirst(first).prefix(visible).enumerated() {
        let entry = library.entries[index]
        let y = top + offset * pickerRowsPerLesson
        let highlighted = first + offset == row
        let style = highlighted ? glyphs.current : Screen.Style.plain
        let marker = highlighted ? glyphs.arrow : " "
        let open = index == library.current ? "  (open)" : ""
        let topics = entry.topics.joined(separator: ", ")
        let topicsRoom = min(topics.count, room / 3)
        let lead = "\(marker) " + entry.number.leftPadded(numberWidth) + "  "
        let titleRoom = room - lead.count - (topics.isEmpty ? 0 : topicsRoom + 2)
        let title = TextFit.fit(entry.title + open, width: titleRoom, ellipsis: glyphs.ellipsis)
        if highlighted { screen.fill(Rect(x: inner.x + 1, y: y, width: room, height: 1), style: style) }
        screen.put(lead + title, x: inner.x + 1, y: y, style: style, limit: room)
        if !topics.isEmpty {
            let fitted = TextFit.fit(topics, width: topicsRoom, ellipsis: glyphs.ellipsis)
            screen.put(
                fitted, x: inner.x + 1 + room - fitted.count, y: y, style: highlighted ? style : glyphs.activity)
        }
        // What it teaches, unless that only says the title again (`One item, two loops.`).
        let teaches = entry.teaches(in: model.language).flatMap { repeatsTitle($0, entry.title) ? nil : $0 }
        let second = entry.problem.map { "\(glyphs.differs) \($0)" } ?? teaches ?? ""
        screen.put(
            TextFit.fit(second, width: room - lead.count, ellipsis: glyphs.ellipsis), x: inner.x + 1 + lead.count,
            y: y + 1, style: entry.problem == nil ? glyphs.dimmed : glyphs.warning)
    }
    if shown.count > visible {
        let text = "(\(first) above, \(shown.count - first - visible) below; PgUp PgDn Home End)"
        screen.put(
            TextFit.fit(text, width: room, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.maxY - 1,
            style: glyphs.dimmed)
    }
}

/// True when `teaches` is `title` again, up to a final full stop and case.
private func repeatsTitle(_ teaches: String, _ title: String) -> Bool {
    func bare(_ text: String) -> String {
        var text = text.withoutOuterSpaces.lowercased()
        while text.last == "." || text.last == "。" { text.removeLast() }
        return text
    }
    return bare(teaches) == bare(title)
}
