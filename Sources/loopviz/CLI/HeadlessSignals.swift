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

    /// Scratch files and folders of a command (the bench's temporary folder and what is in it), removed by the
    /// handler in the reverse order of their marking: the files, then their folder. A fixed table made before any
    /// handler runs, so the handler reads it without allocating.
    nonisolated(unsafe) private static let scratch = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
        capacity: scratchCapacity)
    /// The slots of ``scratch`` in use; written by the command (one thread at a time) after the slot is filled.
    nonisolated(unsafe) private static var scratchCount = 0
    /// The most scratch paths marked: past it a path is left to the command's own clean-up.
    static let scratchCapacity = 16

    /// A child process the command waits for (the bench's `loopviz run`), ended by the same signal first so that
    /// it removes its own temporary files; 0 when there is none.
    nonisolated(unsafe) static var child: pid_t = 0

    static func install() {
        scratch.initialize(repeating: nil, count: scratchCapacity)
        // Ctrl-Z and fg must work too (the UI's handler is installed later, but the mask is inherited now).
        TerminationSignals.unblock([SIGTSTP, SIGCONT])
        TerminationSignals.install { number in HeadlessSignals.end(number) }
    }

    /// In the handler: only async-signal-safe calls (kill, waitpid, unlink, rmdir, _exit), every signal blocked
    /// while it runs.
    private static func end(_ number: Int32) {
        if child > 0 {
            // The child's own handler removes its temporary file and ends it; one that does not end within 2 s
            // (blocked opening a FIFO) is killed, so the command never hangs on its way out.
            kill(child, number)
            var waits = 0
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            while waitpid(child, nil, WNOHANG) == 0 && waits < 200 {
                nanosleep(&pause, nil)
                waits += 1
            }
            if waits == 200 {
                kill(child, SIGKILL)
                waitpid(child, nil, 0)
            }
        }
        if let path = pending { unlink(path) }
        var index = scratchCount
        while index > 0 {
            index -= 1
            if let path = scratch[index], unlink(path) != 0 { rmdir(path) }
        }
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

    /// Marks a scratch file or folder (a folder before what it holds) to remove if a signal ends the command;
    /// ``forgetScratch(_:)`` unmarks it once the command removed it. At most ``scratchCapacity`` at once.
    static func markScratch(_ path: String) {
        for index in 0..<scratchCount where scratch[index].map({ String(cString: $0) }) == path { return }
        guard let slot = (0..<scratchCapacity).first(where: { $0 >= scratchCount || scratch[$0] == nil }) else {
            return
        }
        // The slot is filled before the count covers it: a handler never reads a slot being written.
        scratch[slot] = strdup(path)
        scratchCount = max(scratchCount, slot + 1)
    }

    /// Unmarks a scratch path (its string is never freed: a handler on another thread may be reading it).
    static func forgetScratch(_ path: String) {
        for index in 0..<scratchCount where scratch[index].map({ String(cString: $0) }) == path {
            scratch[index] = nil
        }
    }

    /// Marks `path` as the file to remove if a signal ends the command now; nil when there is none.
    static func removeOnSignal(_ path: String?) {
        // Never freed: a handler on another thread may be reading the old string. A command marks at most one.
        pending = path.map { strdup($0) }
    }
}
