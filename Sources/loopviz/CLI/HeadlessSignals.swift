#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every signal of ``TerminationSignals/all`` (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU, …) for
/// the headless commands: remove the temporary file of an `-o` being written (the file at PATH is untouched: it is
/// only ever replaced by a rename), then end with 128 + the signal's number. SIGQUIT ends the same way, instead of
/// a core dump or the Swift runtime's backtrace. The interactive UI routes these signals through ``SignalPipe``
/// instead, once its terminal is set up.
enum HeadlessSignals {
    /// The temporary file to remove, as a C string; written on the main thread, read by the handler.
    nonisolated(unsafe) private static var pending: UnsafeMutablePointer<CChar>?

    static func install() {
        // Ctrl-Z and fg must work too (the UI's handler is installed later, but the mask is inherited now).
        TerminationSignals.unblock([SIGTSTP, SIGCONT])
        TerminationSignals.install { number in HeadlessSignals.end(number) }
    }

    /// In the handler: only async-signal-safe calls (unlink, _exit), every signal blocked while it runs.
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
