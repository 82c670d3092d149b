import LoopEngine

// Render: the loop panel: the thread shown, its state and its mode stack.

/// The loop the loop view shows (``AppModel/loopThread``): nil while that thread has not started yet.
func focusSnapshot(_ model: AppModel, _ snapshots: [LoopSnapshot]) -> LoopSnapshot? {
    let thread = model.loopThread
    return snapshots.first { $0.thread == thread }
}

func drawLoop(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    let pick = model.keys.word(for: .pickThread)
    let how = model.shownThread == nil ? "follows the step, \(pick)" : "pinned, \(pick)"
    header(
        TextFit.fit("Loop of \(model.loopThread) (\(how))", width: rect.width - 4, ellipsis: glyphs.ellipsis), rect,
        focused: model.focus == .loop, &screen, glyphs)
    guard let loop = focusSnapshot(model, snapshots) else {
        let text = "thread \(model.loopThread) has not started yet at this step."
        for (row, line) in TextFit.wrap(text, width: rect.width - 2).prefix(rect.height - 1).enumerated() {
            screen.put(line, x: rect.x + 1, y: rect.y + 1 + row)
        }
        return
    }
    let prefix = "thread \(loop.thread)   mode "
    // A run whose stop flag is set says so by its mode: a stop issued before a nested run waits in the outer run
    // (§10.2), and the nested run's own flag, on the last row, stays clear.
    let modes = loop.runs.map { $0.stopPending ? "\($0.mode) (stop \(glyphs.dot))" : $0.mode }
    let modeText = modeStack(modes, width: rect.width - 2 - DisplayWidth.columns(prefix), glyphs)
    screen.put(prefix + modeText, x: rect.x + 1, y: rect.y + 1, limit: rect.width - 2)
    let stateStyle = loop.isSleeping ? glyphs.sleeping : (loop.lastCallout != nil ? glyphs.callout : .plain)
    screen.put("state  ", x: rect.x + 1, y: rect.y + 2)
    screen.put(
        TextFit.fit(loop.state, width: rect.width - 9, ellipsis: glyphs.ellipsis), x: rect.x + 8, y: rect.y + 2,
        style: stateStyle)
    let iteration = loop.runs.last.map { "iteration \($0.iteration)" } ?? "-"
    screen.put(
        TextFit.fit(
            "\(iteration)   last wake: \(loop.lastWake.isEmpty ? "-" : loop.lastWake)", width: rect.width - 2,
            ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 3)
    let stop = loop.pendingStop ? glyphs.dot : glyphs.emptyDot
    let wake = loop.pendingWakeUp ? glyphs.dot : glyphs.emptyDot
    // The stop shown is the innermost run's, the one a stop ends next (an outer run's is marked by its mode).
    screen.put(
        TextFit.fit(
            "depth \(loop.runs.count)  pending stop \(stop)  pending wake-up \(wake)", width: rect.width - 2,
            ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 4,
        style: loop.pendingStop ? glyphs.warning : .plain)
}

/// The modes of the runs a loop is inside, outermost first, in `width` columns: whole when they fit, else the
/// outermost and innermost with how many runs there are (`default > … > tracking (256 runs)`), else the
/// innermost and the count (`tracking (256 runs)`).
func modeStack(_ modes: [String], width: Int, _ glyphs: Glyphs) -> String {
    guard let first = modes.first, let last = modes.last else { return "no run" }
    let whole = modes.joined(separator: " > ")
    if DisplayWidth.columns(whole) <= width || modes.count < 3 { return whole }
    let ends = "\(first) > \(glyphs.ellipsis) > \(last) (\(modes.count) runs)"
    return DisplayWidth.columns(ends) <= width ? ends : "\(last) (\(modes.count) runs)"
}
