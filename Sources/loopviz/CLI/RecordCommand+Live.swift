import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordCommand {
    /// `record --live`: the program records into the temporary file beside FILE.jsonl, as without `--live`, and
    /// the UI follows that file as it grows (``LiveRecording``); it is renamed into place as soon as the program
    /// ends. Quitting the UI while the program runs sends it SIGTERM (SIGKILL a grace later); a signal that ends
    /// the UI is passed on instead. Either way the terminal is given back first, and the recording is kept.
    static func runLive(
        _ scanner: ArgumentScanner, file: OutputFile, output: String, library: String, limit: Duration
    ) throws(CommandLineProblem) -> ExitStatus {
        guard let temporary = file.temporaryPath else {
            // A device or a FIFO is written into directly: there is no file to follow.
            file.abandon()
            throw .liveNeedsAFile(output)
        }
        let program = scanner.positional[0]
        var model = AppModel(session: Session(following: output), fileName: output)
        do throws(CommandLineProblem) {
            try UICommand.applyLook(scanner, to: &model)
        } catch {
            file.abandon()
            throw error
        }
        model.isPaused = false
        let feed: FollowFeed
        do throws(FollowOpenError) {
            feed = try FollowFeed(path: temporary)
        } catch {
            file.abandon()
            throw .cannotFollow(path: error.path, reason: error.reason)
        }
        let options = try recording(scanner)
        let recorded = RecordOutcome.RecordedFile(path: output, everyThread: options.everyThread)
        let pid: pid_t
        switch RecordedChild.spawn(
            Array(scanner.positional), library: library, recording: temporary, options: options, detached: true)
        {
        case .failure(let failure):
            file.abandon()
            return finish(.cannotStart(program: program, errorNumber: failure.number))
        case .success(let started): pid = started
        }
        // Until the UI routes signals (SignalPipe), a signal ends the program too, and removes the temporary file.
        HeadlessSignals.child = pid
        defer { HeadlessSignals.child = 0 }
        let recording = LiveRecording(
            feed: feed, watch: RecordedChild.Watch(pid: pid, limit: limit, grace: grace), file: file, output: output)
        let status = TerminalApp.run(model, follow: recording)
        // The terminal is restored: a program still running is ended now (bounded), and the file kept.
        let signal = status.isSignal ? status.rawValue - 128 : nil
        let ending = recording.finish(endedBy: signal)
        let result = liveStatus(
            recording, ending, program: program, recorded: recorded, limit: limit, uiSignal: signal)
        return signal.map { ExitStatus(endedBy: $0) } ?? result
    }

    /// Prints how the program ended and how the file was left; the status of the program (or loopviz's).
    private static func liveStatus(
        _ recording: LiveRecording, _ ending: RecordedChild.Ending, program: String,
        recorded: RecordOutcome.RecordedFile, limit: Duration, uiSignal: Int32?
    ) -> ExitStatus {
        switch recording.kept {
        case .nothingRecorded: return finish(.notLoaded(program: program))
        case .failed(let message):
            CommandLine.printError(message)
            return .writeError
        case .committed, nil: break
        }
        let outcome: RecordOutcome
        switch ending {
        case .exited(let status) where recording.endedByQuit && uiSignal == nil:
            outcome = .quit(program: program, end: .exited(status), path: recorded)
        case .signaled(let number) where recording.endedByQuit && uiSignal == nil:
            outcome = .quit(program: program, end: .signaled(number), path: recorded)
        case .exited(let status): outcome = .exited(program: program, status: status, path: recorded)
        case .signaled(let number): outcome = .ended(program: program, signal: number, path: recorded)
        case .timeLimit: outcome = .timeLimit(program: program, limit: limit, path: recorded)
        case .cannotStart(let number): return finish(.cannotStart(program: program, errorNumber: number))
        }
        return finish(outcome)
    }
}
