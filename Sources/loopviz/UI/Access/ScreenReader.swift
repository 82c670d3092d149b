import LoopEngine

/// `--screen-reader`: the UI as lines of text, one a step, for a screen reader or a braille display. No box
/// drawing, no cursor moves, no animation: each key typed (a line of keys, then Enter) is announced, and what the
/// step shown is, with the lesson's narration and the Why pane's explanation in full, is said as plain sentences.
/// The same `update` drives it as the terminal UI, so every key acts the same.
enum ScreenReader {
    /// The lines said when the mode starts, naming the keys in force.
    static func introduction(_ keys: KeyMap = .standard) -> [String] {
        let key = { (command: Command) in keys.word(for: command) }
        return [
            "loopviz, screen reader mode: one line a step, no animation.",
            "Type keys, then Enter. Enter alone: the next step. \(key(.stepForward)) next, \(key(.stepBack)) previous, "
                + "\(key(.nextIteration)) next iteration, \(key(.goTo)) then a number and Enter: go to a step, "
                + "\(key(.search)) then a query and Enter: search, \(key(.nextMatch)) \(key(.previousMatch)) next and "
                + "previous match, \(key(.showLink)) the link, \(key(.toggleBookmark)) bookmark, \(key(.help)) every "
                + "key, \(key(.quit)) quit.",
        ]
    }

    /// What is said after `key`: the key, what it did (the status message), then the step when it changed or
    /// was asked for.
    static func announce(_ key: Key, before: AppModel, after model: AppModel) -> [String] {
        // Typing into a prompt is said once, when the line ends it.
        if isPrompt(before.overlay), isPrompt(model.overlay), case .character = key { return [] }
        var lines = ["key \(name(of: key))."]
        if let flash = model.flash, flash != before.flash || before.cursor != model.cursor {
            lines.append(TerminalSafeText.terminalSafe(flash.text) + ".")
        }
        switch model.overlay {
        case .search(let prompt):
            lines.append(
                prompt.problem.map { "search: \(TerminalSafeText.terminalSafe(prompt.typed)): \($0.message)." }
                    ?? "search: type a query.")
        case .goTo: lines.append("go to step: type its number.")
        case .note: lines.append("note on step \(model.cursor): type it.")
        case .outcomes(let list) where before.overlay != model.overlay:
            lines += outcomeListText(list, glyphs: Glyphs(theme: model.theme)).map { $0 + "." }
        case .versus(let comparison):
            // Opening says what is compared and where the runs part; every key then says the step of both.
            let wasOpen = if case .versus = before.overlay { true } else { false }
            if !wasOpen { lines += comparison.openingWords.map(TerminalSafeText.terminalSafe) }
            lines.append(TerminalSafeText.terminalSafe(comparison.rowWords(comparison.row)) + ".")
        case .help where before.overlay != .help:
            lines += model.keys.bindings(in: model.view).filter { !$0.keys.isEmpty }.map { "\($0.label): \($0.help)." }
        default: break
        }
        switch model.keys.command(for: key, in: model.view) {
        case .zoomIn, .zoomOut, .panEarlier, .panLater, .fitTimeline: lines.append(timelineWords(model))
        default: break
        }
        // In the side by side, the step-forward key moves its rows (said above), not the step shown.
        let comparing = if case .versus = model.overlay { true } else { false }
        if before.cursor != model.cursor
            || !comparing && (key == .enter || model.keys.isKey(key, for: .stepForward, in: model.view))
        {
            lines += step(model)
        }
        return lines.map(Glyphs(theme: model.theme).plain)
    }

    /// The step shown, in full: where it is, the event, the narration and the Why.
    static func step(_ model: AppModel) -> [String] {
        guard let event = model.currentEvent else {
            return ["step 0 of \(model.trace.count): nothing has happened yet; Enter goes to step 1."]
        }
        let index = model.cursor - 1
        var what = "step \(model.cursor) of \(model.trace.count), \(event.time) s, thread \(event.loop)"
        if let mode = event.mode { what += ", mode \(mode)" }
        what += ": \(event.kind.rawValue)"
        if let name = event.name { what += " \(name)" }
        if let detail = event.detail { what += ", \(detail)" }
        if model.session.branchMarks.isMarked(index) { what += ". Its place depends on a schedule choice" }
        if let mark = model.bookmarks.mark(at: model.session.eventNumberOffset + model.cursor) {
            what += mark.note.isEmpty ? ". Bookmarked" : ". Note: \(mark.note)"
        }
        var lines = [TerminalSafeText.terminalSafe(what) + "."]
        if let narration = currentNarration(model) {
            lines.append("Narration: " + TerminalSafeText.terminalSafe(narration))
        }
        lines.append("Why: " + whyWords(model, explaining: index))
        return lines
    }

    /// The Why pane's text, whole, as one line (the pane wraps this very text).
    static func whyWords(_ model: AppModel, explaining index: Int) -> String {
        branchWords(model, explaining: index) + hangWords(model, explaining: index) + whyText(model, explaining: index)
    }

    /// How a key is announced.
    static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .pageUp: "page up"
        case .pageDown: "page down"
        case .home: "home"
        case .end: "end"
        case .tab: "tab"
        case .backTab: "shift tab"
        case .enter: "Enter"
        case .escape: "Escape"
        case .backspace: "backspace"
        }
    }

    /// A typed character as a key: the escape character is Esc.
    static func key(_ character: Character) -> Key {
        character == "\u{1b}" ? .escape : .character(character)
    }

    static func isPrompt(_ overlay: AppModel.Overlay) -> Bool {
        switch overlay {
        case .search, .goTo, .note: true
        default: false
        }
    }

    /// Runs the mode on standard input and output until `q` or the end of input.
    static func run(_ start: AppModel) -> ExitStatus {
        var model = start
        model.theme.unicode = false
        model.isPaused = true
        model.overlay = .none
        _ = updateInline(&model, .resize(width: 120, height: 40))
        for line in introduction(model.keys) + step(model) { print(line) }
        while let line = readLine(strippingNewline: true) {
            // At most 200 keys a line; an empty line is the next step (the step key in force).
            let next = model.keys.key(for: .stepForward, in: model.view).map { [$0] } ?? []
            var keys: [Key] = line.isEmpty ? next : Array(line.prefix(200)).map(key)
            var index = 0
            while index < keys.count {
                let key = keys[index]
                index += 1
                let before = model
                for effect in updateInline(&model, .key(key)) {
                    if case .saveBookmarks(let path, let text) = effect, let problem = BookmarkFile.save(text, to: path)
                    {
                        model.flash = StatusMessage("bookmarks not saved: \(path)", detail: problem)
                    }
                }
                // A line types a new query: the prompt starts empty (the terminal UI shows the filter to edit).
                if before.keys.isKey(key, for: .search, in: before.view), case .search = model.overlay {
                    model.overlay = .search(SearchPrompt())
                }
                for said in announce(key, before: before, after: model) { print(said) }
                if model.quitRequested { return .success }
                // The end of the line ends what a prompt was typing (a step number, a query, a note).
                // Once a line: a query refused keeps its prompt open for the next line.
                if index == keys.count && keys.last != .enter && isPrompt(model.overlay) { keys.append(.enter) }
            }
        }
        return .success
    }
}
