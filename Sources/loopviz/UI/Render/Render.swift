import LoopEngine

/// Draws the model: pure, the same model always gives the same screen.
func render(_ model: AppModel) -> Screen {
    var screen = Screen(width: model.width, height: model.height)
    let glyphs = Glyphs(theme: model.theme)
    if model.isTooSmall {
        drawTooSmall(model, &screen)
        return screen
    }
    if let problem = model.problem {
        drawProblem(model, problem, &screen, glyphs)
    } else {
        drawPanels(model, &screen, glyphs)
    }
    switch model.overlay {
    case .help: drawHelp(model, &screen, glyphs)
    case .goTo(let typed): drawGoTo(model, typed, &screen, glyphs)
    case .threads(let row): drawThreads(model, row, &screen, glyphs)
    case .picker(let picker): drawPicker(model, picker, &screen, glyphs)
    case .summary(let summary): drawSummary(model, summary, &screen, glyphs)
    case .card: drawCard(model, &screen, glyphs)
    case .none: break
    }
    if let question = model.classroom.question { drawQuiz(model, question, &screen, glyphs) }
    return screen
}

/// The title, the panels of the view and the status bar.
private func drawPanels(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    drawTitle(model, &screen, glyphs)
    switch model.view {
    case .loop where model.classroom.presenter.isOn:
        drawPresenterLoopView(model, &screen, glyphs)
    case .loop:
        let snapshots = model.session.snapshots(after: model.cursor)
        let explained = model.cursor > 0 ? model.cursor - 1 : nil
        let why = wrap(
            hangWords(model, explaining: explained) + whyText(model, explaining: explained), width: model.width - 2)
        let layout = Layout(width: model.width, height: model.height, threads: snapshots.count, whyLines: why.count)
        drawCycle(model, layout.cycle, &screen, glyphs)
        drawLoop(model, snapshots, layout.loop, &screen, glyphs)
        drawMode(model, snapshots, layout.mode, &screen, glyphs)
        drawTimeline(model, snapshots, layout.timeline, &screen, glyphs)
        drawLog(model, layout.log, &screen, glyphs)
        drawWhy(model, layout.why, lines: why, &screen, glyphs)
    case .pool:
        let pool = model.pool
        // Presenter mode: a third of the screen for the Why.
        let whyRows = model.classroom.presenter.isOn ? max(4, (model.height - 2) / 3) : 4
        let whyRect = Rect(x: 0, y: model.height - 1 - whyRows, width: model.width, height: whyRows)
        drawPoolView(model, pool, above: whyRect.y, &screen, glyphs)
        // The Why of the pool view is about the pool: the latest pool event when the step is a worker's loop.
        let explained = model.currentEvent.map(model.isShown) == true ? model.cursor - 1 : pool.lastEventIndex
        let why = wrap(whyText(model, explaining: explained), width: whyRect.width - 2)
        drawWhy(model, whyRect, lines: why, &screen, glyphs)
    }
    drawStatus(model, &screen, glyphs)
}

/// Where each panel goes, for a screen of at least 80×24.
struct Layout {
    var cycle: Rect
    var loop: Rect
    var mode: Rect
    var timeline: Rect
    var log: Rect
    var why: Rect

    /// `whyLines`: how many lines the Why panel's text takes; it gets up to 4 rows when the event log keeps at least
    /// 2 of its own.
    init(width: Int, height: Int, threads: Int, whyLines: Int = 2) {
        let left = min(40, max(34, width * 2 / 5))
        let topHeight = 12
        cycle = Rect(x: 0, y: 1, width: left, height: topHeight)
        loop = Rect(x: left, y: 1, width: width - left, height: 5)
        mode = Rect(x: left, y: 6, width: width - left, height: topHeight - 5)
        let timelineHeight = 2 + min(threads, 4)
        timeline = Rect(x: 0, y: 1 + topHeight, width: width, height: timelineHeight)
        let logTop = timeline.maxY
        let whyRows = max(2, min(whyLines, 4, height - 1 - logTop - 3))
        why = Rect(x: 0, y: height - 2 - whyRows, width: width, height: whyRows + 1)
        log = Rect(x: 0, y: logTop, width: width, height: max(2, why.y - logTop))
    }
}

// MARK: - Frame

