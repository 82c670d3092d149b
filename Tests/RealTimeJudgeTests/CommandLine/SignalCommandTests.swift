import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A signal to a headless run of the built executable: the run is a real process, so the test waits on real time
/// for its output to open before it sends the signal.
@Suite("signals end a headless run cleanly", .timeLimit(.minutes(15)))
struct SignalCommandTests {
    /// A timer every millisecond for a day: a million events in about 143 virtual seconds.
    static let runaway = """
        scenario "runaway"
        until 100000s
        thread T
          timer t at 1ms every 1ms
          run default for 100000s
        """

    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(
        "a signal ends a headless run with 128 + its number, the old -o file intact and no temporary file left",
        arguments: [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)] as [(Int32, Int32)])
    func signalLeavesTheOldFile(_ signal: Int32, _ status: Int32) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "loopviz-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.runaway.write(to: folder.appendingPathComponent("runaway.loop"), atomically: false, encoding: .utf8)
        try "old\n".write(to: folder.appendingPathComponent("out.txt"), atomically: false, encoding: .utf8)
        let (process, _, err) = try LoopvizProcess.start(
            ["run", "runaway.loop", "--max-events", "10000000", "-o", "out.txt"], in: folder)
        // The temporary file appears once the output is open, after the handlers are installed (at most 10 s).
        var waited = 0
        while !Self.names(in: folder).contains(where: { $0.hasPrefix(".out.txt.loopviz-") }) && waited < 2_000 {
            usleep(5_000)
            waited += 1
        }
        #expect(Self.names(in: folder).contains { $0.hasPrefix(".out.txt.loopviz-") })
        kill(process.processIdentifier, signal)
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(error.isEmpty)
        #expect(try String(contentsOf: folder.appendingPathComponent("out.txt"), encoding: .utf8) == "old\n")
        #expect(Self.names(in: folder) == ["out.txt", "runaway.loop"])
    }
}
