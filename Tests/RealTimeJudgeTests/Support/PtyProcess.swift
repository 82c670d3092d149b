import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// loopviz on a pseudo-terminal, as a person runs the UI: its keys are bytes written to the terminal, its screen
/// the bytes read back, and the terminal's modes can be compared before and after (the UI must give them back).
final class PtyProcess {
    let process = Process()
    /// The terminal's controlling side (what a terminal emulator holds), and the side loopviz gets.
    private let master: Int32
    private let slave: Int32
    private let errors = Pipe()
    private let screen = Locked(Data())
    private let done = DispatchSemaphore(value: 0)
    /// The terminal's modes before loopviz started.
    private(set) var initialModes: [UInt8] = []

    /// Starts loopviz with `arguments` in `folder` on a fresh 100×35 terminal; `shell`, when given, is a `/bin/sh`
    /// prefix (`ulimit -f 8;`) run before loopviz replaces the shell (`exec`).
    init(_ arguments: [String], in folder: URL, shell: String? = nil) throws {
        master = posixOpenpt(O_RDWR | O_NOCTTY)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw POSIXError(.ENOTTY)
        }
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENOTTY) }
        var size = winsize(ws_row: 35, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let executable = LoopvizProcess.executable.path
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(shell) exec \"$@\"", "sh", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder
        process.environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = errors
        initialModes = modes
        try process.run()
        let master = master
        let screen = screen
        let done = done
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                screen.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
            done.signal()
        }
    }

    deinit {
        // The reader sees the end (EIO) once the last terminal side is closed; only then is its descriptor closed,
        // so it never reads a descriptor number another test has been given since.
        if process.isRunning { process.terminate() }
        close(slave)
        _ = done.wait(timeout: .now() + 10)
        close(master)
    }

    /// The terminal's modes as loopviz's side sees them (raw while the UI runs, restored after).
    var modes: [UInt8] {
        var modes = termios()
        tcgetattr(slave, &modes)
        return withUnsafeBytes(of: &modes) { Array($0) }
    }

    /// Waits (at most 30 s) until the UI has drawn `text`.
    func waitForScreen(containing text: String) -> Bool {
        for _ in 0..<3000 {
            if screen.withLock({ String(decoding: $0, as: UTF8.self) }).contains(text) { return true }
            if !process.isRunning { return false }
            usleep(10_000)
        }
        return false
    }

    /// Types `keys`.
    func type(_ keys: String) {
        _ = keys.withCString { write(master, $0, strlen($0)) }
    }

    /// Waits (at most 10 s) for loopviz to end; false when it still runs.
    func waitForExit() -> Bool {
        for _ in 0..<1000 {
            if !process.isRunning { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits for loopviz to end: its exit status and standard error.
    func wait() -> (status: Int32, stderr: String) {
        let error = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }
}

/// A value behind a lock, for the reader thread and the test.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

// The pseudo-terminal calls of <stdlib.h>, which the Glibc module leaves out (they need _XOPEN_SOURCE).
@_silgen_name("posix_openpt") private func posixOpenpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ descriptor: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ descriptor: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ descriptor: Int32) -> UnsafeMutablePointer<CChar>?