func header(
    _ title: String, _ rect: Rect, focused: Bool, _ screen: inout Screen, _ glyphs: Glyphs
) {
    let line = String(repeating: glyphs.horizontal, count: max(0, rect.width))
    screen.put(line, x: rect.x, y: rect.y, style: glyphs.dimmed)
    // A title wider than the panel ends at a word, with an ellipsis, never cut mid-word by the panel's edge.
    screen.put(
        " \(TextFit.fit(title, width: rect.width - 4, ellipsis: glyphs.ellipsis)) ", x: rect.x + 1, y: rect.y,
        style: focused ? glyphs.focusedHeader : glyphs.header)
}

private func drawTooSmall(_ model: AppModel, _ screen: inout Screen) {
    let lines = [
        "loopviz needs at least \(AppModel.minimumWidth)\(Glyphs(theme: model.theme).times)\(AppModel.minimumHeight)",
        "this terminal is \(model.width)\(Glyphs(theme: model.theme).times)\(model.height)",
        "enlarge it, or press q to quit",
    ]
    for (index, line) in lines.enumerated() {
        let y = model.height / 2 - 1 + index
        screen.put(line, x: max(0, (model.width - line.count) / 2), y: y)
    }
}

private func drawTitle(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    screen.fill(Rect(x: 0, y: 0, width: model.width, height: 1), style: glyphs.title)
    let clock = model.session.isLive ? "real clock  " : ""
    let right =
        " \(clock)t=\(model.now)s  step \(model.cursor)/\(model.trace.count)\(model.session.canExtend ? "+" : "") "
    let file = model.fileName.split(separator: "/").last.map(String.init) ?? model.fileName
    // Whole when it fits; else without the file name; else the scenario's name cut with an ellipsis: never a
    // name cut mid-word against the clock.
    let room = model.width - right.count - 1
    let name = model.session.script.scenario.name
    var title = " loopviz  \(name)  (\(file))"
    if DisplayWidth.columns(title) > room { title = " loopviz  \(name)" }
    title = TextFit.fit(title, width: room, ellipsis: glyphs.ellipsis)
    screen.put(title, x: 0, y: 0, style: glyphs.title, limit: room)
    screen.put(right, x: model.width - right.count, y: 0, style: glyphs.title)
}

private func drawStatus(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    let y = model.height - 1
    screen.fill(Rect(x: 0, y: y, width: model.width, height: 1), style: glyphs.title)
    let mode = model.playback.rawValue
    var modeStyle = glyphs.title
    modeStyle.bold = true
    screen.put(" \(mode) ", x: 0, y: y, style: modeStyle)
    var text = model.session.isLive ? " real threads  " : " \(model.speedLabel)  t=\(model.now)s  "
    if model.session.isReplay { text = " replay, read-only (no pokes)  \(model.speedLabel)  t=\(model.now)s  " }
    if model.session.droppedEvents > 0 { text += "\(model.session.droppedEvents) events dropped  " }
    if model.session.forgottenEvents > 0 { text += "\(model.session.forgottenEvents) oldest events forgotten  " }
    if model.session.reachedEventBudget { text += "stopped at the event budget (\(model.session.maxEvents) events)  " }
    if model.session.isLive && model.session.liveEnded { text += "every thread has ended  " }
    if let limit = LimitReport.summary(model.session.haltReason),
        let short = LimitReport.shortSummary(model.session.haltReason)
    {
        // The whole sentence where it fits with the key hints' first words; the short form otherwise.
        let room = model.width - mode.count - 2 - DisplayWidth.columns(text) - 20
        text += "stopped: \(limit.count + 11 <= room ? limit : short)  "
    }
    if model.cursor >= model.trace.count, let stuck = LimitReport.stuckShortSummary(model.session.stuckWaits) {
        text += "at the end: \(stuck)  "
    }
    // Presenter mode: what a key did comes before the speed and the clock, which the audience can read above.
    text = classroomStatus(model, glyphs) + (model.flash != nil && model.classroom.presenter.isOn ? "" : text)
    let room = model.width - mode.count - 2
    if let flash = model.flash {
        text = TextFit.fit(text + flash, width: room, ellipsis: glyphs.ellipsis)
    } else {
        // Whole hints only, as many as fit after what the bar has to say.
        let hints =
            model.view == .pool
            ? [
                "? help", "q quit", "Space play/pause", "n/p step", "P loop view", "a add", "c cancel", "C cancel all",
                "s suspend", "< > limit",
            ]
            : [
                "? help", "q quit", "Space play/pause", "n/p step", "s signal", "o port", "f fire", "w wake", "x stop",
                "t thread", "m scroll",
            ]
        // With a library, its keys come right after help and quit.
        let lessons = model.library.isEmpty ? [] : ["L lessons", "{ } prev/next"]
        let shown = Array(hints.prefix(2)) + lessons + hints.dropFirst(2)
        text = TextFit.fit(text, width: room, ellipsis: glyphs.ellipsis)
        text += TextFit.join(shown, width: room - DisplayWidth.columns(text))
    }
    screen.put(text, x: mode.count + 2, y: y, style: glyphs.title, limit: room)
}

