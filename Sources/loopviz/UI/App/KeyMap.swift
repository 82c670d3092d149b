/// What a key does. One table (`KeyMap.bindings`, or a user's keymap file over it: `AppModel.keys`) drives both
/// `update` and the help overlay, so the help can never disagree with the keys. A key may mean one thing in the loop view and another in the pool view.
enum Command: Hashable {
    case togglePause, stepForward, stepBack, nextIteration, previousIteration, faster, slower, goTo
    case focusNext, focusPrevious, scrollUp, scrollDown, pageUp, pageDown
    case toggleCycleView, help, quit, closeOverlay, showCard
    case selectItem(Int), nextItem, previousItem, pickThread
    case fireTimer, signalAndWake, signalOnly, sendMessage, wakeUp, stop, performBlock, scroll, nestedRun
    case addTimer, addSource, addObserver, removeItem
    case togglePoolView, selectPreviousOperation, selectNextOperation, nextQueue
    case addOperation, cancelOperation, cancelAllOperations, toggleSuspended, raiseLimit, lowerLimit
    case togglePresenter, togglePokeLock, hidePanel, showPanel, nextNarration, toggleQuiz
    case openPicker, previousLesson, nextLesson, reloadLesson
    case search, nextMatch, previousMatch, showLink, showStats
    case toggleBookmark, nextBookmark, previousBookmark, listBookmarks, writeNote
    case nextPalette, followNewest
    case listOutcomes, compareRuns
    case zoomIn, zoomOut, panEarlier, panLater, fitTimeline
}

struct KeyBinding: Equatable {
    var keys: [Key]
    /// How the keys are written in the help (`Space`, `n →`).
    var label: String
    var help: String
    var group: String
    var command: Command
    /// The views where the binding applies.
    var views: Set<AppModel.View> = [.loop, .pool]
}

/// The keys in force: `KeyMap.standard` (the table below, vim-like), or the user's keymap file read over it
/// (`KeyMapFile`; `AppModel.keys` holds the one in force). The static members are the defaults: `update`,
/// `render` and the screen reader read `model.keys`, so a rebound key shows everywhere.
struct KeyMap: Equatable {
    /// The bindings in force, in the default table's order.
    var bindings: [KeyBinding]

    /// The default keys.
    static let standard = KeyMap(bindings: bindings)

