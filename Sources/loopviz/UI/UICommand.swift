import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `loopviz [FILE]`: the interactive UI; `loopviz screen FILE`: one rendered screen as text.
enum UICommand {
    /// The UI: `loopviz [FILE]`, no command word.
    static let ui = LoopvizCommand(
        name: "", synopsis: "", summary: "", options: options, help: help,
        run: { scanner throws(CommandLineProblem) in try run(scanner, headless: false) })

    /// `loopviz screen`.
    static let screen = LoopvizCommand(
        name: "screen", synopsis: "screen [FILE]", summary: "Print the screen the UI shows at a step, as text.",
        options: screenCommandOptions, help: screenHelp,
        run: { scanner throws(CommandLineProblem) in try run(scanner, headless: true) })

    /// The UI's options, in its help's order.
    static let options: [CommandOption] = [
        CommandOption(
            "--no-color", help: "Monochrome (also when NO_COLOR is set): state shows through glyphs and bold."),
        CommandOption("--ascii", help: "ASCII glyphs only, for terminals without Unicode."),
        CommandOption(
            "--theme", .text(placeholder: "PALETTE"),
            help: """
                standard, colorblind (blue and yellow, underlines beside colour) or light (for
                a light background); also LOOPVIZ_THEME; T cycles them in the UI.
                """),
        CommandOption(
            "--reduce-motion",
            help: "Open paused and play at most a step a second (also LOOPVIZ_REDUCE_MOTION=1)."),
        CommandOption(
            "--screen-reader",
            help: """
                One line a step on standard output, for a screen reader: no box drawing, no
                animation, each key announced, the narration and the Why in full; type keys,
                then Enter (Enter alone: the next step).
                """),
        KeyMapFile.option,
        CommandOption(
            "--clock", .text(placeholder: "CLOCK"),
            help: """
                virtual (the default: a deterministic replay you can step back through) or
                real (the scenario runs on real threads, asleep in the kernel when idle; your
                keys act on them at once; stepping back shows what was recorded).
                """),
        CommandOption(
            "--step", .text(placeholder: "N"),
            help: "Open at event N, paused (also FILE@N; screen: the number of events shown)."),
        CommandOption(
            "--follow", .text(placeholder: "FILE.jsonl"),
            help: """
                Show a recording as it is written (LoopRecorder's in place): read-only, the
                view on the newest event until you step back (End follows again), hang marks
                as they happen; following stops when the recording says the program ended.
                """),
        screenOptions[0],
        EventBudget.declaration(
            help: """
                Compute at most N events of the replay (default 1000000, at most 10000000):
                the clock stops there and the status bar says so (screen: on standard error,
                exit 3).
                """),
        IterationCostOption.declaration,
        LanguageOption.declaration,
        screenOptions[1],
        CommandOption(
            "--record", .text(placeholder: "FILE.cast"),
            help: """
                Record the session as an asciicast v2 file (play it with `asciinema play
                FILE.cast`): written to a temporary file beside it, renamed to FILE.cast when
                the UI ends (q, a signal, end of input); at most 64 MiB, then the recording
                stops and the status bar says so. Never onto an input (refused, exit 2); a
                link is followed, a device or FIFO written directly; a write error (a full
                disk) stops it, keeps the old FILE.cast and ends with exit 2. Not with `screen`.
                """),
    ]

    /// The options the UI accepts for `screen`'s sake (its help lists them as such): `--size`, `--card`.
    static let screenOptions: [CommandOption] = [
        CommandOption("--size", .text(placeholder: "WxH"), help: "(screen) the screen size, default 80x24."),
        CommandOption("--card", help: "(screen) show the lesson's card over the screen, as the UI opens."),
    ]

    /// The UI's options that also start it without a command word (`loopviz --ascii lesson.loop`).
    static var launchOptions: [CommandOption] { options.filter { !screenOptions.contains($0) } }

