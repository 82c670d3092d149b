#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program `loopviz record` starts and waits for: spawned with the recorder library preloaded, the signals
/// loopviz receives passed on to it, and a time limit, so the wait is always bounded.
enum RecordedChild {
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timeLimit
        case cannotStart(Int32)
    }

    /// The first signal loopviz received while waiting (and passed on), if any.
    nonisolated(unsafe) private(set) static var received: Int32?

    /// The environment variables the library reads (PreloadedRecorder's names).
    static let fileVariable = "LOOPVIZ_RECORD_FILE"
    static let libraryVariable = "LOOPVIZ_RECORD_LIBRARY"
    /// Seconds between two stack samples (`record --stacks`); unset: no samples.
    static let sampleVariable = "LOOPVIZ_RECORD_SAMPLE_INTERVAL"
    /// `1`: every thread's loop, each from its first run (`record --all-threads`); unset: the main loop only.
    static let everyThreadVariable = "LOOPVIZ_RECORD_ALL_THREADS"

    /// What the library records beyond the main loop's activities.
    struct Options: Equatable {
        /// The time between two stack samples of a busy loop's thread; nil: no samples.
        var sampleInterval: Duration? = nil
        /// Every thread's run loop, not only the main one.
        var everyThread = false

        /// The environment entries that ask the library for them.
        var environment: [String] {
            (sampleInterval.map { ["\(sampleVariable)=\($0.secondsValue)"] } ?? [])
                + (everyThread ? ["\(everyThreadVariable)=1"] : [])
        }
    }

    /// How often the wait looks at the child when no signal comes.
    static let tick = timespec(tv_sec: 0, tv_nsec: 50_000_000)

    static func run(
        _ command: [String], library: String, recording: String, options: Options = Options(), limit: Duration,
        grace: Duration
    )
        -> Ending
    {
        // loopviz's termination signals are blocked while the child runs and taken with sigtimedwait, so that
        // they are passed on to the program (which writes its recording) instead of ending loopviz first.
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in TerminationSignals.all { sigaddset(&signals, number) }
        sigaddset(&signals, SIGCHLD)
        var previous = sigset_t()
        sigprocmask(SIG_BLOCK, &signals, &previous)
        defer { sigprocmask(SIG_SETMASK, &previous, nil) }
        let pid: pid_t
        switch spawn(command, library: library, recording: recording, options: options) {
        case .failure(let errorNumber): return .cannotStart(errorNumber.number)
        case .success(let started): pid = started
        }
        var watch = Watch(pid: pid, limit: limit, grace: grace)
        while true {
            if let ending = watch.poll() { return ending }
            var pause = tick
            let number = sigtimedwait(&signals, nil, &pause)
            if number > 0 && number != SIGCHLD {
                if received == nil { received = number }
                watch.pass(number)
            }
        }
    }

    /// Why the program could not be started (`errno`).
    struct SpawnError: Error { var number: Int32 }

    /// posix_spawnp with the program's signals as they were before loopviz (default actions, nothing blocked)
    /// and the library in its environment. `detached` (`record --live`): the program gets a process group of its
    /// own, so the keys typed (Ctrl-C, Ctrl-Z) reach the UI alone, which passes signals on; and `/dev/null` for
    /// its standard input, output and error, which would otherwise fight the UI for the terminal.
    static func spawn(
        _ command: [String], library: String, recording: String, options: Options = Options(),
        detached: Bool = false
    )
        -> Result<pid_t, SpawnError>
    {
        var environment: [String] = []
        var preload = library
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            index += 1
            if text.hasPrefix("LD_PRELOAD=") {
                let old = text.dropFirst("LD_PRELOAD=".count)
                if !old.isEmpty { preload += ":" + old }
            } else if ![fileVariable, libraryVariable, sampleVariable, everyThreadVariable].contains(where: {
                text.hasPrefix($0 + "=")
            }) {
                environment.append(text)
            }
        }
        environment += ["LD_PRELOAD=\(preload)", "\(fileVariable)=\(recording)", "\(libraryVariable)=\(library)"]
        environment += options.environment
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in TerminationSignals.all { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if detached {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure(SpawnError(number: result))
    }
}
