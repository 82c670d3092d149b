import LoopEngine

/// Where presenter mode puts the loop view's panels: the panels shown at their usual sizes, top to bottom, as long
/// as the Why pane keeps at least a third of the screen (at least 7 rows); the Why pane takes every row left.
/// A panel that does not fit is left out (``crowdedOut``), as a hidden one is.
struct PresenterLayout: Equatable {
    var cycle: Rect?
    var loop: Rect?
    var mode: Rect?
    var timeline: Rect?
    var log: Rect?
    var why: Rect
    /// Panels shown but with no room left at this size.
    var crowdedOut: [AppModel.Panel] = []

    init(width: Int, height: Int, threads: Int, hidden: [AppModel.Panel]) {
        let rows = height - 2
        let whyMinimum = max(7, rows / 3)
        var y = 1
        func shown(_ panel: AppModel.Panel) -> Bool { !hidden.contains(panel) }
        // The top block: the cycle on the left, the loop over its mode's items on the right (either side alone
        // takes the whole width).
        let right = shown(.loop) || shown(.mode)
        let topHeight = shown(.cycle) || shown(.mode) ? 12 : shown(.loop) ? 5 : 0
        if topHeight > 0 {
            if y - 1 + topHeight + whyMinimum <= rows {
                let left = shown(.cycle) ? (right ? min(40, max(34, width * 2 / 5)) : width) : 0
                if shown(.cycle) { cycle = Rect(x: 0, y: y, width: left, height: topHeight) }
                let loopHeight = shown(.loop) ? (shown(.mode) ? 5 : topHeight) : 0
                if shown(.loop) { loop = Rect(x: left, y: y, width: width - left, height: loopHeight) }
                if shown(.mode) {
                    mode = Rect(x: left, y: y + loopHeight, width: width - left, height: topHeight - loopHeight)
                }
                y += topHeight
            } else {
                crowdedOut += [AppModel.Panel.cycle, .loop, .mode].filter(shown)
            }
        }
        if shown(.timeline) {
            let timelineHeight = 2 + min(threads, 4)
            if y - 1 + timelineHeight + whyMinimum <= rows {
                timeline = Rect(x: 0, y: y, width: width, height: timelineHeight)
                y += timelineHeight
            } else {
                crowdedOut.append(.timeline)
            }
        }
        if shown(.log) {
            let logHeight = rows - (y - 1) - whyMinimum
            if logHeight >= 3 {
                log = Rect(x: 0, y: y, width: width, height: logHeight)
                y += logHeight
            } else {
                crowdedOut.append(.log)
            }
        }
        why = Rect(x: 0, y: y, width: width, height: height - 1 - y)
    }
}

/// The loop view in presenter mode: the panels shown, and a Why pane with the narration in full (wrapped, bold)
/// above the explanation.
func drawPresenterLoopView(_ model: AppModel, _ cache: inout RenderCache, _ screen: inout Screen, _ glyphs: Glyphs) {
    let snapshots = model.session.snapshots(after: model.cursor)
    let layout = PresenterLayout(
        width: model.width, height: model.height, threads: snapshots.count, hidden: model.classroom.presenter.hidden)
    if let rect = layout.cycle { drawCycle(model, rect, &screen, glyphs) }
    if let rect = layout.loop { drawLoop(model, snapshots, rect, &screen, glyphs) }
    if let rect = layout.mode { drawMode(model, snapshots, rect, &screen, glyphs) }
    if let rect = layout.timeline { drawTimeline(model, snapshots, rect, &cache.timeline, &screen, glyphs) }
    if let rect = layout.log { drawLog(model, rect, &screen, glyphs) }
    drawPresenterWhy(model, layout, &screen, glyphs)
}

private func drawPresenterWhy(_ model: AppModel, _ layout: PresenterLayout, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rect = layout.why
    let away = model.classroom.presenter.hidden + layout.crowdedOut
    let title = away.isEmpty ? "Why" : "Why   (not shown: \(away.map(\.rawValue).joined(separator: ", ")); Z shows)"
    header(title, rect, focused: false, &screen, glyphs)
    let width = rect.width - 2
    var rows: [(String, Screen.Style)] = []
    if let narration = currentNarration(model) {
        var style = glyphs.warning
        style.bold = true
        let lines = wrap("\(glyphs.narration) " + narration, width: width)
        rows += lines.map { ($0, style) }
        rows.append(("", .plain))
    }
    let explained = model.cursor > 0 ? model.cursor - 1 : nil
    let why = wrap(
        branchWords(model, explaining: explained) + hangWords(model, explaining: explained)
            + whyText(model, explaining: explained), width: width)
    let room = max(0, rect.height - 1 - rows.count)
    rows += TextFit.clip(why, rows: room, width: width, ellipsis: glyphs.ellipsis).map { ($0, .plain) }
    for (row, line) in rows.prefix(rect.height - 1).enumerated() {
        screen.put(line.0, x: rect.x + 1, y: rect.y + 1 + row, style: line.1)
    }
}

/// What the status bar says of the classroom: presenter mode (the pokes' lock, the last key), the quiz's score,
/// the recording.
func classroomStatus(_ model: AppModel, _ glyphs: Glyphs) -> String {
    var parts: [String] = []
    let presenter = model.classroom.presenter
    if presenter.isOn {
        let key = presenter.lastKey.map { " [\(glyphs.plain($0.echo))]" } ?? ""
        parts.append("PRESENTER\(key) " + (presenter.pokesLocked ? "locked (U)" : "unlocked"))
    }
    if model.classroom.quizMode != .off {
        let score = model.classroom.scores[model.fileName] ?? Classroom.Score()
        parts.append("quiz \(score.right)/\(score.asked)")
    }
    if model.classroom.isRecording { parts.append("REC") }
    return parts.isEmpty ? "" : parts.joined(separator: "  ") + "  "
}
