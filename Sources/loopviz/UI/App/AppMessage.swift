import LoopEngine

/// A key as the UI understands it, whatever the terminal sent.
enum Key: Hashable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end, tab, backTab, enter, escape, backspace
}

/// Everything that can happen to the UI.
enum AppMessage: Equatable {
    case key(Key)
    /// The playback clock ticked: `seconds` of wall time passed since the last tick.
    case tick(seconds: Double)
    case resize(width: Int, height: Int)
    /// The terminal came back from Ctrl-Z.
    case resumed
    /// `--clock real`: what the real threads did since the last batch (and how many events the buffer dropped),
    /// whether everything has ended, and the limit that halted the run (the nesting or the thread limit), if one did.
    case live(events: [LoopEvent], dropped: Int, ended: Bool, halt: VirtualWorld.HaltReason? = nil)
    /// `--follow`: what the runtime's last look at the followed recording found.
    case followed(FollowBatch)
    /// The runtime read the lesson `update` asked for (``Effect/openLesson(_:)``).
    case lessonOpened(LessonOpening)
    /// The runtime ran the engine as `update` asked (``Effect/runEngine(_:)``).
    case engineRan(EngineResult)
    /// A lesson read again at a step (``LessonRequest/keepStep``): shows that step once the trace reaches it (or
    /// its last, within a few doublings of the horizon), saying how many of the user's pokes were left out.
    case showKeptStep(Int, pokesLeftOut: Int)
    /// A message handled again once the longer trace it asked for is computed (``NeedsLongerTrace``).
    indirect case again(AppMessage)
    /// The runtime saved the bookmarks (``Effect/saveBookmarks(path:text:)``); why not, when it could not.
    case bookmarksSaved(path: String, problem: String?)
    /// The runtime ran the second run `V` asked for and compared it with the shown one
    /// (``Effect/compareRuns(_:)``).
    case comparisonRan(RunComparison)
    /// The runtime read the window of a long trace file that `update` asked for (``Effect/readReplayWindow(_:)``).
    case replayWindowRead(TraceWindow)
}

/// What `update` asks the runtime to do (all I/O stays outside `update`).
enum Effect: Equatable {
    case quit
    /// Everything on screen may be stale (after a resume): redraw all of it.
    case redrawAll
    /// `--clock real`: perform these actions now, from the UI's thread, as an outside event addressed to a thread.
    case perform([Action], thread: String)
    /// Read and parse a lesson of the library, and answer with ``AppMessage/lessonOpened(_:)``.
    case openLesson(LessonRequest)
    /// `--clock real`: start the scenario on real threads now (the lesson's card was closed), or again from the
    /// start (`R`), stopping and joining the threads of the run before.
    case startLive
    /// Run the engine (off the UI's thread: a long trace takes most of a second) and answer with
    /// ``AppMessage/engineRan(_:)``. `update` asks for one run at a time; messages that arrive meanwhile wait.
    case runEngine(EngineRequest)
    /// Write the bookmarks' text to their file (``BookmarkFile/save(_:to:)``) and answer with
    /// ``AppMessage/bookmarksSaved(path:problem:)``.
    case saveBookmarks(path: String, text: String)
    /// `V`: run the engine for the second run and compare it with the shown one (``ComparisonRequest/compare()``),
    /// and answer with ``AppMessage/comparisonRan(_:)``. The runtime does it on the UI's thread, as `X` explores:
    /// the screen waits for one run, within the event budget.
    case compareRuns(ComparisonRequest)
    /// Read a window of the long trace file replayed, and answer with ``AppMessage/replayWindowRead(_:)``. The
    /// runtime does it on the UI's thread: a few megabytes.
    case readReplayWindow(ReplayWindowRequest)
}
