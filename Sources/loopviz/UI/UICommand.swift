import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `loopviz [FILE]`: the interactive UI; `loopviz screen FILE`: one rendered screen as text.
enum UICommand {
    static let help = """
        OVERVIEW: Watch a run loop turn, live, and poke it.

        USAGE: loopviz [FILE.loop | FOLDER | FILE.loop... | FILE.jsonl] [--no-color] [--ascii] [--clock virtual|real]
                       [--max-events N] [--iteration-cost TIME] [--lang en|zh] [--record FILE.cast]
               loopviz screen [FILE.loop | FOLDER | FILE.jsonl] [--step N] [--size WxH] [--no-color] [--ascii]
                              [--max-events N] [--iteration-cost TIME] [--lang en|zh] [--card]

        Without a FILE, loopviz opens its built-in lesson: a kept-alive thread with a timer, a source0, a port and
        an observer. A lesson opens on its card (what it teaches, what to watch for, what to try): any key closes
        it, i opens it again. Press ? in the UI for the keys. `screen` prints the screen the UI would show at step N
        (default: the last step of the first 5 seconds) as text, without a terminal.

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

        OPTIONS:
          --no-color              Monochrome (also when NO_COLOR is set): state shows through glyphs and bold.
          --ascii                 ASCII glyphs only, for terminals without Unicode.
          --clock CLOCK           virtual (the default: a deterministic replay you can step back through) or
                                  real (the scenario runs on real threads, asleep in the kernel when idle; your
                                  keys act on them at once; stepping back shows what was recorded).
          --step N                (screen) the number of events shown.
          --size WxH              (screen) the screen size, default 80x24.
          --max-events N          Compute at most N events of the replay (default 1000000, at most 10000000):
                                  the clock stops there and the status bar says so (screen: on standard error,
                                  exit 3).
        \(IterationCostOption.help)
        \(LanguageOption.help)
          --card                  (screen) show the lesson's card over the screen, as the UI opens.
          --record FILE.cast      Record the session as an asciicast v2 file (play it with `asciinema play
                                  FILE.cast`): written to a temporary file beside it, renamed to FILE.cast when
                                  the UI ends (q, a signal, end of input); at most 64 MiB, then the recording
                                  stops and the status bar says so. Never onto an input (refused, exit 2); a
                                  link is followed, a device or FIFO written directly; a write error (a full
                                  disk) stops it, keeps the old FILE.cast and ends with exit 2. Not with `screen`.
          -h, --help              Show this help.

        EXIT STATUS:
          0    quit with q (screen: the screen was printed)
          2    invalid input or usage, or (the UI) no terminal, or a cast that cannot be written (--record)
        \(ExitStatus.helpText(budget: "(screen) the event budget (--max-events) stopped the replay; the screen is printed", signals: "the terminal restored, the cast (--record) kept"))
        """

    /// `loopviz screen --help`: the command's own usage and exit statuses, not the UI's.
    static let screenHelp = """
        OVERVIEW: Print the screen the UI shows at a step, as text, without a terminal.

        USAGE: loopviz screen [FILE.loop] [--step N] [--size WxH] [--no-color] [--ascii] [--max-events N]
                              [--iteration-cost TIME] [--lang en|zh] [--card]

        Without a FILE, the built-in lesson. The scenario is replayed on the virtual clock (a real-clock run is
        never the same twice) and the screen after its first N events is printed; colours and attributes are
        not printed, only the characters.

        OPTIONS:
          --step N                The number of events shown (default: the last step of the first 5 seconds).
          --size WxH              The screen size, default 80x24 (at most 1000x1000; below 80x24 the screen
                                  says what size is needed).
          --no-color              As the UI's (no effect on the characters).
          --ascii                 ASCII glyphs only.
          --max-events N          Compute at most N events of the replay (default 1000000, at most 10000000).
        \(IterationCostOption.help)
        \(LanguageOption.help)
          --card                  Show the lesson's card over the screen, as the UI opens a lesson.
          -h, --help              Show this help.

        EXIT STATUS:
          0    the screen was printed
          2    invalid input or usage (the file, an option, --clock real), or the replay stopped at a limit of
               the scenario (the message says which); the screen is printed before that message
        \(ExitStatus.helpText(budget: "the event budget (--max-events) stopped the replay; the screen is printed", signals: "nothing left behind"))
        """