    /// The default table.
    static let bindings: [KeyBinding] = [
        KeyBinding(
            keys: [.character(" ")], label: "Space", help: "pause / resume", group: "play", command: .togglePause),
        KeyBinding(
            keys: [.character("n"), .right], label: "n →", help: "next event (pool view: next pool event)",
            group: "play",
            command: .stepForward),
        KeyBinding(
            keys: [.character("p"), .left], label: "p ←", help: "previous event (pool view: previous pool event)",
            group: "play", command: .stepBack
        ),
        // The pool view steps through pool events: a worker's iterations are the loop view's story.
        KeyBinding(
            keys: [.character("]")], label: "]", help: "next iteration", group: "play", command: .nextIteration,
            views: [.loop]),
        KeyBinding(
            keys: [.character("[")], label: "[", help: "previous iteration", group: "play", command: .previousIteration,
            views: [.loop]),
        KeyBinding(
            keys: [.character("+"), .character("=")], label: "+", help: "faster", group: "play", command: .faster),
        KeyBinding(
            keys: [.character("-")], label: "-", help: "slower (down to a step every 4 s)", group: "play",
            command: .slower),
        KeyBinding(keys: [.character("g")], label: "g", help: "go to event number", group: "play", command: .goTo),
        KeyBinding(
            keys: [.end], label: "End", help: "last step, or follow (--follow)", group: "play",
            command: .followNewest),
        KeyBinding(
            keys: [
                .character("1"), .character("2"), .character("3"), .character("4"), .character("5"), .character("6"),
                .character("7"), .character("8"), .character("9"),
            ], label: "1-9", help: "select an item of the loop", group: "poke", command: .selectItem(0), views: [.loop]),
        KeyBinding(
            keys: [.character("e")], label: "e", help: "select the next item (any of them)", group: "poke",
            command: .nextItem, views: [.loop]),
        KeyBinding(
            keys: [.character("E")], label: "E", help: "select the previous item", group: "poke",
            command: .previousItem, views: [.loop]),
        KeyBinding(
            keys: [.character("f")], label: "f", help: "fire the selected timer now", group: "poke",
            command: .fireTimer, views: [.loop]),
        KeyBinding(
            keys: [.character("s")], label: "s", help: "signal the selected source0 and wake the loop", group: "poke",
            command: .signalAndWake, views: [.loop]),
        KeyBinding(
            keys: [.character("S")], label: "S", help: "signal it without a wake-up", group: "poke",
            command: .signalOnly, views: [.loop]),
        KeyBinding(
            keys: [.character("o")], label: "o", help: "send a message to the selected port", group: "poke",
            command: .sendMessage, views: [.loop]),
        KeyBinding(
            keys: [.character("w")], label: "w", help: "wake the loop up", group: "poke", command: .wakeUp,
            views: [.loop]),
        KeyBinding(
            keys: [.character("x")], label: "x", help: "stop the current run", group: "poke", command: .stop,
            views: [.loop]),
        KeyBinding(
            keys: [.character("b")], label: "b", help: "perform a block (no wake-up)", group: "poke",
            command: .performBlock, views: [.loop]),
        KeyBinding(
            keys: [.character("m")], label: "m", help: "scroll: run the tracking mode for 0.8 s", group: "poke",
            command: .scroll, views: [.loop]),
        KeyBinding(
            keys: [.character("N")], label: "N", help: "start a nested run (0.3 s)", group: "poke", command: .nestedRun,
            views: [.loop]),
        KeyBinding(
            keys: [.character("a")], label: "a", help: "add a repeating timer", group: "poke", command: .addTimer,
            views: [.loop]),
        KeyBinding(
            keys: [.character("A")], label: "A", help: "add a source0", group: "poke", command: .addSource,
            views: [.loop]),
        KeyBinding(
            keys: [.character("O")], label: "O", help: "add an observer", group: "poke", command: .addObserver,
            views: [.loop]),
        KeyBinding(
            keys: [.character("r")], label: "r", help: "remove (invalidate) the selected item", group: "poke",
            command: .removeItem, views: [.loop]),
        KeyBinding(
            keys: [.character("a")], label: "a", help: "add an operation (work 1 s, checks every 100 ms)",
            group: "pool", command: .addOperation, views: [.pool]),
        KeyBinding(
            keys: [.character("c")], label: "c", help: "cancel the selected operation", group: "pool",
            command: .cancelOperation, views: [.pool]),
        KeyBinding(
            keys: [.character("C")], label: "C", help: "cancel all operations of the queue", group: "pool",
            command: .cancelAllOperations, views: [.pool]),
        KeyBinding(
            keys: [.character("s")], label: "s", help: "suspend / resume the queue", group: "pool",
            command: .toggleSuspended, views: [.pool]),
        KeyBinding(
            keys: [.character(">"), .character(".")], label: "> .", help: "raise the limit by one", group: "pool",
            command: .raiseLimit, views: [.pool]),
        KeyBinding(
            keys: [.character("<"), .character(",")], label: "< ,", help: "lower the limit by one", group: "pool",
            command: .lowerLimit, views: [.pool]),
        KeyBinding(
            keys: [.up, .character("k")], label: "↑ k", help: "select the operation above", group: "pool",
            command: .selectPreviousOperation, views: [.pool]),
        KeyBinding(
            keys: [.down, .character("j")], label: "↓ j", help: "select the operation below", group: "pool",
            command: .selectNextOperation, views: [.pool]),
        KeyBinding(
            keys: [.tab], label: "Tab", help: "show the next queue", group: "pool", command: .nextQueue,
            views: [.pool]),
        KeyBinding(
            keys: [.character("/")], label: "/",
            help: "search, filter (thread: kind: item: mode: words)", group: "find",
            command: .search),
        KeyBinding(
            keys: [.character("*")], label: "*", help: "next event the filter keeps", group: "find",
            command: .nextMatch),
        KeyBinding(
            keys: [.character("#")], label: "#", help: "previous event the filter keeps", group: "find",
            command: .previousMatch),
        KeyBinding(
            keys: [.character("y")], label: "y", help: "the link to this step (loopviz FILE@N)", group: "find",
            command: .showLink),
        KeyBinding(
            keys: [.character("H")], label: "H",
            help: "totals: per item, per activity, per iteration", group: "find",
            command: .showStats, views: [.loop]),
        KeyBinding(
            keys: [.character("B")], label: "B", help: "bookmark this step (again: remove it)", group: "find",
            command: .toggleBookmark),
        KeyBinding(
            keys: [.character("'")], label: "'", help: "next bookmark", group: "find", command: .nextBookmark),
        KeyBinding(
            keys: [.character("\"")], label: "\"", help: "previous bookmark", group: "find",
            command: .previousBookmark),
        KeyBinding(
            keys: [.character(";")], label: ";", help: "write a note on this step (bookmarks it)", group: "find",
            command: .writeNote),
        KeyBinding(
            keys: [.character("M")], label: "M", help: "the bookmarks and notes: go to one", group: "find",
            command: .listBookmarks),
        KeyBinding(
            keys: [.character("X")], label: "X", help: "the other outcomes of the races (schedules): open one",
            group: "find", command: .listOutcomes, views: [.loop]),
        KeyBinding(
            keys: [.character("V")], label: "V",
            help: "side by side: vs without your pokes / default schedule", group: "find",
            command: .compareRuns, views: [.loop]),
        KeyBinding(
            keys: [.character("L")], label: "L", help: "the lessons: pick one (/ filters)", group: "lesson",
            command: .openPicker),
        KeyBinding(
            keys: [.character("{")], label: "{", help: "previous lesson", group: "lesson", command: .previousLesson),
        KeyBinding(
            keys: [.character("}")], label: "}", help: "next lesson", group: "lesson", command: .nextLesson),
        KeyBinding(
            keys: [.character("R")], label: "R", help: "read the lesson's file again (keeps the step)",
            group: "lesson", command: .reloadLesson),
        KeyBinding(
            keys: [.character("P")], label: "P", help: "pool view (queue, worker threads) / loop view",
            group: "view", command: .togglePoolView),
        KeyBinding(
            keys: [.character("t")], label: "t", help: "pick the thread shown (or follow the step)",
            group: "view", command: .pickThread, views: [.loop]),
        KeyBinding(keys: [.tab], label: "Tab", help: "next panel", group: "view", command: .focusNext, views: [.loop]),
        KeyBinding(
            keys: [.backTab], label: "S-Tab", help: "previous panel", group: "view", command: .focusPrevious,
            views: [.loop]),
        KeyBinding(
            keys: [.up, .character("k")], label: "↑ k", help: "scroll up", group: "view", command: .scrollUp,
            views: [.loop]),
        KeyBinding(
            keys: [.down, .character("j")], label: "↓ j", help: "scroll down", group: "view", command: .scrollDown,
            views: [.loop]),
        KeyBinding(
            keys: [.pageUp, .character("h")], label: "PgUp h", help: "page up", group: "view", command: .pageUp),
        KeyBinding(
            keys: [.pageDown, .character("l")], label: "PgDn l", help: "page down", group: "view", command: .pageDown),
        KeyBinding(
            keys: [.character("v")], label: "v", help: "documented 10 steps / what CF really does", group: "view",
            command: .toggleCycleView, views: [.loop]),
        KeyBinding(
            keys: [.character("i")], label: "i", help: "show the lesson's card again",
            group: "view", command: .showCard),
        KeyBinding(
            keys: [.character("T")], label: "T", help: "colours: standard / colour-blind safe / light",
            group: "view", command: .nextPalette),
        // The timeline is the loop view's; `z` and `Z` were taken (presenter panels), so `>` and `<`, which only the
        // pool view used, zoom.
        KeyBinding(
            keys: [.character(">")], label: ">", help: "timeline: zoom in around the step (to 1µs a column)",
            group: "view", command: .zoomIn, views: [.loop]),
        KeyBinding(
            keys: [.character("<")], label: "<", help: "timeline: zoom out (to the whole run)", group: "view",
            command: .zoomOut, views: [.loop]),
        KeyBinding(
            keys: [.character("(")], label: "(", help: "timeline: pan earlier (half a window)", group: "view",
            command: .panEarlier, views: [.loop]),
        KeyBinding(
            keys: [.character(")")], label: ")", help: "timeline: pan later (back to the step)", group: "view",
            command: .panLater, views: [.loop]),
        KeyBinding(
            keys: [.character("0")], label: "0", help: "timeline: fit the whole run", group: "view",
            command: .fitTimeline, views: [.loop]),
        KeyBinding(keys: [.character("?")], label: "?", help: "this help", group: "view", command: .help),
        KeyBinding(
            keys: [.escape], label: "Esc", help: "close the overlay, else clear the filter",
            group: "view",
            command: .closeOverlay),
        KeyBinding(keys: [.character("q")], label: "q", help: "quit", group: "view", command: .quit),
        KeyBinding(
            keys: [.character("D")], label: "D", help: "presenter mode: larger Why, pokes locked",
            group: "class", command: .togglePresenter),
        KeyBinding(
            keys: [.character("U")], label: "U", help: "unlock / lock the pokes (presenter mode)", group: "class",
            command: .togglePokeLock),
        KeyBinding(
            keys: [.character("z")], label: "z", help: "hide the focused panel (presenter; Tab picks)",
            group: "class", command: .hidePanel, views: [.loop]),
        KeyBinding(
            keys: [.character("Z")], label: "Z", help: "show the panel hidden last (presenter)", group: "class",
            command: .showPanel, views: [.loop]),
        KeyBinding(
            keys: [.character("d"), .enter], label: "d Enter", help: "play to the next narration (say), pause",
            group: "class", command: .nextNarration),
        KeyBinding(
            keys: [.character("G")], label: "G", help: "quiz: at ask lines / every step / off",
            group: "class", command: .toggleQuiz),
    ]

    /// The default bindings of `view`, in table order.
    static func bindings(in view: AppModel.View) -> [KeyBinding] { standard.bindings(in: view) }

    /// The default command for `key` in `view`, if any.
    static func command(for key: Key, in view: AppModel.View = .loop) -> Command? {
        standard.command(for: key, in: view)
    }
}
