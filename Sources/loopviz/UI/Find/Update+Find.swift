import LoopEngine

/// A key typed at the `/` prompt: Enter makes the query the filter and goes to its first match from the step
/// shown; an empty query clears the filter; Esc leaves the filter as it was.
func handleSearchPrompt(_ key: Key, _ prompt: SearchPrompt, _ model: inout AppModel) throws(NeedsLongerTrace) {
    var prompt = prompt
    switch key {
    case .escape:
        model.overlay = .none
        return
    case .backspace:
        prompt.typed = String(prompt.typed.dropLast())
        prompt.problem = nil
    case .character(let character) where !character.isNewline:
        guard prompt.typed.count < SearchPrompt.maximumLength else { return }
        prompt.typed.append(character)
        prompt.problem = nil
    case .enter:
        let filter: EventFilter?
        do {
            filter = try EventFilter.parse(prompt.typed)
        } catch {
            prompt.problem = error
            model.overlay = .search(prompt)
            return
        }
        model.overlay = .none
        model.logScroll = 0
        guard let filter else {
            if model.filter != nil { model.flash = "filter cleared: every event shows" }
            model.filter = nil
            return
        }
        model.filter = filter
        // The step shown counts: a filter that keeps it stays there.
        try findMatch(forward: true, from: max(0, model.cursor - 1), &model)
        return
    default:
        return
    }
    model.overlay = .search(prompt)
}

/// `*` and `#`: the next or previous event the filter keeps, from the step shown.
func findNextMatch(forward: Bool, _ model: inout AppModel) throws(NeedsLongerTrace) {
    guard model.filter != nil else {
        model.flash =
            "no search yet: \(model.keys.word(for: .search)) types one (thread:NAME kind:KIND item:NAME mode:NAME or words)"
        return
    }
    try findMatch(forward: forward, from: forward ? model.cursor : max(0, model.cursor - 1), &model)
}

/// Goes to the first kept event at `start` or later (forward) or the last one before `start` (backward): a look
/// in the filter's index, however far the match.
private func findMatch(forward: Bool, from start: Int, _ model: inout AppModel) throws(NeedsLongerTrace) {
    model.syncFilterIndex()
    guard let filter = model.filter, let index = model.filterIndex else { return }
    model.isPaused = true
    if let found = index.search(from: start, forward: forward) {
        try move(&model, to: found + 1)
        model.flash = StatusMessage(
            "step \(model.session.eventNumberOffset + found + 1) matches \(filter.typed)",
            detail: matchKeys(model.keys) + " the filter")
        return
    }
    let way = forward ? "after" : "before"
    let more = forward && model.session.canExtend ? " computed so far" : ""
    // A windowed replay searches the events read: it says which.
    let base = model.session.eventNumberOffset
    let scope =
        model.session.replayIndex == nil ? "" : " in the events read (\(base + 1)-\(base + model.trace.count))"
    model.flash = StatusMessage(
        "no match for \(filter.typed) \(way) step \(base + model.cursor)\(more)\(scope)",
        detail: forward
            ? "\(model.keys.word(for: .previousMatch)) searches back"
            : "\(model.keys.word(for: .nextMatch)) searches forward")
}

/// How to go on from a match, with the keys in force: `* next, # previous, Esc clears`.
func matchKeys(_ keys: KeyMap) -> String {
    "\(keys.word(for: .nextMatch)) next, \(keys.word(for: .previousMatch)) previous, "
        + "\(keys.word(for: .closeOverlay)) clears"
}
