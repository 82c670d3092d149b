import Foundation
import Testing

/// The main thread's run loop outlives every scenario a `loopviz compare` process runs, and CF never removes a
/// mode: what the oracle leaves there must grow by each scenario's own modes only, and running out of file
/// descriptors must be a refusal with why, never a crash inside CF.
@Suite("compare: the main thread's loop across many scenarios", .timeLimit(.minutes(15)))
struct CompareMainLoopModesTests {
    static let scenario = """
        scenario "a custom mode on main"
        thread main main
          port p in Custom
          timer t at 10ms in Custom
          run Custom for 20ms
        """

    /// `loopviz compare --quiet` of `copies` copies of ``scenario`` in one process, under `ulimit -n descriptors`.
    static func compare(copies: Int, descriptors: Int) throws -> (status: Int32, stdout: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.scenario.utf8).write(to: folder.appendingPathComponent("m.loop"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            [
                "-c", "ulimit -n \(descriptors) && exec \"$0\" compare --quiet --tolerance 60ms \"$@\"",
                LoopvizProcess.executable.path,
            ] + Array(repeating: "m.loop", count: copies)
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    #if os(Linux)
    @Test("forty main-thread scenarios with a mode of their own agree in one process with 400 descriptors")
    func modesGrowByTheScenariosOwn() throws {
        // Before: the tracer named every earlier scenario's mode again under the new prefix, doubling the main
        // loop's modes (and descriptors) with each scenario: CF crashed (SIGILL) creating one by the ninth.
        let result = try Self.compare(copies: 40, descriptors: 400)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "AGREE m.loop").count - 1 == 40, "\(result.stdout)")
    }

    @Test("out of file descriptors, a main-thread scenario is refused with why: ERROR and exit status 2, no crash")
    func refusedWhenDescriptorsRunOut() throws {
        let result = try Self.compare(copies: 2, descriptors: 200)
        #expect(result.status == 2, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "ERROR m.loop: the CF oracle could not set the scenario up: too few file descriptors"),
            "\(result.stdout)")
    }
    #endif
}
