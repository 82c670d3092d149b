import LoopEngine

// Render: the cycle panel (documented steps or what CF really does).

func drawCycle(_ model: AppModel, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    let documented = model.cycleView == .documented
    let key = model.keys.word(for: .toggleCycleView)
    header(
        documented ? "Apple's 10 steps (\(key))" : "What CF really does (\(key))", rect, focused: model.focus == .cycle,
        &screen, glyphs)
    var current: Int?
    var trail: [Int] = []
    // Only the steps of the thread the loop panel shows: another thread's step is not where this loop is (a
    // thread that never ran a loop has no step at all). Looked for near the cursor, whatever the trace's length.
    let thread = model.loopThread
    var index = model.cursor - 1
    while index >= max(0, model.cursor - CycleSteps.lookBack) && trail.count < 4 {
        if model.trace[index].loop == thread,
            let step = CycleSteps.step(of: index, in: model.trace, documented: documented)
        {
            if current == nil {
                current = step
            } else if !trail.contains(step) && step != current {
                trail.append(step)
            }
        }
        index -= 1
    }
    let rows = min(10, rect.height - 1)
    for row in 0..<rows {
        let y = rect.y + 1 + row
        let text: String
        var differs: String?
        // Room for the "differs" mark at the right edge in the documented view.
        let room = rect.width - 5 - (documented ? 2 : 0)
        if documented {
            let step = CycleSteps.documented[row]
            // The brief words when the full ones would be cut (an 80-column screen): nothing ends in `…`.
            text = DisplayWidth.columns(step.text) <= room ? step.text : step.brief
            differs = step.differs
        } else {
            text = CycleSteps.implementation[row]
        }
        let marker: String
        var style = Screen.Style.plain
        if row == current {
            marker = glyphs.arrow
            style = glyphs.current
        } else if trail.contains(row) {
            marker = glyphs.trail
            style = glyphs.activity
        } else {
            marker = " "
        }
        let number = row + 1 < 10 ? " \(row + 1)" : "\(row + 1)"
        screen.put("\(marker)\(number) ", x: rect.x, y: y, style: style)
        screen.put(TextFit.fit(text, width: room, ellipsis: glyphs.ellipsis), x: rect.x + 4, y: y, style: style)
        if documented, differs != nil {
            screen.put(glyphs.differs, x: rect.maxX - 2, y: y, style: glyphs.warning)
        }
    }
    let step = current.map { CycleSteps.documented[$0] }
    if documented, let step, let note = step.differs, let brief = step.briefDiffers, rect.height > 11 {
        let full = "\(glyphs.differs) CF: \(note)"
        let line = DisplayWidth.columns(full) <= rect.width - 2 ? full : "\(glyphs.differs) CF: \(brief)"
        screen.put(
            TextFit.fit(line, width: rect.width - 2, ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 11,
            style: glyphs.warning)
    }
}
