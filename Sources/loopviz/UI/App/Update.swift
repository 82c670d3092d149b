import LoopEngine

/// The UI's only state transition: pure, no I/O, testable without a terminal. Running the engine is an effect
/// (``Effect/runEngine(_:)``) answered by ``AppMessage/engineRan(_:)``; until the answer comes the keys wait in
/// ``AppModel/queued``, in order.
func update(_ model: inout AppModel, _ message: AppMessage) -> [Effect] {
    // The filter's index follows the trace: the new events only when it grew (a few per frame while playing).
    defer { model.syncFilterIndex() }
    if case .engineRan(let result) = message { return engineRan(result, &model) }
    if case .replayWindowRead(let window) = message { return windowRead(window, &model) }
    if model.isComputing {
        switch message {
        case .key, .lessonOpened, .showKeptStep, .again, .comparisonRan:
            model.queued.append(message)
            return []
        case .tick:
            // Playback waits for the trace it plays.
            return []
        case .resize, .resumed, .live, .followed, .engineRan, .bookmarksSaved, .replayWindowRead:
            break
        }
    }
    // A handler that runs past the events computed is undone, and handled again on the longer trace.
    let before = model
    let handled = if case .again(let inner) = message { inner } else { message }
    model.isHandlingAgain = handled != message
    defer { model.isHandlingAgain = false }
    do {
        return try handleNow(handled, &model)
    } catch {
        model = before
        if let showing = error.showing {
            guard let request = model.session.requestWindow(showing: showing) else { return [] }
            model.queued.append(.again(handled))
            return [.readReplayWindow(request)]
        }
        guard let run = model.session.extend() else { return [] }
        model.queued.append(.again(handled))
        return [.runEngine(run)]
    }
}

/// The engine's answer: the new trace replaces the old one, and the messages that waited for it are handled.
private func engineRan(_ result: EngineResult, _ model: inout AppModel) -> [Effect] {
    guard model.session.adopt(result) else { return [] }
    model.cursor = min(model.cursor, model.trace.count)
    model.furthest = min(model.furthest, model.trace.count)
    let waiting = model.queued
    model.queued = []
    // Each is queued again behind a run it asks for.
    return waiting.flatMap { update(&model, $0) }
}

/// A window of a long file read: it replaces the one shown, the step shown stays the same event of the file, and
/// the messages that waited for it are handled.
private func windowRead(_ window: TraceWindow, _ model: inout AppModel) -> [Effect] {
    let before = model.session.forgottenEvents
    let (cursor, furthest) = (before + model.cursor, before + model.furthest)
    let known = model.session.replayProblem
    guard model.session.adoptWindow(window) else { return [] }
    let base = model.session.forgottenEvents
    model.cursor = min(max(0, cursor - base), model.trace.count)
    model.furthest = min(max(model.cursor, furthest - base), model.trace.count)
    model.logScroll = 0
    if let problem = model.session.replayProblem, known == nil {
        // Where, first: at 80 columns the detail may not fit.
        let essential =
            if case .invalid(let failure) = problem {
                "line \(failure.line) of the file is not an event: the replay ends before it"
            } else { "the file could not be read further: the replay ends there" }
        model.flash = StatusMessage(essential, detail: TraceIndex.describe(problem, path: model.fileName))
    }
    let waiting = model.queued
    model.queued = []
    return waiting.flatMap { update(&model, $0) }
}

/// `update` on the trace as computed.
private func handleNow(_ message: AppMessage, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    // The classroom's rules apply after the message (Classroom/): a narration played to, a quiz point reached.
    let questionWasOpen = model.classroom.question != nil
    let before = (cursor: model.cursor, furthest: model.furthest, playing: !model.isPaused)
    var effects = try apply(message, &model)
    // A lesson read again returns to the step it showed: it passes no quiz point.
    let returns = if case .showKeptStep = message { true } else { false }
    if !questionWasOpen && !returns {
        settlePlayUntil(&model, furthestBefore: before.furthest)
        try settleQuiz(&model, cursorBefore: before.cursor, wasPlaying: before.playing)
    }
    // `--clock real`: the real threads start once the lesson's card is out of the way (never behind it).
    if model.session.isLive && !model.session.isReplay && !model.liveStarted && model.overlay != .card
        && !model.quitRequested
    {
        model.liveStarted = true
        effects.append(.startLive)
    }
    return effects
}

