import LoopEngine

/// Everything the UI shows, as a value. `update` changes it; `render` draws it.
struct AppModel: Equatable {
    enum Panel: String, CaseIterable {
        case cycle, loop, mode, timeline, log
    }

    enum Overlay: Equatable {
        case none
        case help
        /// `g`: typing an event number.
        case goTo(String)
        /// `t`: choosing the thread whose loop is shown; the row highlighted (0: follow the current event).
        case threads(Int)
        /// `L`: the lesson picker.
        case picker(LessonPicker)
        /// At the last step: the lesson's promises checked against this run, and its "Try" again.
        case summary(LessonSummary)
        /// The lesson's card (`i`, and when a lesson opens): closed by any key.
        case card
        /// `/`: typing a search and filter of the events.
        case search(SearchPrompt)
        /// `M`: the bookmarks; the row highlighted.
        case bookmarks(Int)
        /// `;`: typing a note on the step shown.
        case note(String)
        /// `X`: the scenario's outcomes under other schedules; Enter opens one.
        case outcomes(OutcomeList)
        /// `H`: the aggregate views (totals per item, per activity, per iteration).
        case stats(StatsOverlay)
        /// `V`: the run shown beside a second run (without the pokes, or the default schedule), step by step.
        case versus(RunComparison)
    }

    enum CycleView: Equatable {
        /// Apple's documented ten steps.
        case documented
        /// What CFRunLoop.c really does.
        case implementation
    }

    /// What the screen shows: one thread's loop, or the operation queues and their worker threads.
    enum View: Equatable {
        case loop
        case pool
    }

    struct Theme: Equatable {
        var color = true
        var unicode = true
        var palette: Palette = .standard
        /// `--reduce-motion`: the UI opens paused and plays at most a step a second.
        var reduceMotion = false
    }

    /// The colours (`T` cycles, `--theme` or `LOOPVIZ_THEME` chooses): every state keeps its glyph and attribute
    /// too, so colour is never the only sign.
    enum Palette: String, CaseIterable {
        case standard
        /// No pair told apart by red against green or blue against purple: blue, yellow and attributes.
        case colorblind
        /// For a light background: no yellow or cyan text.
        case light
    }

    /// Playback speeds: steps per second, then real time (virtual seconds per wall second).
    /// The fastest speed of `--reduce-motion`: 1 step/s.
    static let reducedMotionSpeed = 2
    static let speeds: [(label: String, stepsPerSecond: Double?)] = [
        ("0.25 step/s", 0.25), ("0.5 step/s", 0.5), ("1 step/s", 1), ("2 steps/s", 2), ("4 steps/s", 4),
        ("8 steps/s", 8), ("16 steps/s", 16), ("32 steps/s", 32), ("real time", nil),
    ]

    var session: Session
    var fileName: String
    /// Events shown so far (the current step is `cursor - 1`).
    var cursor = 0
    /// The furthest step reached: behind it the status says REPLAY.
    var furthest = 0
    var isPaused = false
    var speedIndex = 4
    var focus: Panel = .log
    /// A scenario with queues opens on the pool view (`P` switches).
    var view: View = .loop
    /// The queue the pool view shows (index into the scenario's queues; Tab cycles when there are several).
    var shownQueue = 0
    /// The operation the pool keys act on, by name (names survive a recomputed trace; indexes would not).
    var selectedOperation: String?
    /// Lines scrolled up from the newest, in the log.
    var logScroll = 0
    var overlay: Overlay = .none
    /// The first line of the help overlay shown, when it is taller than the screen.
    var helpScroll = 0
    /// `/` in the help: what is typed to filter its keys (nil: every line shown).
    var helpFilter: String?
    var cycleView: CycleView = .implementation
    var width = 80
    var height = 24
    var theme = Theme()
    /// The keys in force: the defaults, or the user's keymap file over them (`--keymap`, `LOOPVIZ_KEYMAP`).
    var keys = KeyMap.standard
    /// The thread whose loop the loop view shows, chosen with `t`; nil: the current event's thread.
    var shownThread: String?
    /// The item the item keys act on, per thread (index into the thread's items).
    var selectedItems: [String: Int] = [:]
    /// A short message shown in the status bar after a key did something (or could not).
    var flash: StatusMessage?
    var quitRequested = false
    /// Fractional steps owed to playback (steps-per-second speeds).
    var stepCredit = 0.0
    /// The virtual time playback has reached (real-time speed; the loop may be asleep past the last event).
    var playClock: LoopInstant = .zero
    /// The lessons `L`, `{` and `}` go through (empty for the built-in lesson and a trace).
    var library = LessonLibrary()
    /// The lesson asked for does not parse (or cannot be read): its diagnostics replace the panels.
    var problem: LessonProblem?
    /// The language of the lesson's narration and card (`--lang`, default from the locale); the UI's own words stay
    /// English.
    var language: Language = .en
    /// Presenter mode, the quiz, the recording (Classroom/).
    var classroom = Classroom()
    /// The first line of the lesson card shown, when the card is taller than the screen.
    var cardScroll = 0
    /// `--clock real`: the real threads were started (they wait until the lesson's card is closed; `R` starts
    /// them again).
    var liveStarted = false
    /// The keys (and lessons read) that arrived while the engine was computing: handled in order once it answers,
    /// so that none is lost and none acts on a trace about to be replaced.
    var queued: [AppMessage] = []
    /// True while `update` handles a message ``AppMessage/again(_:)``: a move past the end then shows the last
    /// step rather than asking for yet another run (one key, one doubling, as a search for a step has none).
    var isHandlingAgain = false
    /// `/`: the events the log and the timeline keep, and what `*` and `#` go to; nil: every event. Setting
    /// another filter makes its index again (empty until ``syncFilterIndex()``).
    var filter: EventFilter? {
        get { filterIndex?.filter }
        set {
            guard newValue != filterIndex?.filter else { return }
            filterIndex = newValue.map(FilterIndex.init)
        }
    }
    /// The events ``filter`` keeps, kept up to the trace by ``syncFilterIndex()`` after every message.
    var filterIndex: FilterIndex?
    /// The steps marked (`B`) and their notes (`;`).
    var bookmarks = Bookmarks()
    /// The file the bookmarks are kept in (``BookmarkFile``); nil for the built-in lesson, whose marks last for
    /// the session.
    var bookmarksPath: String?
    /// The timeline's zoom and pan (`>` `<` `(` `)` `0`).
    var timelineZoom = TimelineZoom()

