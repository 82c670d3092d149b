#if os(Linux)
import Foundation
import Testing

/// Issue 10's endless re-entry through the built executable on real time: `run --clock real` (the real backend)
/// and `compare` (the real CFRunLoop) stop at the nesting limit with the message and exit status of the virtual
/// clock (`RunawayCommandTests` in the deterministic suite).
@Suite("runaway scenarios on the command line, on real time", .timeLimit(.minutes(15)))
struct RunawayRealTimeCommandTests {
    static let reentry = """
        thread T
          source0 s
            signal s
            run default for 1s
          run default for 1s
        at 1ms on T
          signal s
          wakeup
        expect in order
          source0 s
        """
    static let message =
        "loopviz: error: reentry.loop: source0 s re-entered the run loop of thread T 256 runs deep, the nesting "
        + "limit (256); the run was stopped there\n"

    @Test("run --clock real stops a callout that re-enters its loop without end: the trace, one line naming it, exit 2")
    func runStopsDeepReentry() throws {
        let result = try LoopvizProcess.run(
            ["run", "reentry.loop", "--clock", "real"], files: ["reentry.loop": Self.reentry])
        #expect(result.status == 2)
        #expect(result.stderr == Self.message)
        // The trace up to the limit is printed: the 256th run performed s.
        let lastPerform = result.stdout.split(separator: "\n").last { $0.contains("source0") }
        #expect(lastPerform?.contains("T       256") == true)
    }

    @Test("under `ulimit -s 512` the real clock still reaches the nesting limit, not a stack overflow")
    func smallStackLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.reentry.write(to: folder.appendingPathComponent("reentry.loop"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "ulimit -s 512 && exec \"$0\" run reentry.loop --clock real > /dev/null 2> /dev/null",
            LoopvizProcess.executable.path,
        ]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 2)
    }

    @Test("compare reports the nesting limit as an error of that file, exit 2")
    func compareStopsDeepReentry() throws {
        let result = try LoopvizProcess.run(["compare", "reentry.loop"], files: ["reentry.loop": Self.reentry])
        #expect(result.status == 2)
        #expect(result.stdout == "ERROR reentry.loop: the run reached the nesting limit\n")
        #expect(result.stderr == Self.message)
    }
}
#endif
