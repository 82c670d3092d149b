import CLoopRecorderPreload
import CoreFoundation
import Foundation
import LoopRecorder

#if canImport(Glibc)
import Glibc
#endif

/// Called by the library's constructor (CLoopRecorderPreload) before the program's `main`, on its main thread.
@_cdecl("loopviz_preload_start")
public func loopvizPreloadStart() {
    PreloadedRecorder.start()
}

/// Called on a thread's first run of its loop, once `record --all-threads` asked for every thread's loop.
@_cdecl("loopviz_preload_thread_runs")
public func loopvizPreloadThreadRuns() {
    PreloadedRecorder.recordCallingThread()
}

/// LoopRecorder on the main run loop of a program that does not link it: `loopviz record -- PROGRAM` preloads
/// this library and names the file in the environment. The recording stops, and everything buffered is written,
/// when the program exits (`exit`, or a return from `main`) or a signal ends it (a crash or a request).
enum PreloadedRecorder {
    /// The file to record into (the temporary file `loopviz record` renames into place when the program ends).
    static let fileVariable = "LOOPVIZ_RECORD_FILE"
    /// This library's path as `LD_PRELOAD` names it, taken out of it so that the program's own child processes
    /// do not load it again.
    static let libraryVariable = "LOOPVIZ_RECORD_LIBRARY"
    /// Seconds between two stack samples of the main thread while its loop is busy; unset: no samples.
    static let sampleVariable = "LOOPVIZ_RECORD_SAMPLE_INTERVAL"
    /// `1`: every thread's run loop too, each from its first run.
    static let everyThreadVariable = "LOOPVIZ_RECORD_ALL_THREADS"
    /// The longest a signal handler waits for the recording to be written before the signal goes on: bounded,
    /// so a recorder that cannot finish (its lock held by the thread that crashed) never holds the process.
    static let signalWaitMilliseconds: Int32 = 1_000
    /// The signals whose default is to end the process without a crash: blocked in the recorder's threads, so
    /// one sent to the process reaches a thread of the program, not the writer or the watcher it waits for.
    static let requests: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    /// The process that started the recorder: a child made by `fork` without `exec` has no writer thread, and
    /// must not wait for one at its exit.
    nonisolated(unsafe) private static var owner: pid_t = 0

    static func start() {
        guard let value = getenv(fileVariable), value.pointee != 0 else { return }
        let path = String(cString: value)
        let library = getenv(libraryVariable).map { String(cString: $0) }
        let sampleInterval = getenv(sampleVariable).flatMap { TimeInterval(String(cString: $0)) }
        let everyThread = getenv(everyThreadVariable).map { String(cString: $0) == "1" } ?? false
        for variable in [fileVariable, libraryVariable, sampleVariable, everyThreadVariable] { unsetenv(variable) }
        if let library { removeFromPreload(library) }
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for number in requests { sigaddset(&blocked, number) }
        // The writer thread and the watcher inherit the mask: requests are blocked there.
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        do {
            try LoopRecorder.start(
                on: CFRunLoopGetMain(), to: URL(fileURLWithPath: path), thread: "main", sampleInterval: sampleInterval)
        } catch {
            FileHandle.standardError.write(Data("LoopRecorderPreload: cannot record into \(path): \(error)\n".utf8))
            return
        }
        owner = getpid()
        atexit { PreloadedRecorder.stopInOwner() }
        watchSignals()
        if everyThread { loopviz_preload_record_every_thread(1) }
    }

    /// Adds the calling thread's loop to the recording (in the process that started the recorder). The main loop
    /// is recorded already: nothing happens for it.
    static func recordCallingThread() {
        guard getpid() == owner, !CFEqual(CFRunLoopGetCurrent(), CFRunLoopGetMain()) else { return }
        LoopRecorder.addCurrentThreadLoop()
    }

    /// Stops the recording (writes what is buffered, rewrites the header), in the process that started it only.
    static func stopInOwner() {
        guard getpid() == owner else { return }
        LoopRecorder.stop()
    }

    /// Installs the signal handlers and the thread they hand the flush to (a handler may only make
    /// async-signal-safe calls: it writes the signal's number to a pipe and waits for a byte back).
    private static func watchSignals() {
        var notify: [Int32] = [-1, -1]
        var done: [Int32] = [-1, -1]
        guard pipe(&notify) == 0 else { return }
        guard pipe(&done) == 0 else {
            close(notify[0])
            close(notify[1])
            return
        }
        // Not inherited by the programs the program starts.
        for descriptor in notify + done { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let (readNotify, writeDone) = (notify[0], done[1])
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readNotify, &byte, 1) < 0 && errno == EINTR {}
            LoopRecorder.mark("LoopRecorder: the program received signal \(signalName(Int32(byte)))")
            stopInOwner()
            _ = write(writeDone, &byte, 1)
        }
        _ = loopviz_preload_install_signals(notify[1], done[0], signalWaitMilliseconds)
    }

    /// The signal's name as C and the shells spell it.
    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
        ]
        return names[number] ?? "\(number)"
    }

    /// Takes `library` out of `LD_PRELOAD` (a list separated by colons or spaces), unsetting it when it is empty.
    private static func removeFromPreload(_ library: String) {
        guard let value = getenv("LD_PRELOAD") else { return }
        let kept = String(cString: value).split(whereSeparator: { $0 == ":" || $0 == " " })
            .filter { $0 != library }
        if kept.isEmpty {
            unsetenv("LD_PRELOAD")
        } else {
            setenv("LD_PRELOAD", kept.joined(separator: ":"), 1)
        }
    }
}