    static func run(_ arguments: [String], headless: Bool) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(
                arguments,
                valued: [
                    "--clock", "--step", "--size", "--record", EventBudget.option, IterationCostOption.name,
                    LanguageOption.name,
                ],
                switches: ["--no-color", "--ascii", "--card", "-h", "--help"])
        } catch {
            return CommandLine.usageError(error.description, command: headless ? "screen" : nil)
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(headless ? screenHelp : help)
            return .success
        }
        let paths = scanner.positional
        let opensLibrary = paths.count > 1 || paths.first.map(isFolder) == true
        let real = scanner.value("--clock") == "real"
        if opensLibrary && (real || paths.contains(where: TraceLoader.isTrace)) {
            return CommandLine.usageError(
                real
                    ? "--clock real runs one FILE (the lesson keys need the virtual clock)"
                    : "a trace (FILE.jsonl) opens alone, not in a playlist", command: headless ? "screen" : nil)
        }
        if let clock = scanner.value("--clock"), clock != "virtual" && clock != "real" {
            return CommandLine.usageError("'\(clock)' is not a clock; expected virtual or real", command: nil)
        }
        if headless && scanner.value("--record") != nil {
            return CommandLine.usageError("`screen` prints one screen: --record is for the UI", command: "screen")
        }
        if real && headless {
            return CommandLine.usageError(
                "`screen` draws the virtual clock's replay; on real threads nothing is the same twice",
                command: "screen")
        }
        let iterationCost: Duration?
        let budget: Int
        let language: Language
        do {
            iterationCost = try IterationCostOption.value(in: scanner)
            budget = try EventBudget.limit(scanner)
            language = try LanguageOption.value(in: scanner)
        } catch {
            return CommandLine.usageError(error.description, command: headless ? "screen" : nil)
        }
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
        if real && model.session.isReplay {
            return CommandLine.usageError("a trace replays what was recorded: --clock does not apply", command: nil)
        }
        if real {
            #if os(Linux)
            if let reason = RealScenarioRunner.unsupportedReason(model.session.script.scenario) {
                CommandLine.printError("loopviz: error: this scenario cannot run on real threads: \(reason)")
                return .usage
            }
            model = AppModel(session: Session(liveScript: model.session.script), fileName: model.fileName)
            #else
            CommandLine.printError(
                "loopviz: error: the real backend is built on Linux only (epoll); use --clock virtual")
            return .usage
            #endif
        }
        model.theme.color = !scanner.has("--no-color") && getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
        model.theme.unicode = !scanner.has("--ascii")
        model.language = language
        // A folder opens on the picker; the lesson chosen then opens on its card.
        let opening = model.overlay == .none ? model.openingCard() : model
        guard headless else {
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
                return CommandLine.usageError(
                    "'\(size)' is not a size like 80x24 (from 1x1 to 1000x1000)", command: "screen")
            }
            width = parts[0]
            height = parts[1]
        }
        _ = updateInline(&model, .resize(width: width, height: height))
        model.isPaused = true
        if let step = scanner.value("--step") {
            guard let number = Int(step), number >= 0 else {
                return CommandLine.usageError("'\(step)' is not a step number", command: "screen")
            }
            // Computed further when the replay stopped at its horizon (a few doublings at most, within the budget).
            var extensions = 0
            while number > model.trace.count && model.session.canExtend && extensions < 8 {
                model.session.extendNow()
                extensions += 1
            }
            model.cursor = min(number, model.trace.count)
            if number > model.trace.count {
                CommandLine.printError(
                    "loopviz screen: note: --step \(number), but the replay has \(model.trace.count) events: "
                        + "showing the last")
            }
        } else {
            model.cursor = model.trace.lastIndex { $0.time <= .zero + .seconds(5) }.map { $0 + 1 } ?? model.trace.count
        }
        model.furthest = model.cursor
        if scanner.has("--card") { model = model.openingCard() }
        print(render(model).lines.joined(separator: "\n"))
        if model.session.reachedEventBudget {
            CommandLine.printError(EventBudget.message(model.fileName, limit: budget))
            return .budget
        }
        if let message = LimitReport.message(model.session.haltReason, path: model.fileName) {
            CommandLine.printError(message)
            return .usage
        }
        return .success
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

    static func loadModel(
        _ path: String?, iterationCost: Duration? = nil, maxEvents: Int = EventBudget.defaultLimit
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
        if TraceLoader.isTrace(path) {
            return TraceLoader.load(path, maxEvents: maxEvents).map {
                AppModel(session: Session(replay: $0), fileName: path)
            }
        }
        switch ScriptLoader.load(path, iterationCost: iterationCost) {
        case .success(let script):
            return .success(AppModel(session: Session(script: script, maxEvents: maxEvents), fileName: path))
        case .failure(let failure):
            CommandLine.printError(ScriptLoader.describe(failure))
            return .failure(.usage)
        }
    }
}
