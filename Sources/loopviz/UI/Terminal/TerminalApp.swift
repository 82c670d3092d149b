#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UI's runtime: takes the presenter's keys, resizes and signals, feeds messages to `update`, carries out
/// its effects (the engine runs on a thread of its own, lessons are read, real threads started), and draws
/// `render`'s screens through the presenter. The only loop with side effects; it sleeps in the presenter's wait
/// while paused, so an idle UI uses no CPU.
enum TerminalApp {
    /// Frames per second while playing.
    static let frameRate = 30.0

    /// `recorder`: `--record`, every frame drawn is also written to the cast, finished on every way out. A cast
    /// lost to a write error ends the UI with status 2 (an unwritable cast), unless a signal ended it (128 + N).
    /// `follow`: `--follow`, the recording read as it grows.
    static func run(
        _ model: AppModel, recorder: AsciicastRecorder? = nil, follow: (any FollowSource)? = nil
    ) -> ExitStatus {
        // Before ncurses starts: finding a SIGTSTP handler already there, ncurses leaves SIGTSTP alone for good.
        // Otherwise every refresh sets it to SIG_IGN for its duration, and the kernel discards a Ctrl-Z typed
        // mid-frame (seen in a kernel signal trace: the SIGTSTP generated with result "ignored").
        SignalPipe.install()
        let presenter: NcursesPresenter
        do {
            presenter = try NcursesPresenter()
        } catch {
            recorder?.abandon()
            CommandLine.printError(
                "loopviz: cannot start the interactive UI: \(error). Run a scenario headless with `loopviz run FILE`.")
            return .usage
        }
        CrashGuard.restore = {
            presenter.restore()
            recorder?.finishAfterCrash()
        }
        CrashGuard.install()
        let status = play(model, on: presenter, engine: EngineThread(), recorder: recorder, follow: follow)
        CrashGuard.restore = nil
        guard let outcome = recorder?.finish() else { return status }
        CommandLine.printError(outcome.message)
        return outcome.failed && !status.isSignal ? .usage : status
    }

    /// The UI's loop, until it ends; the presenter is restored on every way out. `clock` gives the seconds
    /// playback ticks by.
    static func play(
        _ model: AppModel, on presenter: some Presenter, engine: some EngineRunner, recorder: AsciicastRecorder?,
        follow: (any FollowSource)? = nil, clock: () -> Double = monotonicSeconds
    ) -> ExitStatus {
        var model = model
        // `--clock real`: the scenario runs on real threads once `update` asks (``Effect/startLive``: the card
        // closed, or `R`); stopped (and joined) on every way out, once the terminal is given back.
        var live: LiveFeed?
        defer {
            presenter.restore()
            live?.stop()
        }
        model.classroom.isRecording = recorder != nil
        var cache = RenderCache()
        /// Draws a frame, and records it.
        func present(_ model: inout AppModel, full: Bool) {
            let screen = render(model, cache: &cache)
            presenter.present(screen, full: full)
            if let message = recorder?.record(screen, full: full) {
                model.classroom.isRecording = false
                model.flash = StatusMessage(message)
                let screen = render(model, cache: &cache)
                presenter.present(screen, full: false)
            }
        }
        /// Handles `messages` in order; a message's effect may answer with another message (a lesson read, an
        /// engine run done inline), handled in the same turn. False when the UI is to quit.
        func handle(_ messages: [AppMessage], full: inout Bool) -> Bool {
            var messages = messages
            var index = 0
            while index < messages.count {
                for effect in update(&model, messages[index]) {
                    switch effect {
                    case .quit: return false
                    case .redrawAll: full = true
                    case .perform(let actions, let thread): live?.perform(actions, onThread: thread)
                    case .openLesson(let request): messages.append(.lessonOpened(LessonOpening.load(request)))
                    case .startLive:
                        live?.stop()
                        live = LiveFeed(model.session.script.scenario)
                    case .saveBookmarks(let path, let text):
                        messages.append(.bookmarksSaved(path: path, problem: BookmarkFile.save(text, to: path)))
                    case .compareRuns(let request): messages.append(.comparisonRan(request.compare()))
                    case .readReplayWindow(let request): messages.append(.replayWindowRead(request.read()))
                    case .runEngine(let request):
                        engine.start(request)
                        messages += engine.take().map(AppMessage.engineRan)
                    }
                }
                index += 1
            }
            return true
        }
        var full = true
        let size = presenter.size
        guard handle([.resize(width: size.width, height: size.height)], full: &full) else { return .success }
        present(&model, full: true)
        // The model last drawn: a frame that would look the same (a tick between two steps, a key that does
        // nothing) draws nothing.
        var drawn = model
        var last = clock()
        var lastLook = -Double.infinity
        while !model.quitRequested {
            let playing = !model.isPaused && !model.isTooSmall && model.overlay == .none && !model.isComputing
            // Live, a paused screen still takes the threads' events (the counts move), a few times a second.
            // Following, a look at the file every interval, playing or not.
            let timeout: Double? =
                playing ? 1 / frameRate : follow != nil ? FollowFeed.interval : live != nil ? 0.25 : nil
            let inputs = presenter.waitForInput(
                timeout: timeout, wakers: [live?.readEnd, engine.readEnd].compactMap { $0 })
            var messages: [AppMessage] = []
            if let live, let batch = live.take() { messages.append(batch) }
            if let follow, clock() - lastLook >= FollowFeed.interval {
                lastLook = clock()
                if let batch = follow.take() { messages.append(batch) }
            }
            messages += engine.take().map(AppMessage.engineRan)
            full = false
            var inputEnded = false
            for input in inputs {
                switch input {
                case .message(let message): messages.append(message)
                case .signal(SIGTSTP):
                    presenter.suspend()
                case .signal(SIGCONT):
                    presenter.resume()
                    full = true
                    let size = presenter.size
                    messages.append(.resize(width: size.width, height: size.height))
                case .signal(let signal):
                    // Every signal that ends a process (TerminationSignals): the terminal is restored on the way
                    // out (defer), the cast finished, and the status says which signal ended the UI (128 + N).
                    return ExitStatus(endedBy: signal)
                case .hangUp: return .success
                case .endOfInput: inputEnded = true
                }
            }
            if inputEnded && messages.isEmpty { return .success }
            let now = clock()
            if playing { messages.append(.tick(seconds: now - last)) }
            last = now
            guard handle(messages, full: &full) else { return .success }
            if full || !model.drawsLike(drawn) {
                present(&model, full: full)
                drawn = model
            }
        }
        return .success
    }

    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