    /// `screen`'s options, in its help's order; `--clock` and `--record` are the UI's, refused with the reason.
    static let screenCommandOptions: [CommandOption] = [
        CommandOption(
            "--step", .text(placeholder: "N"),
            help: "The number of events shown (default: the last step of the first 5 seconds; also FILE@N)."),
        CommandOption(
            "--size", .text(placeholder: "WxH"),
            help: """
                The screen size, default 80x24 (at most 1000x1000; below 80x24 the screen
                says what size is needed).
                """),
        CommandOption("--no-color", help: "As the UI's (no effect on the characters)."),
        CommandOption("--ascii", help: "ASCII glyphs only."),
        CommandOption(
            "--theme", .text(placeholder: "PALETTE"), help: "As the UI's (no effect on the characters)."),
        CommandOption("--reduce-motion", help: "As the UI's (no effect on one screen)."),
        CommandOption(
            "--keymap", .text(placeholder: "FILE"),
            help: "As the UI's: the status bar, the help and the hints name the keys of FILE."),
        EventBudget.declaration(
            help: "Compute at most N events of the replay (default 1000000, at most 10000000)."),
        IterationCostOption.declaration,
        LanguageOption.declaration,
        CommandOption("--card", help: "Show the lesson's card over the screen, as the UI opens a lesson."),
        CommandOption("--clock", .text(placeholder: "CLOCK"), help: "", refusedWithReason: true),
        CommandOption("--record", .text(placeholder: "FILE.cast"), help: "", refusedWithReason: true),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Watch a run loop turn, live, and poke it.

            USAGE: loopviz [FILE.loop[@N] | FOLDER | FILE.loop... | FILE.jsonl[@N]] [--step N] [--no-color] [--ascii]
                           [--clock virtual|real] [--max-events N] [--iteration-cost TIME] [--lang en|zh]
                           [--record FILE.cast] [--keymap FILE]
                   loopviz screen [FILE.loop | FOLDER | FILE.jsonl] [--step N] [--size WxH] [--no-color] [--ascii]
                                  [--max-events N] [--iteration-cost TIME] [--lang en|zh] [--card] [--keymap FILE]

            Without a FILE, loopviz opens its built-in lesson: a kept-alive thread with a timer, a source0, a port and
            an observer. A lesson opens on its card (what it teaches, what to watch for, what to try): any key closes
            it, i opens it again. Press ? in the UI for the keys (the defaults; --keymap FILE gives your own, and
            `loopviz keymap` prints them). `screen` prints the screen the UI would show at step N (default: the last
            step of the first 5 seconds) as text, without a terminal.

            A FOLDER (`loopviz examples/`) opens its .loop lessons in the lesson picker; several FILEs open as a
            playlist, at the first. L picks a lesson, { and } go to the previous and next one, R reads the lesson's
            file again after an edit (keeping the step); a lesson that does not parse shows its diagnostics in the UI.
            One FILE.loop goes through the lessons of its folder. At most \(LessonLibrary.maximumLessons) lessons are
            listed (and \(LessonLibrary.maximumFolderEntries) names of a folder read); the picker reads at most
            \(LessonLibrary.maximumListedFileSize >> 10) KiB of each file and \(LessonLibrary.maximumListedBytes >> 20) MiB in all (the lessons after that are listed
            by file name). At a lesson's last step a summary checks its `expect` lines against the run shown (as
            `loopviz check` does).

            A FILE.jsonl (a LoopRecorder recording, or `loopviz run --trace jsonl`) opens as a read-only replay: step
            through it, back and forth, with the loop panel, timeline, log and Why pane; pokes are unavailable. A
            corrupt file is refused with its line and column (exit 2); a cut-short last line is left out with a warning.
            """,
        afterOptions: """
            EXIT STATUS:
              0    quit with q (screen: the screen was printed)
              2    invalid input or usage, or (the UI) no terminal, or a cast that cannot be written (--record)
            \(ExitStatus.helpText(budget: "(screen) the event budget (--max-events) stopped the replay; the screen is printed", signals: "the terminal restored, the cast (--record) kept"))
            """)

    /// `loopviz screen --help`: the command's own usage and exit statuses, not the UI's.
    static let screenHelp = CommandHelp(
        beforeOptions: """
            OVERVIEW: Print the screen the UI shows at a step, as text, without a terminal.

            USAGE: loopviz screen [FILE.loop[@N]] [--step N] [--size WxH] [--no-color] [--ascii] [--max-events N]
                                  [--iteration-cost TIME] [--lang en|zh] [--card]

