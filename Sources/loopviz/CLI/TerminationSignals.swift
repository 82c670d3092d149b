#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one list of the signals that end a process by their default action, and the one way to catch them.
///
/// Every one of them must end loopviz the same way: the terminal restored, a temporary file removed, and the
/// status 128 + the signal's number. A signal left out of the list would end the process by its default action,
/// leaving the terminal raw and a half-written file behind (audit D6: SIGUSR1, SIGALRM, SIGXCPU did). Not here:
/// SIGPIPE (ignored: a closed pipe is a write error, EPIPE), the stop and continue signals (the UI handles Ctrl-Z
/// itself), the crash signals (SIGSEGV, SIGABRT, …: a bug's, left to the crash guard and the runtime's report),
/// and SIGKILL and SIGSTOP, which cannot be caught.
enum TerminationSignals {
    /// Every catchable signal whose default action ends the process, bar SIGPIPE and the crash signals.
    static let all: [Int32] = {
        var signals = [
            SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS,
        ]
        #if os(Linux)
        signals += [SIGSTKFLT, SIGIO, SIGPWR]
        // The real-time signals (34…64 on Linux): the C macros SIGRTMIN and SIGRTMAX call these.
        signals += Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
        #endif
        return signals
    }()

    /// Installs `handler` for every signal of ``all``, with every signal blocked while it runs (a second signal
    /// cannot interrupt the first's clean-up), and unblocks them: a parent may have started loopviz with some
    /// blocked (a test runner's thread does). `HeadlessSignals` calls it on the main thread before any other
    /// starts, so every thread inherits the mask; the UI calls it again to route them to its pipe. `handler` must
    /// be async-signal-safe (`write`, `unlink`, `_exit`: no allocation, no lock).
    ///
    /// A signal ignored when loopviz started stays ignored, as the conventions ask (`nohup`, a shell's background
    /// jobs, `trap '' XFSZ`): it would not have ended the process, so there is nothing to clean up after it.
    static func install(_ handler: @convention(c) (Int32) -> Void, flags: Int32 = 0) {
        unblock(all)
        for signal in all where !isIgnored(signal) {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigfillset(&action.sa_mask)
            action.sa_flags = flags
            sigaction(signal, &action, nil)
        }
    }

    /// True when `signal`'s action is SIG_IGN (set by whoever started loopviz).
    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0 else { return false }
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        return handler.map { unsafeBitCast($0, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) } ?? false
    }

    /// Unblocks `signals` for this thread and the threads it starts.
    static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
