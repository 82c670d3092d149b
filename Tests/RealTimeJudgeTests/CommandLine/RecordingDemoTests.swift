import Foundation
import LoopEngine
import Testing

/// `loopviz-demo` records itself on real time (a timer, a perform from another thread, a port, one deliberate
/// 300 ms hang), and `loopviz hangs` finds exactly that hang. Its kept recording is drawn by `RecordingTests` in
/// the deterministic suite.
@Suite("loopviz-demo records its own hang", .timeLimit(.minutes(15)))
struct RecordingDemoTests {
    @Test("loopviz-demo records itself, and hangs lists exactly its deliberate 300 ms hang")
    func demoHang() throws {
        let demo = LoopvizProcess.executable.deletingLastPathComponent().appendingPathComponent("loopviz-demo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("demo.jsonl")
        let process = Process()
        process.executableURL = demo
        process.arguments = [output.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let trace = try JSONLTraceReader.read(Array(try Data(contentsOf: output)), maximumEvents: 100_000)
        let hangs = BusySegment.all(in: trace.events).filter { $0.length >= .milliseconds(250) }
        #expect(hangs.count == 1)
        #expect(hangs.first.map { $0.length < .milliseconds(500) } == true)
        #expect(
            hangs.first?.marks.map(\.name) == [
                "tick 5", "decode image (the deliberate hang)", "decode image (the deliberate hang)",
            ])
        #expect(trace.header.recording?.process == "loopviz-demo" && trace.header.recording?.thread == "main")
        let result = try LoopvizProcess.run(["hangs", output.path])
        #expect(result.status == 1)
        #expect(result.stdout.split(separator: "\n").filter { $0.hasPrefix("hang ") }.count == 1)
    }
}