private func apply(_ message: AppMessage, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    switch message {
    case .resize(let width, let height):
        model.width = width
        model.height = height
        return []
    case .resumed:
        return [.redrawAll]
    case .tick(let seconds):
        let before = model.cursor
        // The lesson waits while its card is read.
        if model.overlay != .card { try advancePlayback(&model, by: seconds) }
        showSummary(&model, arrivingFrom: before)
        return []
    case .live(let events, let dropped, let ended, let halt):
        let following = !model.isPaused && model.cursor >= model.trace.count
        let forgotten = model.session.appendLive(events, dropped: dropped, ended: ended, halt: halt)
        if forgotten > 0 && model.cursor <= forgotten && !following {
            model.flash = "the step shown was among the \(forgotten) oldest events, now forgotten"
        }
        model.cursor = max(0, model.cursor - forgotten)
        model.furthest = max(0, model.furthest - forgotten)
        if following { try move(&model, to: model.trace.count) }
        return []
    case .followed(let batch):
        try takeFollowed(batch, &model)
        return []
    case .key(let key):
        let before = model.cursor
        let effects = try handle(key, &model)
        showSummary(&model, arrivingFrom: before)
        return effects
    case .lessonOpened(let opening):
        return openLesson(opening, &model)
    case .showKeptStep(let step, let pokes):
        try showKeptStep(step, pokesLeftOut: pokes, &model)
        return []
    case .engineRan, .again, .replayWindowRead:
        return []
    case .comparisonRan(let comparison):
        comparisonRan(comparison, &model)
        return []
    case .bookmarksSaved(let path, let problem):
        if let problem {
            model.flash = StatusMessage("bookmarks not saved: \(path)", detail: problem)
        }
        return []
    }
}

private func handle(_ key: Key, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    if model.classroom.presenter.isOn { model.classroom.presenter.lastKey = key }
    // A quiz question, then an open overlay, take the keys first.
    if model.classroom.question != nil { return try handleQuizKey(key, &model) }
    switch model.overlay {
    case .goTo(let typed):
        switch key {
        case .escape: model.overlay = .none
        case .enter:
            model.overlay = .none
            if let number = Int(typed) { try goTo(number, &model) }
        case .backspace: model.overlay = .goTo(String(typed.dropLast()))
        case .character(let character) where character.isASCII && character.isNumber && typed.count < 9:
            model.overlay = .goTo(typed + String(character))
        // A minus sign first: the number is refused with the events' range, not read without its sign.
        case .character("-") where typed.isEmpty: model.overlay = .goTo("-")
        default: break
        }
        return []
    case .help:
        // `/` filters the keys as each character is typed; Esc clears the filter, then closes the help.
        if let filter = model.helpFilter {
            switch key {
            case .escape: model.helpFilter = nil
            case .backspace: model.helpFilter = String(filter.dropLast())
            case .character(let character) where filter.count < 40: model.helpFilter = filter + String(character)
            default: break
            }
            model.helpScroll = 0
            return []
        }
        // The help and quit keys are the user's (a keymap file may move them).
        let command = model.keys.command(for: key, in: model.view)
        switch key {
        case .character("/"):
            model.helpFilter = ""
            model.helpScroll = 0
        case .escape: model.overlay = .none
        case _ where command == .help: model.overlay = .none
        case _ where command == .quit: return quit(&model)
        // A help taller than the screen scrolls; render keeps the position within the lines.
        case .down, .character("j"): model.helpScroll += 1
        case .up, .character("k"): model.helpScroll = max(0, model.helpScroll - 1)
        case .pageDown, .character("l"), .character(" "): model.helpScroll += 10
        case .pageUp, .character("h"): model.helpScroll = max(0, model.helpScroll - 10)
        case .home: model.helpScroll = 0
        case .end: model.helpScroll = Int.max / 2
        default: break
        }
        let glyphs = Glyphs(theme: model.theme)
        let layout = HelpLayout(
            helpLines(model.view, glyphs, keys: model.keys, filter: model.helpFilter), width: model.width,
            height: model.height)
        model.helpScroll = layout.firstLine(model.helpScroll)
        return []
    case .threads(let row):
        let names = model.threadNames
        switch key {
        case _ where key == .escape || model.keys.isKey(key, for: .pickThread, in: model.view): model.overlay = .none
        case .up, .character("k"): model.overlay = .threads(max(0, row - 1))
        case .down, .character("j"): model.overlay = .threads(min(names.count, row + 1))
        case .pageUp: model.overlay = .threads(max(0, row - 10))
        case .pageDown: model.overlay = .threads(min(names.count, row + 10))
        case .home: model.overlay = .threads(0)
        case .end: model.overlay = .threads(names.count)
        case .enter:
            model.overlay = .none
            model.shownThread = row == 0 ? nil : names[min(row, names.count) - 1]
            model.flash =
                model.shownThread.map { "the loop view shows thread \($0)" }
                ?? "the loop view follows the current event's thread"
        default: break
        }
        return []
    case .picker(let picker):
        return handlePicker(key, picker, &model)
    case .search(let prompt):
        try handleSearchPrompt(key, prompt, &model)
        return []
    case .bookmarks(let row):
        return try handleBookmarkList(key, row, &model)
    case .note(let typed):
        return handleNote(key, typed, &model)
    case .outcomes(let list):
        return handleOutcomeList(key, list, &model)
    case .stats(let overlay):
        return try handleStats(key, overlay, &model)
    case .versus(let comparison):
        return handleVersus(key, comparison, &model)
    case .summary(let summary):
        // The keys it does not take close it and act as usual.
        if let effects = handleSummary(key, summary, &model) { return effects }
    case .card:
        // The lesson keys and `?` close the card and act.
        if let effects = closeCard(key, &model) { return effects }
    case .none:
        break
    }
    if model.problem != nil { return handleProblem(key, &model) }
    if model.isTooSmall {
        return model.keys.isKey(key, for: .quit, in: model.view) ? quit(&model) : []
    }
    guard let command = model.keys.command(for: key, in: model.view) else {
        // A key of the other view says where it works, rather than doing nothing.
        if let other = model.keys.bindings.first(where: { $0.keys.contains(key) && !$0.views.contains(model.view) }) {
            let switches = model.keys.name(of: .togglePoolView, in: model.view).map { " (\($0) switches)" } ?? ""
            model.flash =
                "\(other.label): \(other.help), in the \(model.view == .pool ? "loop" : "pool") view\(switches)"
        }
        return []
    }
    model.flash = nil
    if presenterRefuses(command, &model) { return [] }
    return try perform(command, &model)
}

