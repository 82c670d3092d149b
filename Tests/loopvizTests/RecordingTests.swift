import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// A LoopRecorder recording through loopviz: `screen` draws a recording, and the UI replays it read-only.
@Suite("recordings in loopviz", .timeLimit(.minutes(15)))
struct RecordingTests {
    /// A recording of `loopviz-demo`, kept so its screen is the same on every run.
    static let fixture = Snapshot.packageRoot.appendingPathComponent(
        "Tests/loopvizTests/Snapshots/Recordings/demo.jsonl")

    // loopviz-demo recording itself on real time: `RecordingDemoTests` in RealTimeJudgeTests.

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
        _ = updateInline(&model, .resize(width: 100, height: 30))
        #expect(model.session.isReplay && model.trace.count == 100)
        let before = model.trace
        for key in ["f", "s", "w", "x", "b"] {
            #expect(updateInline(&model, .key(.character(Character(key)))) == [])
            #expect(model.flash?.text == "a recorded trace is read-only: pokes are unavailable")
        }
        #expect(model.trace == before && model.session.interventions.isEmpty)
    }
}
