#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT for the headless commands: remove the temporary file of an `-o` being
/// written (the file at PATH is untouched: it is only ever replaced by a rename), then end with 128 + the signal's
/// number. SIGQUIT ends the same way, instead of a core dump or the Swift runtime's backtrace. The interactive UI
/// routes these signals through ``SignalPipe`` instead.
enum HeadlessSignals {
    /// The temporary file to remove, as a C string; written on the main thread, read by the handler.
    nonisolated(unsafe) private static var pending: UnsafeMutablePointer<CChar>?

    static func install() {
        // A parent may have started us with these signals blocked (a test runner's thread does): unblocked here,
        // on the main thread before any other starts, so that every thread inherits the mask.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT] { sigaddset(&handled, signal) }
        sigprocmask(SIG_UNBLOCK, &handled, nil)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in HeadlessSignals.end(number) }
            #else
            action.__sigaction_u.__sa_handler = { number in HeadlessSignals.end(number) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// In the handler: only async-signal-safe calls (unlink, _exit).
    private static func end(_ number: Int32) {
        if let path = pending { unlink(path) }
        _exit(128 + number)
    }

    /// Creates the temporary file of `template` (ending in `XXXXXX`) with `mkstemp(3)`, marked for removal
    /// before it exists: mkstemp writes the name into the very buffer the handler reads, so a signal at any moment
    /// (even while mkstemp runs) removes the file. Returns its descriptor and name, or nil with `errno` set.
    static func createTemporary(_ template: String) -> (descriptor: Int32, path: String)? {
        guard let buffer = strdup(template) else { return nil }
        pending = buffer
        let descriptor = mkstemp(buffer)
        guard descriptor >= 0 else {
            let failure = errno
            removeOnSignal(nil)
            errno = failure
            return nil
        }
        return (descriptor, String(cString: buffer))
    }

    /// Marks `path` as the file to remove if a signal ends the command now; nil when there is none.
    static func removeOnSignal(_ path: String?) {
        // Never freed: a handler on another thread may be reading the old string. A command marks at most one.
        pending = path.map { strdup($0) }
    }
}