    init(session: Session, fileName: String) {
        self.session = session
        self.fileName = fileName
        if session.hasQueues { view = .pool }
    }

    var trace: LoopTrace { session.trace }
    var currentEvent: LoopEvent? { cursor > 0 && cursor <= trace.count ? trace[cursor - 1] : nil }
    /// The virtual time shown: the time of the current step.
    var now: LoopInstant { currentEvent?.time ?? .zero }
    var speedLabel: String { Self.speeds[speedIndex].label }
    /// True while the engine computes the trace (``Session/pending``): the status bar says "computing…".
    var isComputing: Bool { session.pending != nil || session.pendingWindow != nil }

    static let minimumWidth = 80
    static let minimumHeight = 24
    var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// The status bar's first word: how the steps shown move. Each word's meaning is in the help (``meaning``).
    enum Playback: String, CaseIterable {
        /// The virtual clock plays the steps, as fast as the speed says.
        case playing = "PLAYING"
        case paused = "PAUSED"
        /// Playing steps already shown: the furthest step reached is ahead (n, p or g moved back).
        case rewound = "REWOUND"
        /// `--clock real`: real threads run the scenario and the screen follows them as they go; `--follow`: the
        /// newest event of a recording its program is still writing.
        case live = "LIVE"
        /// At the run's last step, not paused: there is nothing left to play.
        case ended = "END"

        /// What the word means, for the help, with the keys in force.
        func meaning(_ keys: KeyMap = .standard) -> String {
            let pause = keys.word(for: .togglePause)
            let (next, back, goTo) = (keys.word(for: .stepForward), keys.word(for: .stepBack), keys.word(for: .goTo))
            return switch self {
            case .playing: "steps play on the virtual clock (\(pause) pauses)"
            case .paused: "nothing moves until \(pause), \(next) or \(back)"
            case .rewound: "replaying steps seen before (\(next) \(back) \(goTo) went back)"
            case .live: "--clock real, --follow: shown as it runs"
            case .ended: "the run's last step: nothing left to play"
            }
        }
    }

    var playback: Playback {
        if isPaused { return .paused }
        if session.isLive && !session.isReplay { return .live }
        if session.isFollowing && cursor >= trace.count && !session.liveEnded && session.followProblem == nil {
            return .live
        }
        if cursor >= trace.count && !session.canExtend { return .ended }
        return cursor < furthest ? .rewound : .playing
    }

    /// True for the events the current view steps through: every event in the loop view; in the pool view the
    /// pool's events and the lesson's notes (a worker's loop turning between operations is the loop view's story).
    func isShown(_ event: LoopEvent) -> Bool {
        view == .loop || event.kind.isPool || event.kind == .note
    }

    /// The operation queues at the current step.
    var pool: PoolSnapshot { session.poolSnapshot(after: cursor) }

    /// The queue the pool view shows at the current step.
    var shownQueueState: PoolSnapshot.Queue? {
        let queues = pool.queues
        return queues.isEmpty ? nil : queues[min(shownQueue, queues.count - 1)]
    }

    /// The thread whose loop the loop view shows: the one chosen with `t`, else the current event's, else the
    /// first.
    var loopThread: String {
        if let shownThread { return shownThread }
        // A queue's own events (an operation added, made ready) name the queue, not a thread: the thread is that
        // of the latest event before them that names one (looked for among the last thousand events).
        let queues = session.script.scenario.queues.map(\.name)
        var index = min(cursor, trace.count) - 1
        while index >= max(0, cursor - 1000) {
            let loop = trace[index].loop
            if queues.isEmpty || !queues.contains(loop) { return loop }
            index -= 1
        }
        return session.primaryThread.name
    }

    /// The loop thread's declaration, when the file declares it (a pool's worker is started by the run).
    var loopThreadSpec: ThreadSpec? { session.declaredThread(named: loopThread) }

    /// The loop thread's items, in declaration order (the targets of the item keys).
    var items: [ItemSpec] { loopThreadSpec?.items ?? [] }

    /// The item the item keys act on: an index into ``items``.
    var selectedItem: Int {
        get { min(selectedItems[loopThread] ?? 0, max(0, items.count - 1)) }
        set { selectedItems[loopThread] = newValue }
    }

    /// Every thread with a loop, in the order they appear: the declared ones, then those the run started (a pool's
    /// workers, detached threads) as far as the trace is computed.
    var threadNames: [String] { session.snapshots(after: trace.count).map(\.thread) }

    /// True when `render` would draw `other` exactly as it draws this model: they differ at most in how playback
    /// keeps time between steps (the step credit, the play clock), which no panel shows. The runtime draws a
    /// frame only when this is false.
    func drawsLike(_ other: AppModel) -> Bool {
        var other = other
        other.stepCredit = stepCredit
        other.playClock = playClock
        return self == other
    }
}
