import LoopEngine

/// `B`, `'`, `"`, `M` and `;`: marks and notes on steps. Every change asks the runtime to save the marks
/// (``Effect/saveBookmarks(path:text:)``); the built-in lesson has no file, so its marks last for the session.
func performBookmark(_ command: Command, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    // A windowed replay marks the file's step (the same event whatever window is read).
    let step = model.session.eventNumberOffset + model.cursor
    // The hints name the keys in force.
    let keys = model.keys
    let (markKey, nextKey, backKey, listKey, noteKey) = (
        keys.word(for: .toggleBookmark), keys.word(for: .nextBookmark), keys.word(for: .previousBookmark),
        keys.word(for: .listBookmarks), keys.word(for: .writeNote)
    )
    switch command {
    case .toggleBookmark:
        guard step > 0 else {
            model.flash = "step 0 is before every event: \(keys.word(for: .stepForward)) steps to one to mark it"
            return []
        }
        if model.bookmarks.mark(at: step) != nil {
            model.bookmarks.remove(at: step)
            model.flash = "bookmark at step \(step) removed"
        } else if model.bookmarks.set(note: "", at: step) {
            model.flash = StatusMessage(
                "step \(step) bookmarked",
                detail: "\(nextKey) next, \(backKey) previous, \(listKey) lists, \(noteKey) a note")
        } else {
            model.flash = StatusMessage(
                "at most \(Bookmarks.maximumCount) bookmarks: \(listKey) lists them",
                detail: "\(markKey) on a marked step removes it")
            return []
        }
        return saveBookmarks(model)
    case .nextBookmark, .previousBookmark:
        let forward = command == .nextBookmark
        guard let mark = model.bookmarks.neighbour(of: step, forward: forward) else {
            model.flash = StatusMessage(
                "no bookmark \(forward ? "after" : "before") step \(step)", detail: "\(markKey) marks the step shown")
            return []
        }
        model.isPaused = true
        try goTo(mark.step, &model)
        model.flash = StatusMessage(
            "bookmark at step \(mark.step)" + (mark.note.isEmpty ? "" : ": \(mark.note)"))
    case .listBookmarks:
        let marks = model.bookmarks.marks
        guard !marks.isEmpty else {
            model.flash = "no bookmark yet: \(markKey) marks the step shown, \(noteKey) writes a note on it"
            return []
        }
        model.overlay = .bookmarks(marks.lastIndex { $0.step <= step } ?? 0)
    case .writeNote:
        guard step > 0 else {
            model.flash = "step 0 is before every event: \(keys.word(for: .stepForward)) steps to one to write a note"
            return []
        }
        model.overlay = .note(model.bookmarks.mark(at: step)?.note ?? "")
    default:
        break
    }
    return []
}

/// A key typed at the note prompt (`;`): Enter marks the step with the note (an empty note keeps a plain mark).
func handleNote(_ key: Key, _ typed: String, _ model: inout AppModel) -> [Effect] {
    switch key {
    case .escape:
        model.overlay = .none
    case .backspace:
        model.overlay = .note(String(typed.dropLast()))
    case .character(let character) where !character.isNewline:
        if typed.count < Bookmarks.maximumNoteLength { model.overlay = .note(typed + String(character)) }
    case .enter:
        model.overlay = .none
        let step = model.session.eventNumberOffset + model.cursor
        guard model.bookmarks.set(note: typed, at: step) else {
            model.flash = "at most \(Bookmarks.maximumCount) bookmarks: M lists them"
            return []
        }
        model.flash = typed.isEmpty ? "step \(step) bookmarked" : "note on step \(step) kept"
        return saveBookmarks(model)
    default:
        break
    }
    return []
}

/// A key in the bookmark list (`M`): move, Enter goes to the mark, `B` removes it, Esc or `M` closes.
func handleBookmarkList(_ key: Key, _ row: Int, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    let marks = model.bookmarks.marks
    guard !marks.isEmpty else {
        model.overlay = .none
        return []
    }
    let row = min(row, marks.count - 1)
    // The list's opener closes it, the bookmark key removes, the quit key quits: the keys in force.
    let command = model.keys.command(for: key, in: model.view)
    switch key {
    case _ where key == .escape || command == .listBookmarks: model.overlay = .none
    case .up, .character("k"): model.overlay = .bookmarks(max(0, row - 1))
    case .down, .character("j"): model.overlay = .bookmarks(min(marks.count - 1, row + 1))
    case .pageUp: model.overlay = .bookmarks(max(0, row - 10))
    case .pageDown: model.overlay = .bookmarks(min(marks.count - 1, row + 10))
    case .home: model.overlay = .bookmarks(0)
    case .end: model.overlay = .bookmarks(marks.count - 1)
    case .enter:
        model.overlay = .none
        model.isPaused = true
        try goTo(marks[row].step, &model)
        model.flash = StatusMessage(
            "bookmark at step \(marks[row].step)" + (marks[row].note.isEmpty ? "" : ": \(marks[row].note)"))
    case _ where command == .toggleBookmark:
        model.bookmarks.remove(at: marks[row].step)
        model.flash = "bookmark at step \(marks[row].step) removed"
        model.overlay = model.bookmarks.marks.isEmpty ? .none : .bookmarks(min(row, model.bookmarks.marks.count - 1))
        return saveBookmarks(model)
    case _ where command == .quit:
        model.quitRequested = true
        return [.quit]
    default: break
    }
    return []
}

/// The effect that keeps the marks in their file; none for the built-in lesson.
func saveBookmarks(_ model: AppModel) -> [Effect] {
    guard let path = model.bookmarksPath else { return [] }
    return [.saveBookmarks(path: path, text: model.bookmarks.text(marking: model.fileName))]
}