private func quit(_ model: inout AppModel) -> [Effect] {
    model.quitRequested = true
    return [.quit]
}

private func perform(_ command: Command, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    switch command {
    case .togglePause: model.isPaused.toggle()
    case .followNewest: try followNewest(&model)
    case .stepForward:
        model.isPaused = true
        try move(&model, to: nextShown(after: model.cursor, model))
    case .stepBack:
        model.isPaused = true
        // Searches start at the cursor: a step at event 1,000,000 looks at a few events, not at all of them.
        let previous = (0..<max(0, model.cursor - 1)).last { model.isShown(model.trace[$0]) }
        try move(&model, to: (previous ?? -1) + 1)
    case .nextIteration:
        model.isPaused = true
        let next = (model.cursor..<model.trace.count).first { model.trace[$0].kind == .beforeTimers }
        // None in a window of a long file: the next window is read and the key handled again there.
        let beyond = next == nil && model.session.eventsAfterWindow > 0 && !model.isHandlingAgain
        try move(&model, to: beyond ? model.trace.count + 1 : (next ?? model.trace.count - 1) + 1)
    case .previousIteration:
        model.isPaused = true
        if let previous = (0..<max(0, model.cursor - 1)).last(where: { model.trace[$0].kind == .beforeTimers }) {
            try move(&model, to: previous + 1)
        } else if model.session.forgottenEvents > 0 && model.session.replayIndex != nil && !model.isHandlingAgain {
            // None in a window of a long file: the window before is read and the key handled again there.
            try move(&model, to: 0)
        } else {
            model.flash = "no earlier iteration: \(model.keys.word(for: .goTo)) 1 goes to the first event"
        }
    case .faster:
        // Reduced motion: at most a step a second.
        let fastest = model.theme.reduceMotion ? AppModel.reducedMotionSpeed : AppModel.speeds.count - 1
        if model.speedIndex >= fastest && model.theme.reduceMotion {
            model.flash = "--reduce-motion: at most 1 step/s"
        }
        model.speedIndex = min(model.speedIndex + 1, fastest)
    case .nextPalette:
        let palettes = AppModel.Palette.allCases
        let index = palettes.firstIndex(of: model.theme.palette) ?? 0
        model.theme.palette = palettes[(index + 1) % palettes.count]
        model.flash = StatusMessage(
            "colours: \(model.theme.palette.words)",
            detail: "\(model.keys.word(for: .nextPalette, in: model.view)) again; LOOPVIZ_THEME or --theme at start")
    case .slower: model.speedIndex = max(model.speedIndex - 1, 0)
    case .goTo: model.overlay = .goTo("")
    case .focusNext, .focusPrevious:
        let panels = AppModel.Panel.allCases
        let index = panels.firstIndex(of: model.focus) ?? 0
        let step = command == .focusNext ? 1 : panels.count - 1
        model.focus = panels[(index + step) % panels.count]
    case .scrollUp: model.logScroll += 1
    case .scrollDown: model.logScroll = max(0, model.logScroll - 1)
    case .pageUp: model.logScroll += 10
    case .pageDown: model.logScroll = max(0, model.logScroll - 10)
    case .toggleCycleView: model.cycleView = model.cycleView == .documented ? .implementation : .documented
    case .help:
        model.overlay = .help
        model.helpScroll = 0
        model.helpFilter = nil
    case .closeOverlay:
        // With no overlay open, Esc clears the filter (it never quits).
        if model.overlay == .none, model.filter != nil {
            model.filter = nil
            model.flash = "filter cleared: every event shows"
        }
        model.overlay = .none
    case .search: model.overlay = .search(SearchPrompt(typed: model.filter?.typed ?? ""))
    case .nextMatch, .previousMatch: try findNextMatch(forward: command == .nextMatch, &model)
    case .toggleBookmark, .nextBookmark, .previousBookmark, .listBookmarks, .writeNote:
        return try performBookmark(command, &model)
    case .listOutcomes: return listOutcomes(&model)
    case .compareRuns: return compareRuns(&model)
    case .showStats: openStats(&model)
    case .showLink: model.flash = StatusMessage(model.link.command, detail: "opens the UI at this step")
    case .showCard: showCard(&model)
    case .quit: return quit(&model)
    case .selectItem(let index):
        if index < model.items.count {
            model.selectedItem = index
            model.flash = "selected \(index + 1) \(model.items[index].name)"
        } else {
            model.flash =
                model.items.isEmpty
                ? "thread \(model.loopThread) has no item" : "no item \(index + 1) (1-\(model.items.count))"
        }
    case .nextItem, .previousItem:
        let count = model.items.count
        guard count > 0 else {
            model.flash = "thread \(model.loopThread) has no item"
            break
        }
        let index = (model.selectedItem + (command == .nextItem ? 1 : count - 1)) % count
        model.selectedItem = index
        model.flash = "selected \(index + 1) \(model.items[index].name)"
    case .pickThread:
        let names = model.threadNames
        model.overlay = .threads(model.shownThread.flatMap { names.firstIndex(of: $0).map { $0 + 1 } } ?? 0)
    case .fireTimer, .signalAndWake, .signalOnly, .sendMessage, .wakeUp, .stop, .performBlock, .scroll, .nestedRun,
        .addTimer, .addSource, .addObserver, .removeItem:
        if model.session.isReplay {
            model.flash = StatusMessage(Session.replayPokeMessage)
        } else {
            return poke(command, &model)
        }
    case .togglePoolView:
        if model.session.hasQueues {
            model.view = model.view == .loop ? .pool : .loop
            model.logScroll = 0
        } else {
            model.flash = "this scenario has no operation queue"
        }
    case .nextQueue:
        let count = model.session.script.scenario.queues.count
        if count > 1 {
            model.shownQueue = (model.shownQueue + 1) % count
            model.selectedOperation = nil
        }
        model.flash = model.shownQueueState.map { "queue \($0.name)" }
    case .selectPreviousOperation, .selectNextOperation:
        selectOperation(by: command == .selectNextOperation ? 1 : -1, &model)
    case .addOperation, .cancelOperation, .cancelAllOperations, .toggleSuspended, .raiseLimit, .lowerLimit:
        if model.session.isReplay {
            model.flash = StatusMessage(Session.replayPokeMessage)
        } else {
            return pokePool(command, &model)
        }
    case .togglePresenter: togglePresenter(&model)
    case .togglePokeLock: togglePokeLock(&model)
    case .hidePanel, .showPanel: hideOrShowPanel(hide: command == .hidePanel, &model)
    case .zoomIn, .zoomOut, .panEarlier, .panLater, .fitTimeline: moveTimeline(command, &model)
    case .nextNarration: try playToNextNarration(&model)
    case .toggleQuiz: toggleQuiz(&model)
    case .openPicker, .previousLesson, .nextLesson, .reloadLesson:
        return performLibrary(command, &model)
    }
    return []
}

/// Moves the operation selection up or down the queue panel's list (executing, then waiting by priority).
private func selectOperation(by step: Int, _ model: inout AppModel) {
    guard let queue = model.shownQueueState else { return }
    let names = queue.listed.map(\.name)
    guard !names.isEmpty else {
        model.flash = "queue \(queue.name) has no operation yet"
        return
    }
    if let selected = model.selectedOperation, let index = names.firstIndex(of: selected) {
        model.selectedOperation = names[min(max(0, index + step), names.count - 1)]
    } else {
        model.selectedOperation = step > 0 ? names.first : names.last
    }
}
