import Foundation
import LoopEngine
import Testing

/// Golden files for the three export formats of one small scenario, compared byte for byte. They live in
/// `Tests/LoopEngineTests/Snapshots/Export/` (excluded from the test target's sources). Run with
/// `RECORD_SNAPSHOTS=1` to re-record after an intended change; a missing file is recorded and fails the test.
@Suite("export snapshots")
struct ExportSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots/Export")

    static func assertSnapshot(
        _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let url = directory.appendingPathComponent(name)
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let existed = FileManager.default.fileExists(atPath: url.path)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            if !existed { Issue.record("Recorded new baseline at \(url.path)", sourceLocation: sourceLocation) }
            return
        }
        #expect(
            actual == expected, "\(name) differs from its snapshot; RECORD_SNAPSHOTS=1 re-records it",
            sourceLocation: sourceLocation)
    }

    static var events: [LoopEvent] { ScenarioRunner.run(ExportScenarios.small).events }

    @Test("JSONL of the small scenario matches its snapshot")
    func jsonl() throws {
        try Self.assertSnapshot(JSONLTraceFormatter.format(Self.events, scenario: "small"), named: "small.jsonl")
    }

    @Test("Chrome trace of the small scenario matches its snapshot")
    func chrome() throws {
        try Self.assertSnapshot(ChromeTraceFormatter.format(Self.events, scenario: "small"), named: "small.json")
    }

    @Test("Mermaid diagram of the small scenario matches its snapshot")
    func mermaid() throws {
        try Self.assertSnapshot(MermaidTraceFormatter.format(Self.events, scenario: "small"), named: "small.mmd")
    }
}
