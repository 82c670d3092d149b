import LoopEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `loopviz record -o FILE.jsonl -- PROGRAM ARGS…`: records the main run loop of a program that does not link
/// LoopRecorder, by starting it with the package's LoopRecorderPreload library preloaded (Linux's `LD_PRELOAD`).
/// The library records into a temporary file beside FILE.jsonl, renamed into place when the program has ended
/// (docs/limits.md's "Files are never lost").
enum RecordCommand {
    static let command = LoopvizCommand(
        name: "record", synopsis: "record -o FILE -- PROGRAM",
        summary: "Record a program's run loops with no code change (Linux: LD_PRELOAD).",
        options: options, help: help, run: run)

    /// Without `--time-limit`: ten minutes, then SIGTERM.
    static let defaultTimeLimit: Duration = .seconds(600)
    /// The longest `--time-limit`: a day.
    static let maximumTimeLimit: Duration = .seconds(86_400)
    /// After SIGTERM (the time limit, or a signal passed on), the longest wait before SIGKILL.
    static let grace: Duration = .seconds(5)
    /// The UI's look, for `--live` only.
    static let lookOptions = ["--no-color", "--ascii", "--theme", "--reduce-motion"]
    /// The library's file name, beside the loopviz executable.
    static let libraryName = "libLoopRecorderPreload.so"

    static let options: [CommandOption] = [
        CommandOption(
            "-o", .text(placeholder: "FILE.jsonl"),
            help: """
                The recording (required): written to a temporary file beside it and renamed
                into place when the program has ended, whatever ended it.
                """),
        CommandOption(
            "--time-limit", .text(placeholder: "TIME"),
            help: """
                Send the program SIGTERM after TIME (default 10m, at most 24h), and SIGKILL
                5 s later if it is still running.
                """),
        CommandOption(
            "--live",
            help: """
                Show the recording in the UI as it is written (as --follow does), read-only.
                Quitting while the program runs sends it SIGTERM (SIGKILL 5 s later); the
                recording is kept. The program's output goes to /dev/null. Needs a terminal.
                """),
        CommandOption(
            "--all-threads",
            help: """
                Record every thread's run loop, each from its first run, into the same file
                (at most 64 loops), not only the main one.
                """),
        CommandOption(
            "--stacks",
            help: """
                Sample the main thread's stack every 10ms while its loop is busy (a signal to
                the thread), for `loopviz hangs` to name the functions that held it. With
                --all-threads, every recorded loop's thread.
                """),
        CommandOption(
            "--stack-interval", .text(placeholder: "TIME"),
            help: "With --stacks: the time between two samples (1ms to 1s; default 10ms)."),
        CommandOption("--no-color", help: "With --live: no colours (as NO_COLOR)."),
        CommandOption("--ascii", help: "With --live: ASCII only, no box drawing."),
        CommandOption(
            "--theme", .text(placeholder: "PALETTE"),
            help: "With --live: the UI's palette (standard, colorblind, light)."),
        CommandOption("--reduce-motion", help: "With --live: as the UI's."),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Record the main run loop of any program that uses Foundation, with no code change.

            USAGE: loopviz record -o FILE.jsonl [--time-limit TIME] [--all-threads] [--stacks]
                                  [--live] -- PROGRAM [ARGS...]

            ARGUMENTS:
              PROGRAM [ARGS...]       The program and its arguments (looked up in PATH), after `--`.

            The program is started with the package's LoopRecorderPreload library preloaded (LD_PRELOAD; Linux
            only). Before the program's main, the library starts LoopRecorder on the main run loop; it writes
            everything buffered when the program exits or a signal ends it (a crash or a request). Ctrl-C and
            other signals are passed on to the program (SIGKILL if it still runs 5 s later), and the recording
            is kept. Then read it with `loopviz hangs FILE.jsonl` or `loopviz FILE.jsonl`. A statically linked
            or set-user-ID program ignores LD_PRELOAD: nothing is recorded, and no file is left.

