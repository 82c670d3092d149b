import Foundation
import Testing

/// Text snapshots stored under `Tests/<target>/Snapshots/`. Set `RECORD_SNAPSHOTS=1` to re-record; a missing
/// snapshot is recorded and the test fails, so a new baseline is always looked at once.
public enum Snapshot {
    /// The package's root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Compares `actual` with the snapshot at `path`, relative to `Tests/<target>/Snapshots/`.
    public static func assertMatches(
        _ actual: String, _ path: String, target: String = "LoopEngineTests",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = packageRoot.appendingPathComponent("Tests/\(target)/Snapshots").appendingPathComponent(path)
        let stored = try? String(contentsOf: url, encoding: .utf8)
        if isRecording || stored == nil {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            if stored == nil {
                Issue.record("Recorded new baseline \(path); check it and run again", sourceLocation: sourceLocation)
            }
            return
        }
        guard let stored, stored != actual else { return }
        Issue.record(
            "\(path) differs (re-record with RECORD_SNAPSHOTS=1):\n\(lineDiff(stored, actual))",
            sourceLocation: sourceLocation)
    }

    /// A short diff: the first differing lines with a little context, `-` stored, `+` actual.
    static func lineDiff(_ old: String, _ new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = (0..<max(a.count, b.count)).first(where: { $0 >= a.count || $0 >= b.count || a[$0] != b[$0] })
        else { return "" }
        var lines: [String] = []
        for index in max(0, first - 2)..<first { lines.append("  " + a[index]) }
        for index in first..<min(a.count, first + 6) { lines.append("- " + a[index]) }
        for index in first..<min(b.count, first + 6) { lines.append("+ " + b[index]) }
        return lines.joined(separator: "\n")
    }
}