// MARK: - Panels

func drawCycle(_ model: AppModel, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    let documented = model.cycleView == .documented
    header(
        documented ? "Apple's 10 steps (v)" : "What CF really does (v)", rect, focused: model.focus == .cycle, &screen,
        glyphs)
    var current: Int?
    var trail: [Int] = []
    var index = model.cursor - 1
    while index >= 0 && trail.count < 4 {
        if let step = CycleSteps.step(of: index, in: model.trace, documented: documented) {
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
        if documented {
            text = CycleSteps.documented[row].text
            differs = CycleSteps.documented[row].differs
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
        // Room for the "differs" mark at the right edge in the documented view.
        let room = rect.width - 5 - (documented ? 2 : 0)
        screen.put(TextFit.fit(text, width: room, ellipsis: glyphs.ellipsis), x: rect.x + 4, y: y, style: style)
        if documented, differs != nil {
            screen.put(glyphs.differs, x: rect.maxX - 2, y: y, style: glyphs.warning)
        }
    }
    if documented, let current, let note = CycleSteps.documented[current].differs, rect.height > 11 {
        screen.put(
            TextFit.fit("\(glyphs.differs) CF: \(note)", width: rect.width - 2, ellipsis: glyphs.ellipsis),
            x: rect.x + 1, y: rect.y + 11, style: glyphs.warning)
    }
}

/// The loop the loop view shows (``AppModel/loopThread``): nil while that thread has not started yet.
private func focusSnapshot(_ model: AppModel, _ snapshots: [LoopSnapshot]) -> LoopSnapshot? {
    let thread = model.loopThread
    return snapshots.first { $0.thread == thread }
}

func drawLoop(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    let how = model.shownThread == nil ? "follows the step, t" : "pinned, t"
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
    let modeText = modeStack(loop.runs.map(\.mode), width: rect.width - 2 - DisplayWidth.columns(prefix), glyphs)
    screen.put(prefix + modeText, x: rect.x + 1, y: rect.y + 1, limit: rect.width - 2)
    let stateStyle = loop.isSleeping ? glyphs.sleeping : (loop.lastCallout != nil ? glyphs.callout : .plain)
    screen.put("state  ", x: rect.x + 1, y: rect.y + 2)
    screen.put(
        TextFit.fit(loop.state, width: rect.width - 9, ellipsis: glyphs.ellipsis), x: rect.x + 8, y: rect.y + 2,
        style: stateStyle)
    let iteration = loop.runs.last.map { "iteration \($0.iteration)" } ?? "-"
    screen.put(
        "\(iteration)   last wake: \(loop.lastWake.isEmpty ? "-" : loop.lastWake)", x: rect.x + 1, y: rect.y + 3,
        limit: rect.width - 2)
    let stop = loop.pendingStop ? glyphs.dot : glyphs.emptyDot
    let wake = loop.pendingWakeUp ? glyphs.dot : glyphs.emptyDot
    screen.put(
        "depth \(loop.runs.count)  pending stop \(stop)  pending wake-up \(wake)", x: rect.x + 1, y: rect.y + 4,
        style: loop.pendingStop ? glyphs.warning : .plain, limit: rect.width - 2)
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

func drawMode(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    let loop = focusSnapshot(model, snapshots)
    let title = loop?.currentMode.map { "Mode \($0): items (e or 1-9 select)" } ?? "Items (no run: e or 1-9 select)"
    header(
        TextFit.fit(title, width: rect.width - 4, ellipsis: glyphs.ellipsis), rect, focused: model.focus == .mode,
        &screen, glyphs)
    let mode = loop?.currentMode ?? "(no run)"
    guard let spec = model.loopThreadSpec else {
        // A pool's worker or a detached thread: the file declares no items for it.
        let name = model.loopThread
        let text =
            "thread \(name) was started by the run (a pool's worker or a detached thread): the file declares no "
            + "items for it; its schedules and callouts are in the event log."
        for (row, line) in wrap(text, width: rect.width - 2).prefix(rect.height - 1).enumerated() {
            screen.put(line, x: rect.x + 1, y: rect.y + 1 + row)
        }
        return
    }
    let common = Set(spec.commonModes.map(\.rawValue) + ["default"])
    let rows = rect.height - 1
    // More items than rows: a window that keeps the selected item in view, and a last row saying what is hidden.
    let capacity = spec.items.count > rows ? rows - 1 : rows
    let start = model.selectedItem >= capacity ? min(model.selectedItem - capacity + 1, spec.items.count - capacity) : 0
    // Numbers as wide as the largest (` 9`, `10`): a tenth item keeps its column.
    let digits = String(spec.items.count).count
    for (offset, item) in spec.items.dropFirst(start).prefix(capacity).enumerated() {
        let index = start + offset
        let y = rect.y + 1 + offset
        let inMode = item.modes.contains { $0.rawValue == mode || ($0 == .common && common.contains(mode)) }
        var style: Screen.Style = inMode ? .plain : glyphs.dimmed
        let selected = index == model.selectedItem
        if selected { style.bold = true }
        let marker = selected ? glyphs.arrow : " "
        screen.put("\(marker)" + String(index + 1).leftPadded(digits) + " ", x: rect.x, y: y, style: style)
        let text = (inMode ? "" : modeLabel(item)) + describe(item, loop, now: model.now, glyphs: glyphs)
        screen.put(
            TextFit.fit(text, width: rect.width - 3 - digits, ellipsis: glyphs.ellipsis), x: rect.x + 2 + digits, y: y,
            style: style)
    }
    if spec.items.count > rows {
        let below = spec.items.count - start - capacity
        let text = "   (\(start) above, \(below) below: i, I or 1-9 select)"
        screen.put(
            TextFit.fit(text, width: rect.width - 1, ellipsis: glyphs.ellipsis), x: rect.x, y: rect.y + rows,
            style: glyphs.dimmed)
    }
    if let queued = loop?.blocksQueued, !queued.isEmpty, rect.height - 1 > spec.items.count {
        let y = rect.y + 1 + spec.items.count
        let names = queued.prefix(6).joined(separator: ", ") + (queued.count > 6 ? glyphs.ellipsis : "")
        screen.put("   blocks queued: \(names)", x: rect.x, y: y, style: glyphs.warning, limit: rect.width - 1)
    }
}

private func describe(_ item: ItemSpec, _ loop: LoopSnapshot?, now: LoopInstant, glyphs: Glyphs) -> String {
    let name = item.name
    switch item.kind {
    case .source0(let order):
        let signalled = loop?.signalled.contains(name) == true
        return "source0 \(name) order \(order)  \(signalled ? "\(glyphs.dot) signalled" : "not signalled")"
    case .port:
        let pending = loop?.pendingMessages[name] ?? 0
        return "port \(name)  " + (pending > 0 ? "\(glyphs.dot) \(pending) pending" : "no message")
    case .timer(let first, let interval, _):
        let fires = loop?.timerFireCounts[name] ?? 0
        let next = nextFire(first: first, interval: interval, last: loop?.lastTimerFire[name])
        let every = interval > .zero ? "/\(LoopInstant.zero + interval)s" : " once"
        var text = "timer \(name)\(every) \(glyphs.times)\(fires)"
        if let late = loop?.lateFires[name], late > 0 { text += " late \(glyphs.times)\(late)" }
        if let next, next >= now {
            let span = interval > .zero ? interval : (next - .zero)
            text += " " + bar(remaining: next - now, of: span, glyphs: glyphs) + " \(next)"
        } else if interval == .zero && fires > 0 {
            text += "  (spent)"
        }
        return text
    case .observer(let activities, let repeats, let order):
        let calls = loop?.observerCalls[name] ?? 0
        let spent = loop?.spentObservers.contains(name) == true
        return "observer \(name) \(activities) order \(order)\(repeats ? "" : " once") \(glyphs.times)\(calls)"
            + (spent ? "  (spent)" : "")
    }
}

/// The next deadline on the timer's own grid after its last fire (approximate when a callout moved it).
private func nextFire(first: Duration, interval: Duration, last: LoopInstant?) -> LoopInstant? {
    let start = LoopInstant.zero + first
    guard let last else { return start }
    guard interval > .zero else { return nil }
    let step = interval.nanosecondsClamped
    let behind = max(0, last.nanoseconds - start.nanoseconds)
    return LoopInstant(nanoseconds: start.nanoseconds + (behind / step + 1) * step)
}

private func bar(remaining: Duration, of total: Duration, glyphs: Glyphs) -> String {
    let width = 6
    let totalNanos = max(1, total.nanosecondsClamped)
    let done =
        width - Int((Double(max(0, remaining.nanosecondsClamped)) / Double(totalNanos) * Double(width)).rounded())
    let filled = min(width, max(0, done))
    return "[" + String(repeating: glyphs.full, count: filled) + String(repeating: glyphs.empty, count: width - filled)
        + "]"
}

func drawTimeline(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    // The hang glyph is in the legend when the trace has a hang to mark.
    let hang = model.session.hangs.isEmpty ? "" : "  \(glyphs.hang) hang"
    let legend =
        "Timeline (\(glyphs.awake) awake  \(glyphs.asleep) asleep\(hang)  t timer  s source0  p port  b block  o observer  w wake-up)"
    header(legend, rect, focused: model.focus == .timeline, &screen, glyphs)
    let labelWidth = 10
    let columns = max(10, rect.width - labelWidth - 1)
    let end = model.now
    let spanNanos = max(Int64(2_000_000_000), end.nanoseconds)
    let window = min(spanNanos, Int64(columns) * 50_000_000)
    let bucket = max(1, window / Int64(columns))
    // The window starts on a whole column, so it moves a column at a time and a frame can reuse the last one's rows.
    let start = max(0, (end.nanoseconds - window) / bucket * bucket)
    // One pass over the events inside the window, for every row at once; each row starts from its loop's state
    // where the window begins (asleep, running), read from the checkpointed fold. The rows are kept for the next
    // frame, which folds only the events since: a frame at event 1,000,000 looks at a few events.
    // The first threads, and always the one the loop view shows (in the last lane when it is not among them).
    var loops = Array(snapshots.prefix(rect.height - 2))
    if !loops.isEmpty, !loops.contains(where: { $0.thread == model.loopThread }),
        let shown = snapshots.first(where: { $0.thread == model.loopThread })
    {
        loops[loops.count - 1] = shown
    }
    let timeline = model.session.timelineRows
    let key = TimelineRows.Key(start: start, bucket: bucket, columns: columns, threads: loops.map(\.thread))
    if timeline.key != key || timeline.processed > model.cursor {
        let first = min(model.trace.firstIndex(atOrAfter: LoopInstant(nanoseconds: start)), model.cursor)
        let before = model.session.snapshots(after: first)
        timeline.key = key
        timeline.processed = first
        timeline.rows = loops.map { loop in
            let state = before.first { $0.thread == loop.thread }
            var asleep = state?.isSleeping ?? false
            if model.session.fillsFromActivities {
                asleep = TimelineRows.Row.asleep(before: first, on: loop.thread, in: model.trace) ?? asleep
            }
            return TimelineRows.Row(
                cells: [Character](repeating: " ", count: columns), asleep: asleep, runs: state?.runs.count ?? 0)
        }
    }
    let rowOf = Dictionary(loops.enumerated().map { ($1.thread, $0) }, uniquingKeysWith: { first, _ in first })
    for index in timeline.processed..<model.cursor {
        let event = model.trace[index]
        guard let row = rowOf[event.loop] else { continue }
        var state = timeline.rows[row]
        let column = Int((event.time.nanoseconds - start) / bucket)
        if column >= 0 && column < columns {
            if state.runs > 0 && max(0, state.lastColumn + 1) < column {
                for fill in max(0, state.lastColumn + 1)..<column where state.cells[fill] == " " {
                    state.cells[fill] = state.asleep ? glyphs.asleep : glyphs.awake
                }
            }
            if let mark = mark(for: event) {
                let current = state.cells[column]
                if current == " " || current == glyphs.awake || current == glyphs.asleep
                    || priority(mark) > priority(current)
                {
                    state.cells[column] = mark
                }
            } else if state.cells[column] == " " {
                state.cells[column] = state.asleep ? glyphs.asleep : glyphs.awake
            }
            state.lastColumn = max(state.lastColumn, column)
        }
        if event.kind == .runStart { state.runs += 1 }
        if event.kind == .result { state.runs = max(0, state.runs - 1) }
        if event.kind == .sleep { state.asleep = event.wait?.isPoll != true }
        if event.kind == .wake { state.asleep = false }
        if model.session.fillsFromActivities { state.follow(activity: event) }
        timeline.rows[row] = state
    }
    timeline.processed = model.cursor
    let rows = timeline.rows
    for (row, loop) in loops.enumerated() {
        let y = rect.y + 1 + row
        screen.put(String(loop.thread.prefix(labelWidth - 1)), x: rect.x, y: y, style: glyphs.header)
        var cells = rows[row].cells
        let asleep = rows[row].asleep
        let lastColumn = rows[row].lastColumn
        if rows[row].runs > 0 {
            let nowColumn = min(columns - 1, Int((end.nanoseconds - start) / bucket))
            if nowColumn > lastColumn {
                for fill in max(0, lastColumn + 1)...nowColumn { cells[fill] = asleep ? glyphs.asleep : glyphs.awake }
            }
        }
        let inHang = hangColumns(model, loop.thread, start: start, bucket: bucket, columns: columns)
        for (column, character) in cells.enumerated() {
            var character = character
            let style: Screen.Style
            if inHang.contains(where: { $0.contains(column) }) {
                if character == glyphs.awake || character == glyphs.asleep || character == " " {
                    character = glyphs.hang
                }
                style = glyphs.warning
            } else if character == glyphs.asleep {
                style = glyphs.sleeping
            } else if character == glyphs.awake || character == " " {
                style = .plain
            } else {
                style = glyphs.callout
            }
            screen[rect.x + labelWidth + column, y] = Screen.Cell(character: character, style: style)
        }
    }
    let axisY = rect.maxY - 1
    let left = "\(LoopInstant(nanoseconds: start))s"
    let right = "\(end)s"
    screen.put(left, x: rect.x + labelWidth, y: axisY, style: glyphs.dimmed)
    screen.put(right, x: rect.x + labelWidth + columns - right.count, y: axisY, style: glyphs.dimmed)
}

private func mark(for event: LoopEvent) -> Character? {
    switch event.kind {
    case .timer: "t"
    case .source0: "s"
    case .source1: "p"
    case .block: "b"
    case .observer: "o"
    case .mainQueue: "q"
    case .perform: "P"
    case .result: "|"
    case .wake: event.wakeCause == .wakeUpPort ? "w" : nil
    default: nil
    }
}

private func priority(_ character: Character) -> Int {
    switch character {
    case "t", "s", "p", "P", "q": 3
    case "b", "w": 2
    case "|": 2
    case "o": 1
    default: 0
    }
}

/// Two columns per nested run, up to ``maximumLogIndent`` levels; deeper events say their depth instead, so the
/// event's name stays on screen (`            [256] source0 s`).
func logIndent(depth: Int) -> String {
    let levels = max(0, depth - 1)
    guard levels > maximumLogIndent else { return String(repeating: " ", count: levels * 2) }
    return String(repeating: " ", count: maximumLogIndent * 2 - 6) + "[\(depth)]".padded(6)
}

/// The widths of an event list's time, thread and mode columns: as wide as the rows shown need (a time with the
/// iteration cost's extra digits, a long worker name), at least the usual widths, at most 16 for a name, so the
/// columns of the rows on screen line up.
struct LogColumns {
    var time = 7
    var thread = 8
    var mode = 9

    init<Events: Collection>(_ events: Events, minimumTime: Int = 7) where Events.Element == LoopEvent {
        time = minimumTime
        for event in events {
            time = max(time, event.time.description.count)
            thread = max(thread, min(16, DisplayWidth.columns(event.loop)))
            mode = max(mode, min(16, DisplayWidth.columns(event.mode ?? "-")))
        }
    }
}

/// The deepest indent of the event log, in nested runs.
let maximumLogIndent = 8

func drawLog(_ model: AppModel, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    header("Event log (\(glyphs.upDown) scroll, g go to)", rect, focused: model.focus == .log, &screen, glyphs)
    let rows = rect.height - 1
    guard rows > 0 else { return }
    let last = max(0, model.cursor - model.logScroll)
    let first = max(0, last - rows)
    let widths = LogColumns(model.trace[first..<last])
    for (row, index) in (first..<last).enumerated() {
        let event = model.trace[index]
        let y = rect.y + 1 + row
        let indent = logIndent(depth: event.depth)
        var text = String(index + 1).leftPadded(6) + "  " + event.time.description.leftPadded(widths.time) + "  "
        text += event.loop.padded(widths.thread) + " " + (event.mode ?? "-").padded(widths.mode) + " " + indent
        text += event.kind.rawValue
        if let name = event.name { text += " " + name }
        if let detail = event.detail { text += "  (" + detail + ")" }
        var style: Screen.Style = .plain
        if index == model.cursor - 1 {
            style = glyphs.current
        } else if event.kind.isCallout {
            style = glyphs.callout
        } else if event.kind == .result {
            style = glyphs.result
        } else if event.kind == .sleep || event.kind == .wake {
            style = glyphs.sleeping
        } else if event.kind.isActivity {
            style = glyphs.activity
        }
        screen.put(TextFit.fit(text, width: rect.width, ellipsis: glyphs.ellipsis), x: rect.x, y: y, style: style)
    }
}

/// The Why panel: the lesson's narration in its header, and `lines` (``whyText(_:explaining:)`` wrapped to the
/// panel, worked out once by the caller, which also sized the panel by them).
func drawWhy(
    _ model: AppModel, _ rect: Rect, lines: [String], _ screen: inout Screen, _ glyphs: Glyphs
) {
    if let narration = currentNarration(model) {
        let title = TextFit.fit("\(glyphs.narration) " + narration, width: rect.width - 4, ellipsis: glyphs.ellipsis)
        header(title, rect, focused: false, &screen, glyphs)
        var style = glyphs.warning
        style.bold = true
        screen.put(" \(title) ", x: rect.x + 1, y: rect.y, style: style)
    } else {
        header("Why", rect, focused: false, &screen, glyphs)
    }
    // A text longer than the panel says so on its last row (at a word) instead of stopping mid-sentence.
    let shown = TextFit.clip(lines, rows: rect.height - 1, width: rect.width - 2, ellipsis: glyphs.ellipsis)
    for (row, line) in shown.enumerated() {
        screen.put(line, x: rect.x + 1, y: rect.y + 1 + row)
    }
}

/// What the Why panel says about event `index` (or, before any event, how to start).
func whyText(_ model: AppModel, explaining index: Int?) -> String {
    if let index {
        // A lesson's note is the one Why in the lesson's words, so it speaks the lesson's language.
        if case .note(let note) = model.trace[index].fact {
            return model.session.script.note(note.words, in: model.language)
        }
        return Explanation.text(for: index, in: model.trace)
    }
    if model.view == .pool {
        return "Nothing has happened in the pool yet: press Space to play, n to step from one pool event to the "
            + "next, ? for every key."
    }
    return "Nothing has happened yet: press Space to play, n to step, ? for every key."
}

/// Splits `text` into lines of at most `width` characters at spaces (``TextFit/wrap(_:width:)``).
func wrap(_ text: String, width: Int) -> [String] {
    TextFit.wrap(text, width: width)
}

/// The lesson's narration for the events on screen, in the model's language (English where a line has no
/// translation): a callout's `say` when that is the current event, else the `say` line tied to the latest event
/// shown (never one whose event is still to come).
func currentNarration(_ model: AppModel) -> String? {
    if let event = model.currentEvent, case .note(let note) = event.fact {
        return model.session.script.note(note.words, in: model.language)
    }
    return model.session.narration(shownUpTo: model.cursor, in: model.language)
}

/// The help overlay's lines: a title, then each group's keys.
func helpLines(_ view: AppModel.View, _ glyphs: Glyphs) -> [(String, Screen.Style)] {
    let groups =
        view == .pool ? ["play", "pool", "lesson", "view", "class"] : ["play", "poke", "lesson", "view", "class"]
    var lines: [(String, Screen.Style)] = [("Keys (Esc or ? closes)", glyphs.header)]
    for group in groups {
        lines.append(("", .plain))
        lines.append((group, glyphs.header))
        for binding in KeyMap.bindings(in: view) where binding.group == group {
            lines.append(("  " + glyphs.plain(binding.label).padded(8) + binding.help, .plain))
        }
    }
    return lines
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

private func drawHelp(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    let layout = HelpLayout(helpLines(model.view, glyphs), width: model.width, height: model.height)
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
    let below = layout.lineCount - first - shown.count
    let where_ =
        below > 0
        ? "\(below) more below: \(glyphs.plain("↓")) or j" + (first > 0 ? ", \(glyphs.plain("↑")) or k back" : "")
        : "the end; \(glyphs.plain("↑")) or k back"
    screen.put(
        TextFit.fit("(\(where_))", width: inner.width - 1, ellipsis: glyphs.ellipsis), x: inner.x,
        y: inner.y + visibleRows, style: glyphs.header)
}

private func drawGoTo(_ model: AppModel, _ typed: String, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rect = Rect(x: (model.width - 40) / 2, y: model.height / 2 - 2, width: 40, height: 3)
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let more = model.session.canExtend ? "+" : ""
    screen.put(
        "go to event (1-\(model.trace.count)\(more)): \(typed)_", x: rect.x + 2, y: rect.y + 1, limit: rect.width - 4)
}

/// The rows of the thread picker: following the current event (nil), then every thread with a loop.
func threadPickerRows(_ model: AppModel) -> [(thread: String?, text: String)] {
    [(nil, "follow the current event's thread")]
        + model.threadNames.map { name in
            let declared = model.session.declaredThread(named: name) != nil
            return (name, "thread " + name + (declared ? "" : "  (started by the run)"))
        }
}

/// `t`: a box listing every thread, the highlighted row marked; a window of it when the threads are many.
private func drawThreads(_ model: AppModel, _ row: Int, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rows = threadPickerRows(model)
    let width = min(model.width - 4, 60)
    let visible = max(1, min(rows.count, model.height - 8))
    let rect = Rect(
        x: (model.width - width) / 2, y: max(1, (model.height - visible - 4) / 2), width: width, height: visible + 4)
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let title = "Show the loop of (\(glyphs.plain("↑↓")) or j/k, Enter, Esc)"
    screen.put(
        TextFit.fit(title, width: inner.width - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1, y: inner.y,
        style: glyphs.header)
    let first = min(max(0, row - visible + 1), max(0, rows.count - visible))
    for (offset, entry) in rows.dropFirst(first).prefix(visible).enumerated() {
        let index = first + offset
        let marker = index == row ? glyphs.arrow : " "
        let style = index == row ? glyphs.current : Screen.Style.plain
        let shown = entry.thread == model.shownThread ? "  (now)" : ""
        screen.put(
            TextFit.fit("\(marker) \(entry.text)\(shown)", width: inner.width - 2, ellipsis: glyphs.ellipsis),
            x: inner.x + 1, y: inner.y + 1 + offset, style: style)
    }
    if rows.count > visible {
        let text = "(\(first) above, \(rows.count - first - visible) below)"
        screen.put(text, x: inner.x + 1, y: inner.y + 1 + visible, style: glyphs.dimmed, limit: inner.width - 2)
    }
}

func box(_ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    let unicode = glyphs.theme.unicode
    let (h, v) = unicode ? ("─", "│") : ("-", "|")
    let corners = unicode ? ["┌", "┐", "└", "┘"] : ["+", "+", "+", "+"]
    for x in rect.x..<rect.maxX {
        screen.put(h, x: x, y: rect.y)
        screen.put(h, x: x, y: rect.maxY - 1)
    }
    for y in rect.y..<rect.maxY {
        screen.put(v, x: rect.x, y: y)
        screen.put(v, x: rect.maxX - 1, y: y)
    }
    screen.put(corners[0], x: rect.x, y: rect.y)
    screen.put(corners[1], x: rect.maxX - 1, y: rect.y)
    screen.put(corners[2], x: rect.x, y: rect.maxY - 1)
    screen.put(corners[3], x: rect.maxX - 1, y: rect.maxY - 1)
}

extension String {
    /// Spaces after the text up to `width` columns (display width: a CJK name takes two per character).
    func padded(_ width: Int) -> String {
        DisplayWidth.padded(self, to: width)
    }

    func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - DisplayWidth.columns(self))) + self
    }
}