            With --all-threads, each other thread's run loop is recorded too, from the first time the thread runs
            it (CFRunLoopRunInMode or CFRunLoopRun, which RunLoop's run methods call), into the same file: every
            event carries its thread, and `loopviz hangs` and the UI show each thread apart. At most 64 loops are
            recorded; a mark in the recording names the first thread left out.

            With --stacks, a signal interrupts the main thread every 10 ms (--stack-interval) while its loop has
            been busy that long, and its stack is written into the recording; `loopviz hangs` shows each hang's
            hottest frames. A system call the kernel does not restart after a signal (nanosleep, usleep, poll)
            returns early with EINTR when a sample lands in it, as for any signal: off by default.

            With --live, the UI follows the recording while the program writes it (FILE.jsonl must be a
            regular file or a new one), and the file is renamed into place as soon as the program ends. The
            program runs in a process group of its own, its input and output on /dev/null.
            """,
        afterOptions: """
            EXIT STATUS:
              N    the program's own exit status
              128+N the program was ended by signal N (143 at the time limit, and usually when --live's UI
                   was quit while it ran); the recording is kept
              2    invalid usage, the library is not beside loopviz, or --live without a terminal or with
                   an -o that is not a regular file
              4    the recording could not be written, or the program did not load the library
              127  the program could not be started
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        guard let output = scanner.value("-o") else { throw .missingOption("-o", value: "FILE.jsonl") }
        guard let program = scanner.positional.first else { throw .missingArgument("PROGRAM") }
        var limit = defaultTimeLimit
        if let text = scanner.value("--time-limit") {
            guard let value = ScriptLoader.duration(text), value > .zero, value <= maximumTimeLimit else {
                throw .notATimeAboveZero(text, example: "30s")
            }
            limit = value
        }
        let options = try recording(scanner)
        let recorded = RecordOutcome.RecordedFile(path: output, everyThread: options.everyThread)
        let live = scanner.has("--live")
        for option in lookOptions where scanner.gave(option) && !live {
            throw .goesWith(option: option, other: "--live")
        }
        // Refused before anything is started or written: the UI needs the terminal.
        if live {
            guard isatty(0) == 1, isatty(1) == 1 else { throw .liveNeedsATerminal }
            // Standard output, a device, a FIFO (whose open would wait for a reader) or a link to nothing yet is
            // written directly, not into a temporary file the UI could follow.
            var info = stat()
            if output == "-"
                || (lstat(output, &info) == 0 && (stat(output, &info) != 0 || info.st_mode & S_IFMT != S_IFREG))
            {
                throw .liveNeedsAFile(output)
            }
        }
        let library = libraryPath()
        guard access(library, R_OK) == 0 else { return finish(.libraryMissing(path: library)) }
        let file: OutputFile
        switch OutputFile.open(output, inputs: [program]) {
        case .success(let opened): file = opened
        case .failure(let failure):
            CommandLine.printError(failure.message)
            return failure.status
        }
        if live { return try runLive(scanner, file: file, output: output, library: library, limit: limit) }
        // `-o -` (standard output): the recording goes to this process's standard output, which the program
        // shares.
        let target = file.temporaryPath ?? (file.path == nil ? "/dev/stdout" : output)
        let ending = RecordedChild.run(
            Array(scanner.positional), library: library, recording: target, options: options,
            limit: limit, grace: grace)
        let outcome: RecordOutcome
        switch ending {
        case .cannotStart(let errorNumber):
            file.abandon()
            return finish(.cannotStart(program: program, errorNumber: errorNumber))
        case .exited(let status):
            outcome = .exited(program: program, status: status, path: recorded)
        case .signaled(let signal):
            outcome = .ended(program: program, signal: signal, path: recorded)
        case .timeLimit:
            outcome = .timeLimit(program: program, limit: limit, path: recorded)
        }
        if let temporary = file.temporaryPath {
            var info = stat()
            if stat(temporary, &info) != 0 || info.st_size == 0 {
                file.abandon()
                return finish(.notLoaded(program: program))
            }
        }
        if let message = file.commit() {
            CommandLine.printError(message)
            return .writeError
        }
        let status = finish(outcome)
        // A signal sent to loopviz itself (passed on to the program) ends it the same way, the file kept.
        if case .signaled = ending, let received = RecordedChild.received { return ExitStatus(endedBy: received) }
        return status
    }

    /// Prints the outcome's words on standard error and returns its status.
    static func finish(_ outcome: RecordOutcome) -> ExitStatus {
        CommandLine.printError(outcome.words)
        return outcome.status
    }

    /// The library beside the running loopviz (`/proc/self/exe`), where `swift build` puts it.
    static func libraryPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return libraryName }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = executable.lastIndex(of: "/").map { String(executable[...$0]) } ?? ""
        return folder + libraryName
    }
}
