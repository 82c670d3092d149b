import LoopEngine

// Render: the Why pane and the narration it shows.

/// The Why panel: the lesson's narration in its header (``WhyNarration``: what does not fit there leads `lines`),
/// and `lines` (the rest of the narration, then ``whyText(_:explaining:)``, wrapped to the panel, worked out once
/// by the caller, which also sized the panel by them).
func drawWhy(
    _ model: AppModel, _ rect: Rect, narration: WhyNarration, lines: [String], _ screen: inout Screen,
    _ glyphs: Glyphs
) {
    if let title = narration.header {
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

/// The lesson's narration as the Why panel shows it: its header holds what fits, cut at a word, and the rest
/// leads the panel's text, so no sentence loses its end (a narration line is often longer than 80 columns).
struct WhyNarration {
    var header: String?
    var rest: [String] = []

    init(_ model: AppModel, width: Int, _ glyphs: Glyphs) {
        self.init(currentNarration(model), width: width, glyphs)
    }

    /// `narration` split for a panel `width` columns wide.
    init(_ narration: String?, width: Int, _ glyphs: Glyphs) {
        guard let narration else { return }
        let lines = TextFit.wrap("\(glyphs.narration) " + narration, width: max(width - 4, 8))
        header = lines.first
        rest = lines.count > 1 ? TextFit.wrap(lines.dropFirst().joined(separator: " "), width: width - 2) : []
    }
}

/// What the Why panel says about event `index` (or, before any event, how to start).
func whyText(_ model: AppModel, explaining index: Int?) -> String {
    // An open question: the Why of the step before it would give the answer away (it says what the loop waits for).
    if let question = model.classroom.question, question.picked == nil {
        return "The Why of this step comes back once you answer the question (1-\(question.choices.count)): it "
            + "would give the answer away."
    }
    if let index {
        // A lesson's `say` is the one Why in the lesson's words, so it speaks the lesson's language; the engine's
        // own notes (a declined add among them) have their explanation.
        if case .note(.say(let text)) = model.trace[index].fact {
            return model.session.script.note(text, in: model.language)
        }
        return Explanation.text(for: index, in: model.trace, knowing: model.session.knowledge)
    }
    // The first instruction matches what the status bar shows: Space plays when paused, pauses when playing.
    let keys = model.keys
    let pause = keys.word(for: .togglePause, in: model.view)
    let space = model.isPaused ? "press \(pause) to play" : "playing (\(pause) pauses)"
    let (next, help) = (keys.word(for: .stepForward, in: model.view), keys.word(for: .help, in: model.view))
    if model.view == .pool {
        return "Nothing has happened in the pool yet: \(space), \(next) to step from one pool event to the next, "
            + "\(help) for every key."
    }
    return "Nothing has happened yet: \(space), \(next) to step, \(help) for every key."
}

/// Splits `text` into lines of at most `width` characters at spaces (``TextFit/wrap(_:width:)``).
func wrap(_ text: String, width: Int) -> [String] {
    TextFit.wrap(text, width: width)
}

/// The lesson's narration for the events on screen, in the model's language (English where a line has no
/// translation): a callout's `say` when that is the current event, else the `say` line tied to the latest event
/// shown (never one whose event is still to come).
func currentNarration(_ model: AppModel) -> String? {
    // Hidden under an open question, as the Why is.
    if let question = model.classroom.question, question.picked == nil { return nil }
    if let event = model.currentEvent, case .note(let note) = event.fact {
        return model.session.script.note(note.words, in: model.language)
    }
    return model.session.narration(shownUpTo: model.cursor, in: model.language)
}
