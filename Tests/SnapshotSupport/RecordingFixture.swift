import Foundation

/// A LoopRecorder recording (the checked-in demo, with its 300 ms hang) as it is while being written: its header
/// says `"events": null` at the same width, as LoopRecorder's first header does, until ``finishedHeader``. Shared
/// by the follow tests of the deterministic suite and `record --live`'s tests among the real-time judges.
public enum RecordingFixture {
    public static let finished: [UInt8] = Array(
        try! Data(
            contentsOf: Snapshot.packageRoot.appendingPathComponent(
                "Tests/loopvizTests/Snapshots/Recordings/demo.jsonl")))

    /// The header line, with its newline, as rewritten when the recorder stops.
    public static var finishedHeader: [UInt8] { Array(finished.prefix(through: finished.firstIndex(of: 0x0A)!)) }

    /// The header line while recording: the counts replaced by `null`, padded to the same width.
    public static var recordingHeader: [UInt8] {
        let text = String(decoding: finishedHeader.dropLast(), as: UTF8.self)
        let open = text.replacingOccurrences(of: "\"events\":100,\"dropped\":0}", with: "\"events\":null}")
        return Array(open.utf8) + [UInt8](repeating: 0x20, count: finishedHeader.count - 1 - open.utf8.count) + [0x0A]
    }

    /// The event lines, each with its newline.
    public static var eventLines: [[UInt8]] {
        finished.dropFirst(finishedHeader.count).split(separator: 0x0A).map { Array($0) + [0x0A] }
    }
}
