import Foundation
import LoopEngine
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#endif

#if os(Linux)
/// docs/limits.md, the open files row: every port and mode of a real loop is a file descriptor, so a scenario with
/// many modes on the real clock meets the process's limit on open files; the run stops there with a message and
/// exit 2, as at the thread limit, and never traps.
@Suite("the real clock out of file descriptors")
struct DescriptorLimitCommandTests {
    /// One timer in 200 modes: each mode is a timerfd and an epoll instance, 400 descriptors on thread T.
    static let manyModes =
        "scenario \"many modes\"\nthread T\n  timer t at 1ms every 1ms in default, "
        + (1...200).map { "m\($0)" }.joined(separator: ", ") + "\n  run default for 10ms\n"

    /// Runs `loopviz ARGUMENTS` under `ulimit -n LIMIT` in a folder holding `modes.loop`; its status and standard
    /// error (the trace goes nowhere).
    static func runLimited(_ arguments: String, openFiles limit: Int) throws -> (status: Int32, stderr: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-fd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(manyModes.utf8).write(to: folder.appendingPathComponent("modes.loop"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "ulimit -n \(limit) && exec \"$0\" \(arguments) > /dev/null 2> stderr.txt",
            LoopvizProcess.executable.path,
        ]
        process.currentDirectoryURL = folder
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)
        let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
        return (status, stderr)
    }

    @Test("run --clock real under `ulimit -n 64` stops where a descriptor is refused: one line naming it, exit 2")
    func runStopsAtTheLimitOnOpenFiles() throws {
        let result = try Self.runLimited("run modes.loop --clock real", openFiles: 64)
        #expect(result.status == 2)
        // Which mode meets the limit depends on the descriptors the process holds before the run (the runtime's);
        // the mode's timer port or its port set, and the rest of the line, do not.
        let line = try #require(result.stderr.split(separator: "\n", omittingEmptySubsequences: false).first)
        let refusedTimer = try Regex(
            #"^loopviz: error: modes\.loop: T\.m[0-9]+\.timer could not be created \(timerfd_create\): "#
                + #"too many open files \(the process limit is 64\); the run was stopped there$"#)
        let refusedSet = try Regex(
            #"^loopviz: error: modes\.loop: the port set T\.m[0-9]+ could not be created \(epoll_create1\): "#
                + #"too many open files \(the process limit is 64\); the run was stopped there$"#)
        #expect(
            line.wholeMatch(of: refusedTimer) != nil || line.wholeMatch(of: refusedSet) != nil, "\(result.stderr)")
        #expect(result.stderr == line + "\n")
    }

    @Test("the message names the refused port, the call, the process limit, and says when the system ran out")
    func messageSaysWhichLimit() {
        let process = DescriptorLimit(port: "T.m7.timer", call: "timerfd_create", osError: EMFILE, processLimit: 64)
        #expect(
            LimitReport.message(.descriptorLimit(process), path: "f.loop")
                == "loopviz: error: f.loop: T.m7.timer could not be created (timerfd_create): too many open files "
                + "(the process limit is 64); the run was stopped there")
        let system = DescriptorLimit(
            port: "the port set T.m7", call: "epoll_create1", osError: ENFILE, processLimit: nil)
        #expect(
            LimitReport.message(.descriptorLimit(system), path: "f.loop")
                == "loopviz: error: f.loop: the port set T.m7 could not be created (epoll_create1): too many open files in "
                + "the system; the run was stopped there")
        #expect(LimitReport.shortSummary(.descriptorLimit(process)) == "too many open files at T.m7.timer")
    }
}
#endif
