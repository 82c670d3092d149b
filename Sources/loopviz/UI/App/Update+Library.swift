import LoopEngine

/// The lesson keys: `L` (the picker), `{` and `}` (the previous and next lesson), `R` (the file read again,
/// keeping the step). Opening a file is the runtime's I/O: these ask for it (``Effect/openLesson(_:)``) and
/// ``openLesson(_:_:)`` takes what it read.
func performLibrary(_ command: Command, _ model: inout AppModel) -> [Effect] {
    if model.session.isLive && !model.session.isReplay {
        // Real threads cannot be rewound: R runs the scenario again from its start.
        if command == .reloadLesson {
            model.session = Session(liveScript: model.session.script, replacing: model.session)
            model.cursor = 0
            model.furthest = 0
            model.liveStarted = true
            model.flash = "started again on real threads from the start (\(model.keys.word(for: .reloadLesson)))"
            return [.startLive]
        }
        model.flash = StatusMessage(
            "other lessons need the virtual clock",
            detail: "\(model.keys.word(for: .reloadLesson)) starts this one again; quit and run loopviz FILE")
        return []
    }
    let library = model.library
    switch command {
    case .openPicker:
        let row = library.current.flatMap { library.matching("").firstIndex(of: $0) } ?? 0
        model.overlay = .picker(LessonPicker(row: row))
        return []
    case .previousLesson, .nextLesson:
        guard let current = library.current, !library.isEmpty else {
            model.flash = StatusMessage(LessonLibrary.noLibraryMessage)
            return []
        }
        let next = current + (command == .nextLesson ? 1 : -1)
        guard library.entries.indices.contains(next) else {
            model.flash =
                command == .nextLesson
                ? "this is the last lesson (\(library.entries.count) of \(library.entries.count)); L lists them all"
                : "this is the first lesson; L lists them all"
            return []
        }
        return [.openLesson(library.request(next))]
    case .reloadLesson:
        guard let current = library.current else {
            model.flash =
                model.session.isReplay
                ? "R reads a lesson's file again; a trace replay was read once"
                : "the built-in lesson has no file to read again"
            return []
        }
        // A lesson whose file did not parse keeps the step of the version shown before it broke.
        let step: Int? = if let problem = model.problem { problem.keepStep } else { model.cursor }
        return [.openLesson(library.request(current, keepStep: step))]
    default:
        return []
    }
}

/// The picker's keys: ↑↓ (j/k outside the filter), PgUp/PgDn, Home/End, Enter opens; `/` types a filter (any
/// key then goes to it until Enter or Esc); Esc clears the filter, or closes the picker.
func handlePicker(_ key: Key, _ picker: LessonPicker, _ model: inout AppModel) -> [Effect] {
    var picker = picker
    let shown = model.library.matching(picker.filter)
    func moved(by step: Int) -> Int { min(max(0, picker.row + step), max(0, shown.count - 1)) }
    switch key {
    case .up: picker.row = moved(by: -1)
    case .down: picker.row = moved(by: 1)
    case .pageUp: picker.row = moved(by: -10)
    case .pageDown: picker.row = moved(by: 10)
    case .home: picker.row = 0
    case .end: picker.row = max(0, shown.count - 1)
    case .enter:
        guard picker.row < shown.count else {
            model.flash = "no lesson matches \u{201C}\(picker.filter)\u{201D}: Backspace or Esc widens the list"
            return []
        }
        model.overlay = .none
        return [.openLesson(model.library.request(shown[picker.row]))]
    case .escape:
        if picker.typing || !picker.filter.isEmpty {
            picker = LessonPicker(row: 0)
        } else {
            model.overlay = .none
            return []
        }
    case .backspace:
        picker.filter = String(picker.filter.dropLast())
        picker.row = 0
    case .character(let character) where picker.typing:
        if picker.filter.count < LessonPicker.maximumFilterLength { picker.filter.append(character) }
        picker.row = 0
    case .character("/"): picker.typing = true
    case .character("k"): picker.row = moved(by: -1)
    case .character("j"): picker.row = moved(by: 1)
    case _ where model.keys.isKey(key, for: .quit, in: model.view): return quitFromOverlay(&model)
    case _ where model.keys.isKey(key, for: .openPicker, in: model.view):
        model.overlay = .none
        return []
    default: break
    }
    model.overlay = .picker(picker)
    return []
}

