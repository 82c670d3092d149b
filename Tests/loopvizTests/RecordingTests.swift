import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// A LoopRecorder recording through loopviz: the demo finds its own hang, `screen` draws a recording, and the UI
/// replays it read-only.
@Suite("recordings in loopviz", .timeLimit(.minutes(15)))
struct RecordingTests {
    /// A recording of `loopviz-demo`, kept so its screen is the same on every run.
    static let fixture = Snapshot.packageRoot.appendingPathComponent(
        "Tests/loopvizTests/Snapshots/Recordings/demo.jsonl")

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

    @Test("screen draws a recording at a step (the end of the hang)")
    func screen() throws {
        let result = try LoopvizProcess.run(["screen", Self.fixture.path, "--step", "40", "--size", "100x30"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        Snapshot.assertMatches(result.stdout, "Screens/recording-demo-100x30-step40.screen", target: "loopvizTests")
    }

    @Test(
        "screen draws a recording inside its hang: the lane marks it, the Why pane names it", arguments: [false, true])
    func screenInHang(ascii: Bool) throws {
        let arguments = ["screen", Self.fixture.path, "--step", "42", "--size", "100x30"] + (ascii ? ["--ascii"] : [])
        let result = try LoopvizProcess.run(arguments)
        #expect(result.status == 0 && result.stderr.isEmpty)
        if ascii { #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII }) }
        Snapshot.assertMatches(
            result.stdout, "Screens/recording-demo-100x30-step42\(ascii ? "-ascii" : "").screen", target: "loopvizTests"
        )
    }

    @Test("a replay steps back and forth but refuses pokes, and says so")
    func readOnly() throws {
        guard case .success(var model) = UICommand.loadModel(Self.fixture.path) else {
            Issue.record("the fixture does not load")
            return
        }
        _ = update(&model, .resize(width: 100, height: 30))
        #expect(model.session.isReplay && model.trace.count == 100)
        let before = model.trace
        for key in ["f", "s", "w", "x", "b"] {
            #expect(update(&model, .key(.character(Character(key)))) == [])
            #expect(model.flash?.text == "a recorded trace is read-only: pokes are unavailable")
        }
        #expect(model.trace == before && model.session.interventions.isEmpty)
    }
}
