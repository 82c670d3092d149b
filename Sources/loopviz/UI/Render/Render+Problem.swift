import LoopEngine

/// A lesson that does not open: its diagnostics (file:line:column, as `loopviz check` prints them) in place of
/// the panels, and what to do next, until another lesson opens or `R` reads the fixed file.
func drawProblem(_ model: AppModel, _ problem: LessonProblem, _ screen: inout Screen, _ glyphs: Glyphs) {
    screen.fill(Rect(x: 0, y: 0, width: model.width, height: 1), style: glyphs.title)
    let path = TerminalSafeText.terminalSafe(problem.path)
    let file = path.split(separator: "/").last.map(String.init) ?? path
    let place = model.library.current.map { " (lesson \($0 + 1) of \(model.library.entries.count))" } ?? ""
    screen.put(
        TextFit.fit(" loopviz  \(file)\(place) does not open", width: model.width, ellipsis: glyphs.ellipsis), x: 0,
        y: 0, style: glyphs.title)
    let rect = Rect(x: 0, y: 1, width: model.width, height: model.height - 2)
    header("Diagnostics of \(path)", rect, focused: true, &screen, glyphs)
    var rows: [(String, Screen.Style)] = []
    for line in problem.lines.map(TerminalSafeText.terminalSafe) {
        // A line that fits keeps its spaces (the caret under the column); a longer one is wrapped at words.
        let pieces = line.count <= model.width - 4 ? [line] : TextFit.wrap(line, width: model.width - 4)
        for (index, piece) in pieces.enumerated() {
            rows.append(((index == 0 ? "" : "  ") + piece, line.contains(": error:") ? glyphs.warning : .plain))
        }
    }
    var tail: [(String, Screen.Style)] = [("", .plain)]
    let keys = model.keys
    let hint =
        "Fix the file and press \(keys.word(for: .reloadLesson)) to read it again (the step shown before is kept), or "
        + "\(keys.word(for: .previousLesson)) \(keys.word(for: .nextLesson)) \(keys.word(for: .openPicker)) for "
    for piece in TextFit.wrap(hint + "another lesson; \(keys.word(for: .quit)) quits.", width: model.width - 4) {
        tail.append((piece, glyphs.header))
    }
    let room = rect.height - 1
    // The hint stays on screen when the diagnostics are many: they are cut first, and say so.
    var shown = rows
    if rows.count + tail.count > room {
        shown = Array(rows.prefix(max(0, room - tail.count - 1)))
        shown.append(("(\(rows.count - shown.count) more lines: `loopviz check` prints them all)", glyphs.dimmed))
    }
    shown += tail
    for (row, line) in shown.prefix(room).enumerated() {
        screen.put(line.0, x: 2, y: rect.y + 1 + row, style: line.1, limit: model.width - 4)
    }
    let y = model.height - 1
    screen.fill(Rect(x: 0, y: y, width: model.width, height: 1), style: glyphs.title)
    var modeStyle = glyphs.title
    modeStyle.bold = true
    screen.put(" DOES NOT OPEN ", x: 0, y: y, style: modeStyle)
    let status = model.flash ?? "R read again  { } prev/next  L lessons  ? help  q quit"
    screen.put(status.fitted(model.width - 17, ellipsis: glyphs.ellipsis), x: 16, y: y, style: glyphs.title)
}