/// A lesson the runtime read: it replaces the one shown (keeping the screen's size, theme, speed and the
/// library), or its diagnostics are shown in place of the panels. Its trace is computed by the runtime
/// (``Effect/runEngine(_:)``); a lesson read again at a step goes to it once computed (``showKeptStep(_:pokesLeftOut:_:)``).
func openLesson(_ opening: LessonOpening, _ model: inout AppModel) -> [Effect] {
    let request = opening.request
    guard model.library.entries.indices.contains(request.index) else { return [] }
    model.library.current = request.index
    let count = model.library.entries.count
    switch opening.result {
    case .failure(var problem):
        problem.keepStep = request.keepStep
        model.problem = problem
        model.overlay = .none
        model.fileName = request.path
        model.library.entries[request.index].problem = "does not open: see its diagnostics"
        model.flash =
            "lesson \(request.index + 1) of \(count) does not open: fix the file and press \(model.keys.word(for: .reloadLesson))"
        return []
    case .success(let loaded):
        model.library.entries[request.index] = loaded.entry
        let session = Session(uncomputed: loaded.script, maxEvents: model.session.maxEvents, replacing: model.session)
        guard let run = session.pending else { return [] }
        var fresh = AppModel(session: session, fileName: request.path)
        fresh.library = model.library
        fresh.theme = model.theme
        fresh.width = model.width
        fresh.height = model.height
        fresh.speedIndex = model.speedIndex
        fresh.cycleView = model.cycleView
        fresh.language = model.language
        fresh.bookmarks = opening.bookmarks
        // Reduced motion: a lesson opens paused, as the first did.
        fresh.isPaused = model.theme.reduceMotion
        fresh.bookmarksPath = BookmarkFile.path(for: request.path)
        // Presenter mode, the quiz's mode and scores and the recording go on; an open question, the lesson's asked
        // lines and a play-to-narration target belong to the lesson left.
        fresh.classroom = model.classroom
        fresh.classroom.question = nil
        fresh.classroom.asked = []
        fresh.classroom.playUntil = nil
        let pokes = model.problem == nil ? model.session.interventions.count : 0
        let entry = loaded.entry
        if let step = request.keepStep {
            fresh.isPaused = model.isPaused
            fresh.queued = [.showKeptStep(step, pokesLeftOut: pokes)]
        } else {
            fresh.flash = "lesson \(entry.number) (\(request.index + 1) of \(count)): \(entry.title)"
            // A lesson opened afresh opens on its card; one read again after an edit goes on where it was.
            fresh = fresh.openingCard()
        }
        model = fresh
        return [.runEngine(run)]
    }
}

/// A lesson read again goes to the step shown before, as `screen --step` does: computed further when the replay
/// stopped at its horizon (a few doublings at most).
func showKeptStep(_ step: Int, pokesLeftOut pokes: Int, _ model: inout AppModel) throws(NeedsLongerTrace) {
    let doublings = 8
    if step > model.trace.count && model.session.canExtend
        && model.session.horizon < model.session.firstHorizon * (1 << doublings)
    {
        throw NeedsLongerTrace()
    }
    model.cursor = min(step, model.trace.count)
    model.furthest = model.cursor
    var said = step > model.trace.count ? "read again: the last step is shown" : "read again at step \(step)"
    if pokes > 0 { said += "; your \(pokes) poke\(pokes == 1 ? " was" : "s were") left out" }
    model.flash = StatusMessage(
        said,
        detail: step > model.trace.count ? "it now has \(model.trace.count) events, step \(step) was shown" : nil)
}

/// `q` in an overlay: quits, as everywhere.
func quitFromOverlay(_ model: inout AppModel) -> [Effect] {
    model.quitRequested = true
    return [.quit]
}

extension LessonLibrary {
    /// What the lesson keys say when there is no library to go through.
    static let noLibraryMessage =
        "no other lesson: start loopviz with a folder (loopviz examples/) or several files"

    /// The request that opens entry `index`.
    func request(_ index: Int, keepStep: Int? = nil) -> LessonRequest {
        LessonRequest(index: index, path: entries[index].path, keepStep: keepStep, iterationCost: iterationCost)
    }
}

extension LessonPicker {
    /// The longest filter typed (a name, a number or a topic is short).
    static let maximumFilterLength = 40
}

/// A lesson that does not open: only the lesson keys, the help and `q` work; any other key says how to go on.
func handleProblem(_ key: Key, _ model: inout AppModel) -> [Effect] {
    guard let command = model.keys.command(for: key, in: model.view) else {
        model.flash = StatusMessage(LessonProblem.hint(model.keys))
        return []
    }
    switch command {
    case .openPicker, .previousLesson, .nextLesson, .reloadLesson:
        model.flash = nil
        return performLibrary(command, &model)
    case .quit: return quitFromOverlay(&model)
    case .help:
        model.overlay = .help
        model.helpScroll = 0
    case .closeOverlay: break
    default: model.flash = StatusMessage(LessonProblem.hint(model.keys))
    }
    return []
}

extension LessonProblem {
    /// What to do about a lesson that does not open.
    static func hint(_ keys: KeyMap = .standard) -> String {
        let (reload, back, next, list) = (
            keys.word(for: .reloadLesson), keys.word(for: .previousLesson), keys.word(for: .nextLesson),
            keys.word(for: .openPicker)
        )
        return
            "this lesson does not open: fix the file and press \(reload), or \(back) \(next) \(list) for another lesson"
    }
}
