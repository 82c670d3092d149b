import LoopEngine

/// Draws the model: pure, the same model always gives the same screen.
func render(_ model: AppModel) -> Screen {
    var cache = RenderCache()
    return render(model, cache: &cache)
}

/// Draws the model, keeping in `cache` what makes the next frame faster to draw (the same screen as without it).
func render(_ model: AppModel, cache: inout RenderCache) -> Screen {
    var screen = Screen(width: model.width, height: model.height)
    let glyphs = Glyphs(theme: model.theme)
    if model.isTooSmall {
        drawTooSmall(model, &screen)
        return screen
    }
    if let problem = model.problem {
        drawProblem(model, problem, &screen, glyphs)
    } else {
        drawPanels(model, &cache, &screen, glyphs)
    }
    switch model.overlay {
    case .help: drawHelp(model, &screen, glyphs)
    case .goTo(let typed): drawGoTo(model, typed, &screen, glyphs)
    case .threads(let row): drawThreads(model, row, &screen, glyphs)
    case .picker(let picker): drawPicker(model, picker, &screen, glyphs)
    case .summary(let summary): drawSummary(model, summary, &screen, glyphs)
    case .card: drawCard(model, &screen, glyphs)
    case .search(let prompt): drawSearchPrompt(model, prompt, &screen, glyphs)
    case .bookmarks(let row): drawBookmarks(model, row, &screen, glyphs)
    case .outcomes(let list): drawOutcomes(model, list, &screen, glyphs)
    case .note(let typed): drawNotePrompt(model, typed, &screen, glyphs)
    case .stats(let overlay): drawStats(model, overlay, &screen, glyphs)
    case .versus(let comparison): drawVersus(model, comparison, &screen, glyphs)
    case .none: break
    }
    if let question = model.classroom.question { drawQuiz(model, question, &screen, glyphs) }
    return screen
}

/// The title, the panels of the view and the status bar.
private func drawPanels(_ model: AppModel, _ cache: inout RenderCache, _ screen: inout Screen, _ glyphs: Glyphs) {
    drawTitle(model, &screen, glyphs)
    switch model.view {
    case .loop where model.classroom.presenter.isOn:
        drawPresenterLoopView(model, &cache, &screen, glyphs)
    case .loop:
        let snapshots = model.session.snapshots(after: model.cursor)
        let explained = model.cursor > 0 ? model.cursor - 1 : nil
        let narration = WhyNarration(model, width: model.width, glyphs)
        let why =
            narration.rest
            + wrap(
                branchWords(model, explaining: explained) + hangWords(model, explaining: explained)
                    + whyText(model, explaining: explained),
                width: model.width - 2)
        let layout = Layout(width: model.width, height: model.height, threads: snapshots.count, whyLines: why.count)
        drawCycle(model, layout.cycle, &screen, glyphs)
        drawLoop(model, snapshots, layout.loop, &screen, glyphs)
        drawMode(model, snapshots, layout.mode, &screen, glyphs)
        drawTimeline(model, snapshots, layout.timeline, &cache.timeline, &screen, glyphs)
        drawLog(model, layout.log, &screen, glyphs)
        drawWhy(model, layout.why, narration: narration, lines: why, &screen, glyphs)
    case .pool:
        let pool = model.pool
        // Presenter mode: a third of the screen for the Why.
        let whyRows = model.classroom.presenter.isOn ? max(4, (model.height - 2) / 3) : 4
        let whyRect = Rect(x: 0, y: model.height - 1 - whyRows, width: model.width, height: whyRows)
        drawPoolView(model, pool, above: whyRect.y, &screen, glyphs)
        // The Why of the pool view is about the pool: the latest pool event when the step is a worker's loop.
        let explained = model.currentEvent.map(model.isShown) == true ? model.cursor - 1 : pool.lastEventIndex
        let narration = WhyNarration(model, width: whyRect.width, glyphs)
        let why = narration.rest + wrap(whyText(model, explaining: explained), width: whyRect.width - 2)
        drawWhy(model, whyRect, narration: narration, lines: why, &screen, glyphs)
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
        "enlarge it, or press \(model.keys.word(for: .quit, in: model.view)) to quit",
    ]
    for (index, line) in lines.enumerated() {
        let y = model.height / 2 - 1 + index
        screen.put(line, x: max(0, (model.width - line.count) / 2), y: y)
    }
}
