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

    /// How often the wait looks at the child when no signal comes.
    private static let tick = timespec(tv_sec: 0, tv_nsec: 50_000_000)

    static func run(
        _ command: [String], library: String, recording: String, limit: Duration, grace: Duration
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
        switch spawn(command, library: library, recording: recording) {
        case .failure(let errorNumber): return .cannotStart(errorNumber.number)
        case .success(let started): pid = started
        }
        var deadline = ContinuousClock.now + limit
        // Set once SIGTERM went (the time limit) or a signal was passed on: the next deadline sends SIGKILL.
        var ending = false
        var timedOut = false
        var killed = false
        while true {
            var status: Int32 = 0
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid {
                if timedOut { return .timeLimit }
                if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
                return .signaled(status & 0x7f)
            }
            if done < 0 && errno != EINTR { return .exited(127) }
            if ContinuousClock.now >= deadline && !killed {
                if ending {
                    killed = true
                    kill(pid, SIGKILL)
                } else {
                    ending = true
                    timedOut = true
                    kill(pid, SIGTERM)
                    deadline = ContinuousClock.now + grace
                }
            }
            var pause = tick
            let number = sigtimedwait(&signals, nil, &pause)
            if number > 0 && number != SIGCHLD {
                if received == nil { received = number }
                if !ending {
                    ending = true
                    deadline = ContinuousClock.now + grace
                }
                kill(pid, number)
            }
        }
    }

    private struct SpawnError: Error { var number: Int32 }

    /// posix_spawnp with the program's signals as they were before loopviz (default actions, nothing blocked)
    /// and the library in its environment.
    private static func spawn(_ command: [String], library: String, recording: String) -> Result<pid_t, SpawnError> {
        var environment: [String] = []
        var preload = library
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            index += 1
            if text.hasPrefix("LD_PRELOAD=") {
                let old = text.dropFirst("LD_PRELOAD=".count)
                if !old.isEmpty { preload += ":" + old }
            } else if !text.hasPrefix(fileVariable + "=") && !text.hasPrefix(libraryVariable + "=") {
                environment.append(text)
            }
        }
        environment += ["LD_PRELOAD=\(preload)", "\(fileVariable)=\(recording)", "\(libraryVariable)=\(library)"]
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], nil, &attributes, argv, envp)
        return result == 0 ? .success(pid) : .failure(SpawnError(number: result))
    }
}
