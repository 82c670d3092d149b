#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UI's runtime: polls the keyboard and the signal pipe, feeds messages to `update`, draws `render`'s
/// screens through the presenter. The only loop with side effects; it sleeps in `poll` while paused, so an idle
/// UI uses no CPU.
enum TerminalApp {
    /// Frames per second while playing.
    static let frameRate = 30.0

    /// `recorder`: `--record`, every frame drawn is also written to the cast, finished on every way out. A cast
    /// lost to a write error ends the UI with status 2 (an unwritable cast), unless a signal ended it (128 + N).
    static func run(_ model: AppModel, recorder: AsciicastRecorder? = nil) -> ExitStatus {
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
        let status = play(model, on: presenter, recorder: recorder)
        guard let outcome = recorder?.finish() else { return status }
        CommandLine.printError(outcome.message)
        return outcome.failed && !status.isSignal ? .usage : status
    }

    /// The UI's loop, until it ends; the terminal is restored on every way out.
    private static func play(
        _ model: AppModel, on presenter: NcursesPresenter, recorder: AsciicastRecorder?
    ) -> ExitStatus {
        CrashGuard.restore = {
            presenter.restore()
            recorder?.finishAfterCrash()
        }
        CrashGuard.install()
        var model = model
        // `--clock real`: the scenario runs on real threads once `update` asks (``Effect/startLive``: the card
        // closed, or `R`); stopped (and joined) on every way out, once the terminal is given back.
        var live: LiveFeed?
        defer {
            presenter.restore()
            CrashGuard.restore = nil
            live?.stop()
        }
        model.classroom.isRecording = recorder != nil
        /// Draws a frame, and records it.
        func present(_ model: inout AppModel, full: Bool) {
            let screen = render(model)
            presenter.present(screen, full: full)
            if let message = recorder?.record(screen, full: full) {
                model.classroom.isRecording = false
                model.flash = StatusMessage(message)
                let screen = render(model)
                presenter.present(screen)
            }
        }
        func start(_ model: AppModel) {
            live?.stop()
            live = LiveFeed(model.session.script.scenario)
        }
        let size = presenter.size
        if update(&model, .resize(width: size.width, height: size.height)).contains(.startLive) { start(model) }
        present(&model, full: true)
        // The model last drawn: a frame that would look the same (a tick between two steps, a key that does
        // nothing) draws nothing.
        var drawn = model
        var last = monotonicSeconds()
        while !model.quitRequested {
            let playing = !model.isPaused && !model.isTooSmall && model.overlay == .none
            var fds = [
                pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: live?.readEnd ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            // Live, a paused screen still takes the threads' events (the counts move), a few times a second.
            let timeout: Int32 = playing ? Int32(1000 / frameRate) : live != nil ? 250 : -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0 && errno != EINTR { break }
            var messages: [AppMessage] = []
            if let live, let batch = live.take() { messages.append(batch) }
            var full = false
            for signal in SignalPipe.drain() {
                if signal == SIGTSTP {
                    // Ctrl-Z: the terminal goes back to the shell first, then the process stops; SIGCONT (fg)
                    // comes through the pipe next and redraws everything.
                    presenter.restore()
                    SignalPipe.stopNow()
                } else if signal == SIGCONT {
                    presenter.resume()
                    full = true
                    let size = presenter.size
                    messages.append(.resize(width: size.width, height: size.height))
                } else {
                    // Every signal that ends a process (TerminationSignals): the terminal is restored on the way
                    // out (defer), the cast finished, and the status says which signal ended the UI (128 + N).
                    return ExitStatus(endedBy: signal)
                }
            }
            if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .success }
            // Always read: a terminal resize interrupts poll and arrives as a key.
            messages += presenter.readKeys(inputWasReadable: fds[0].revents != 0)
            if presenter.reachedEndOfInput && messages.isEmpty {
                // End of input (stdin closed): quit rather than spin.
                return .success
            }
            let now = monotonicSeconds()
            if playing { messages.append(.tick(seconds: now - last)) }
            last = now
            // A message's effect may answer with another message (a lesson read): handled in the same turn.
            var index = 0
            while index < messages.count {
                for effect in update(&model, messages[index]) {
                    switch effect {
                    case .quit: return .success
                    case .redrawAll: full = true
                    case .perform(let actions, let thread): live?.perform(actions, onThread: thread)
                    case .openLesson(let request): messages.append(.lessonOpened(LessonOpening.load(request)))
                    case .startLive: start(model)
                    }
                }
                index += 1
            }
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
