import Foundation
import Synchronization

/// Runs the `loopviz` executable built next to the tests: the one way every command-line test starts it.
struct LoopvizProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        // The test runner lives in the build folder beside the executable (whatever the scratch path: the TSan
        // script builds into .build-tsan); the package's default build folder is the last resort.
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].compactMap { $0?.appendingPathComponent("loopviz") }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue {
                return candidate
            }
        }
        return packageRoot.appendingPathComponent(".build/debug/loopviz")
    }

    /// Runs loopviz in a fresh temporary folder holding `files` (text) and `bytes` (anything), and `sparse` files
    /// of the given sizes that take no disk; the folder is removed afterwards.
    static func run(
        _ arguments: [String], files: [String: String] = [:], bytes: [String: [UInt8]] = [:],
        sparse: [String: UInt64] = [:]
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        for (name, content) in bytes { try Data(content).write(to: folder.appendingPathComponent(name)) }
        for (name, size) in sparse {
            let url = folder.appendingPathComponent(name)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: size)
            try handle.close()
        }
        return try run(arguments, in: folder)
    }

    /// Starts loopviz in `folder`; standard output goes to `stdout` (a pipe when nil), standard error to a pipe.
    static func start(
        _ arguments: [String], in folder: URL, stdout: FileHandle? = nil
    ) throws -> (
        Process, Pipe?, Pipe
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = stdout == nil ? Pipe() : nil
        let err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    /// How long one run may take before it is killed: far beyond any command the tests run (the slowest, every
    /// lesson compared with the real CFRunLoop under ThreadSanitizer, takes a few minutes), so that a command that
    /// hangs fails its test instead of hanging the test runner.
    static let timeLimit: TimeInterval = 900

    /// Runs loopviz in `folder` to its end, reading both pipes at once so that neither fills while the other is
    /// read. Past `timeLimit` it is killed, and its standard error says so.
    static func run(_ arguments: [String], in folder: URL, stdout: FileHandle? = nil) throws -> Result {
        let (process, out, err) = try start(arguments, in: folder, stdout: stdout)
        nonisolated(unsafe) var error = Data()
        let errorRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            error = err.fileHandleForReading.readDataToEndOfFile()
            errorRead.signal()
        }
        let killed = Atomic<Bool>(false)
        let pid = process.processIdentifier
        let deadline = DispatchWorkItem {
            killed.store(true, ordering: .relaxed)
            kill(pid, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: deadline)
        let output = out?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        deadline.cancel()
        errorRead.wait()
        var stderr = String(decoding: error, as: UTF8.self)
        if killed.load(ordering: .relaxed) {
            stderr +=
                "\n(LoopvizProcess: loopviz \(arguments.joined(separator: " ")) did not end within \(Int(timeLimit)) s: killed)"
        }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: stderr)
    }
}
