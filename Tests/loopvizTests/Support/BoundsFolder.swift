import Foundation

/// A folder of scenario files and the executable started in it, with standard output wherever a test wants.
struct BoundsFolder {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files { try write(name, text) }
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: url.appendingPathComponent(name), atomically: false, encoding: .utf8)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
    }

    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// Starts loopviz in this folder; standard output goes to `stdout` (a pipe when nil).
    func start(_ arguments: [String], stdout: FileHandle? = nil) throws -> (Process, Pipe?, Pipe) {
        try LoopvizProcess.start(arguments, in: url, stdout: stdout)
    }

    /// Runs loopviz in this folder to its end.
    func run(_ arguments: [String], stdout: FileHandle? = nil) throws -> LoopvizProcess.Result {
        try LoopvizProcess.run(arguments, in: url, stdout: stdout)
    }
}