            Without a FILE, the built-in lesson. The scenario is replayed on the virtual clock (a real-clock run is
            never the same twice) and the screen after its first N events is printed; colours and attributes are
            not printed, only the characters.
            """,
        afterOptions: """
            EXIT STATUS:
              0    the screen was printed
              2    invalid input or usage (the file, an option, --clock real), or the replay stopped at a limit of
                   the scenario (the message says which); the screen is printed before that message
            \(ExitStatus.helpText(budget: "the event budget (--max-events) stopped the replay; the screen is printed", signals: "nothing left behind"))
            """)

    static func run(_ scanner: ArgumentScanner, headless: Bool) throws(CommandLineProblem) -> ExitStatus {
        if !headless, let path = scanner.value("--follow") { return try follow(path, scanner) }
        var paths = scanner.positional
        // `FILE@N`: a link to step N (``DeepLink``); `--step N` says the same and wins.
        var linkedStep: Int?
        if paths.count == 1, let link = DeepLink(paths[0], exists: { access($0, F_OK) == 0 }) {
            paths = link.path.map { [$0] } ?? []
            linkedStep = link.step
        }
        var step = linkedStep
        if let text = scanner.value("--step") {
            guard let number = Int(text), number >= 0 else { throw .notAStep(text) }
            step = number
        }
        let opensLibrary = paths.count > 1 || paths.first.map(isFolder) == true
        let real = scanner.value("--clock") == "real"
        if opensLibrary && (real || paths.contains(where: TraceLoader.isTrace)) {
            throw real ? .realClockRunsOneFile : .traceOpensAlone
        }
        if let clock = scanner.value("--clock"), clock != "virtual" && clock != "real" { throw .notAClock(clock) }
        if headless && scanner.value("--record") != nil { throw .screenDoesNotRecord }
        if real && headless { throw .screenIsVirtual }
        if real && step != nil { throw .goesWith(option: "--step", other: "--clock virtual") }
        if real && scanner.has("--screen-reader") {
            throw .goesWith(option: "--screen-reader", other: "--clock virtual")
        }
        // The keymap is read before anything else is: a problem in it ends loopviz before the terminal is touched.
        let keys = try KeyMapFile.keys(scanner)
        let iterationCost = try IterationCostOption.value(in: scanner)
        let budget = try EventBudget.limit(scanner)
        let language = try LanguageOption.value(in: scanner)
        var model: AppModel
        let loaded =
            opensLibrary
            ? loadLibrary(paths, iterationCost: iterationCost, maxEvents: budget)
            : loadModel(paths.first, iterationCost: iterationCost, maxEvents: budget)
        switch loaded {
        case .success(let loaded): model = loaded
        case .failure(let status): return status
        }
        // One lesson file: `{` and `}` go through its folder's lessons, `R` reads it again.
        if !opensLibrary && !real && !headless, let path = paths.first, !TraceLoader.isTrace(path) {
            model.library = LessonLibrary.around(path, iterationCost: iterationCost)
        }
        if real && model.session.isReplay { throw .traceHasNoClock }
        if real {
            #if os(Linux)
            if let reason = RealScenarioRunner.unsupportedReason(model.session.script.scenario) {
                throw .cannotRunOnRealThreads(path: nil, reason: reason)
            }
            model = AppModel(session: Session(liveScript: model.session.script), fileName: model.fileName)
            #else
            throw .realBackendLinuxOnly
            #endif
        }
        try applyLook(scanner, to: &model)
        model.keys = keys
        model.language = language
        // The bookmarks of the file opened, kept beside it (a library's lessons bring their own when opened).
        if !opensLibrary, let path = paths.first {
            model.bookmarksPath = BookmarkFile.path(for: path)
            model.bookmarks = BookmarkFile.read(BookmarkFile.path(for: path))
        }
        // A folder opens on the picker; the lesson chosen then opens on its card; a link opens at its step.
        var opening = model.overlay == .none ? model.openingCard() : model
        if !headless, let step {
            opening = model
            opening.isPaused = true
            if let note = show(step: step, &opening) { opening.flash = StatusMessage(note) }
        }
        guard headless else {
            if scanner.has("--screen-reader") { return ScreenReader.run(opening) }
            guard let cast = scanner.value("--record") else { return TerminalApp.run(opening) }
            let recorder: AsciicastRecorder
            do {
                // Never onto a file the UI reads: the files named, and every lesson of its playlist (R reads
                // them again).
                let inputs = paths + model.library.entries.map(\.path)
                recorder = try AsciicastRecorder(
                    path: cast, inputs: inputs, title: "loopviz \(model.fileName)", environment: castEnvironment(),
                    timestamp: Int(time(nil)), clock: TerminalApp.monotonicSeconds)
            } catch {
                CommandLine.printError(error.description)
                return .usage
            }
            return TerminalApp.run(opening, recorder: recorder)
        }
        var width = 80
        var height = 24
        if let size = scanner.value("--size") {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] > 0, parts[1] > 0, parts[0] <= 1000, parts[1] <= 1000 else {
                throw .notASize(size)
            }
            width = parts[0]
            height = parts[1]
        }
        _ = updateInline(&model, .resize(width: width, height: height))
        model.isPaused = true
        if let step {
            if let note = show(step: step, &model) {
                CommandLine.printError("loopviz screen: note: --step \(step), \(note)")
            }
        } else {
            model.cursor = model.trace.lastIndex { $0.time <= .zero + .seconds(5) }.map { $0 + 1 } ?? model.trace.count
        }
        model.furthest = model.cursor
        if scanner.has("--card") { model = model.openingCard() }
        print(render(model).lines.joined(separator: "\n"))
        // A line of the file that is not an event, met by a window read: the file is refused, as every command
        // refuses it (the screen shows the events before it).
        if model.session.replayProblem != nil { return .usage }
        if model.session.reachedEventBudget {
            CommandLine.printError(
                EventBudget.message(model.fileName, limit: budget, reason: model.session.haltReason))
            return .budget
        }
        if let message = LimitReport.message(model.session.haltReason, path: model.fileName) {
            CommandLine.printError(message)
            return .usage
        }
        return .success
    }

    /// The look options (`--no-color`, `--ascii`, `--theme`, `--reduce-motion`) and their variables.
    static func applyLook(_ scanner: ArgumentScanner, to model: inout AppModel) throws(CommandLineProblem) {
        model.theme.color = !scanner.has("--no-color") && getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
        model.theme.unicode = !scanner.has("--ascii")
        // `--theme` wins over LOOPVIZ_THEME; `--reduce-motion` or LOOPVIZ_REDUCE_MOTION (any value but 0).
        let palette = scanner.value("--theme") ?? getenv("LOOPVIZ_THEME").map { String(cString: $0) }
        if let palette, !palette.isEmpty {
            guard let chosen = AppModel.Palette(rawValue: palette) else {
                throw .notAChoice(palette, option: "--theme", expected: AppModel.Palette.allCases.map(\.rawValue))
            }
            model.theme.palette = chosen
        }
        let motion = getenv("LOOPVIZ_REDUCE_MOTION").map { String(cString: $0) }
        if scanner.has("--reduce-motion") || (motion.map { !$0.isEmpty && $0 != "0" } ?? false) {
            model.theme.reduceMotion = true
            model.isPaused = true
            model.speedIndex = min(model.speedIndex, AppModel.reducedMotionSpeed)
        }
    }

    /// Shows event `number` (computing further when the replay stopped at its horizon: a few doublings at most,
    /// within the budget); what to say when the replay has fewer events.
    static func show(step number: Int, _ model: inout AppModel) -> String? {
        if model.session.replayIndex != nil {
            // A windowed replay reads the window around the step.
            let count = model.session.replayedEventCount
            let target = min(max(0, number), count)
            let place = target - model.session.eventNumberOffset
            if place < 0 || place > model.trace.count, let request = model.session.requestWindow(showing: target) {
                _ = model.session.adoptWindow(request.read())
            }
            model.cursor = min(max(0, target - model.session.eventNumberOffset), model.trace.count)
            model.furthest = model.cursor
            if let problem = model.session.replayProblem {
                CommandLine.printError("loopviz: error: " + TraceIndex.describe(problem, path: model.fileName))
            }
            return number > count ? "but the replay has \(count) events: showing the last" : nil
        }
        var extensions = 0
        while number > model.trace.count && model.session.canExtend && extensions < 8 {
            model.session.extendNow()
            extensions += 1
        }
        model.cursor = min(number, model.trace.count)
        model.furthest = model.cursor
        return number > model.trace.count ? "but the replay has \(model.trace.count) events: showing the last" : nil
    }

    /// The environment a cast's header names (asciinema's: the shell and the terminal type).
    static func castEnvironment() -> [(String, String)] {
        ["SHELL", "TERM"].compactMap { name in getenv(name).map { (name, String(cString: $0)) } }
    }

    /// True when `path` names a folder (opened as a library of lessons).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The playlist of `paths` (folders and files), opened at its first lesson (its diagnostics when it does not
    /// parse), under the picker when a folder was given. A path that does not exist, or a folder without a
    /// lesson, is a usage error.
    static func loadLibrary(
        _ paths: [String], iterationCost: Duration?, maxEvents: Int
    ) -> Result<AppModel, ExitStatus> {
        let library: LessonLibrary
        switch LessonLibrary.scan(paths, iterationCost: iterationCost) {
        case .success(let scanned): library = scanned
        case .failure(let error):
            CommandLine.printError("loopviz: error: \(error.message)")
            return .failure(.usage)
        }
        // The built-in lesson holds the place until the first lesson is read (and stays hidden if it fails).
        var model: AppModel
        switch loadModel(nil, iterationCost: iterationCost, maxEvents: maxEvents) {
        case .success(let loaded): model = loaded
        case .failure(let status): return .failure(status)
        }
        model.library = library
        _ = updateInline(&model, .lessonOpened(LessonOpening.load(library.request(0))))
        if paths.contains(where: isFolder) { model.overlay = .picker(LessonPicker()) }
        return .success(model)
    }

    /// A trace file this large is replayed a window at a time (``TraceIndex``); a smaller one is read whole.
    static let largeTraceBytes = 64 << 20

    /// The model of the file at `path` (the built-in lesson without one); a trace file of `windowedFrom` bytes or
    /// more is replayed a window at a time.
    static func loadModel(
        _ path: String?, iterationCost: Duration? = nil, maxEvents: Int = EventBudget.defaultLimit,
        windowedFrom: Int = largeTraceBytes
    ) -> Result<AppModel, ExitStatus> {
        guard let path else {
            do {
                var script = try ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
                if let iterationCost { script.scenario.iterationCost = iterationCost }
                return .success(
                    AppModel(session: Session(script: script, maxEvents: maxEvents), fileName: DefaultLesson.fileName))
            } catch {
                CommandLine.printError("loopviz: internal error in the built-in lesson:\n\(error)")
                return .failure(.failure)
            }
        }
        if TraceLoader.isTrace(path) { return loadTrace(path, maxEvents: maxEvents, windowedFrom: windowedFrom) }
        switch ScriptLoader.load(path, iterationCost: iterationCost) {
        case .success(let script):
            return .success(AppModel(session: Session(script: script, maxEvents: maxEvents), fileName: path))
        case .failure(let failure):
            CommandLine.printError(ScriptLoader.describe(failure))
            return .failure(.usage)
        }
    }

    /// A trace file's replay. A file under `windowedFrom` bytes is read whole first, every line checked before the
    /// UI opens (and held whole when it is short); a longer one, or a large file (its lines found by one pass of
    /// `memchr`, checked as their windows are read), is replayed a window at a time, its steps numbered as the
    /// file's.
    static func loadTrace(_ path: String, maxEvents: Int, windowedFrom: Int) -> Result<AppModel, ExitStatus> {
        var info = stat()
        let regular = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        var tail = ReplayTail()
        var checked = false
        if !regular || Int(info.st_size) < windowedFrom {
            switch TraceLoader.stream(path, maxEvents: maxEvents, each: { tail.append($0) }) {
            case .failure(let status): return .failure(status)
            case .success(let trace):
                // Not a file that can be read again (a FIFO), or short enough to hold whole.
                guard regular && tail.total > Session.replayWindowEvents else {
                    return .success(AppModel(session: Session(replay: trace.header, tail: tail), fileName: path))
                }
                checked = true
            }
        }
        return TraceIndex.open(path, maxEvents: maxEvents, printsWarnings: !checked).map { index in
            let window = index.read(0..<min(index.count, Session.replayWindowEvents))
            if let problem = window.problem {
                CommandLine.printError("loopviz: error: " + TraceIndex.describe(problem, path: path))
            }
            return AppModel(session: Session(replay: index, window: window, known: tail.threads), fileName: path)
        }
    }
}
