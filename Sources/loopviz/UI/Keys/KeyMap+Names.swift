// The words of a keymap file: a name for each command and each key. Users' files depend on them, so each is
// written out here, never derived from a Swift spelling that a rename would change.

extension Command {
    /// The command's name in a keymap file (`step-forward`). A new command needs one here (the switch is
    /// exhaustive) and in docs/classroom.md's table of names.
    var fileName: String {
        switch self {
        case .togglePause: "toggle-pause"
        case .stepForward: "step-forward"
        case .stepBack: "step-back"
        case .nextIteration: "next-iteration"
        case .previousIteration: "previous-iteration"
        case .faster: "faster"
        case .slower: "slower"
        case .goTo: "go-to"
        case .focusNext: "focus-next"
        case .focusPrevious: "focus-previous"
        case .scrollUp: "scroll-up"
        case .scrollDown: "scroll-down"
        case .pageUp: "page-up"
        case .pageDown: "page-down"
        case .toggleCycleView: "toggle-cycle-view"
        case .help: "help"
        case .quit: "quit"
        case .closeOverlay: "close-overlay"
        case .showCard: "show-card"
        case .selectItem: "select-item"
        case .nextItem: "next-item"
        case .previousItem: "previous-item"
        case .pickThread: "pick-thread"
        case .fireTimer: "fire-timer"
        case .signalAndWake: "signal-and-wake"
        case .signalOnly: "signal-only"
        case .sendMessage: "send-message"
        case .wakeUp: "wake-up"
        case .stop: "stop"
        case .performBlock: "perform-block"
        case .scroll: "scroll-mode"
        case .nestedRun: "nested-run"
        case .addTimer: "add-timer"
        case .addSource: "add-source"
        case .addObserver: "add-observer"
        case .removeItem: "remove-item"
        case .togglePoolView: "toggle-pool-view"
        case .selectPreviousOperation: "select-previous-operation"
        case .selectNextOperation: "select-next-operation"
        case .nextQueue: "next-queue"
        case .addOperation: "add-operation"
        case .cancelOperation: "cancel-operation"
        case .cancelAllOperations: "cancel-all-operations"
        case .toggleSuspended: "toggle-suspended"
        case .raiseLimit: "raise-limit"
        case .lowerLimit: "lower-limit"
        case .togglePresenter: "toggle-presenter"
        case .togglePokeLock: "toggle-poke-lock"
        case .hidePanel: "hide-panel"
        case .showPanel: "show-panel"
        case .nextNarration: "next-narration"
        case .toggleQuiz: "toggle-quiz"
        case .openPicker: "open-picker"
        case .previousLesson: "previous-lesson"
        case .nextLesson: "next-lesson"
        case .reloadLesson: "reload-lesson"
        case .search: "search"
        case .nextMatch: "next-match"
        case .previousMatch: "previous-match"
        case .showLink: "show-link"
        case .showStats: "show-stats"
        case .toggleBookmark: "toggle-bookmark"
        case .nextBookmark: "next-bookmark"
        case .previousBookmark: "previous-bookmark"
        case .listBookmarks: "list-bookmarks"
        case .writeNote: "write-note"
        case .nextPalette: "next-palette"
        case .followNewest: "follow-newest"
        case .listOutcomes: "list-outcomes"
        case .compareRuns: "compare-runs"
        case .zoomIn: "zoom-in"
        case .zoomOut: "zoom-out"
        case .panEarlier: "pan-earlier"
        case .panLater: "pan-later"
        case .fitTimeline: "fit-timeline"
        }
    }
}

extension Key {
    /// The names of the keys that are not one character, as a keymap file writes them (any case is read).
    static let fileNames: [(name: String, key: Key)] = [
        ("Space", .character(" ")), ("Enter", .enter), ("Esc", .escape), ("Tab", .tab), ("BackTab", .backTab),
        ("Up", .up), ("Down", .down), ("Left", .left), ("Right", .right), ("PgUp", .pageUp), ("PgDn", .pageDown),
        ("Home", .home), ("End", .end), ("Backspace", .backspace),
    ]

    /// The key's name in a keymap file: one character as itself, the others by name (`Space`, `PgUp`).
    var fileName: String {
        if let named = Self.fileNames.first(where: { $0.key == self }) { return named.name }
        if case .character(let character) = self { return String(character) }
        return echo
    }

    /// The key a keymap file names: one visible character (not a space or a control), or a name of
    /// ``fileNames`` in any case.
    init?(fileName: String) {
        if fileName.count == 1, let character = fileName.first {
            guard !character.isWhitespace,
                !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { return nil }
            self = .character(character)
            return
        }
        guard let named = Self.fileNames.first(where: { $0.name.lowercased() == fileName.lowercased() }) else {
            return nil
        }
        self = named.key
    }
}
