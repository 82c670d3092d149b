import Foundation
import LoopEngine

@testable import loopviz

/// A LoopRecorder recording (the checked-in demo, with its 300 ms hang) as it is while being written: its header
/// says `"events": null` at the same width, as LoopRecorder's first header does, until ``finishedHeader``.
enum FollowFixture {
    static let finished: [UInt8] = Array(
        try! Data(
            contentsOf: LoopvizProcess.packageRoot.appendingPathComponent(
                "Tests/loopvizTests/Snapshots/Recordings/demo.jsonl")))

    /// The header line, with its newline, as rewritten when the recorder stops.
    static var finishedHeader: [UInt8] { Array(finished.prefix(through: finished.firstIndex(of: 0x0A)!)) }

    /// The header line while recording: the counts replaced by `null`, padded to the same width.
    static var recordingHeader: [UInt8] {
        let text = String(decoding: finishedHeader.dropLast(), as: UTF8.self)
        let open = text.replacingOccurrences(of: "\"events\":100,\"dropped\":0}", with: "\"events\":null}")
        return Array(open.utf8) + [UInt8](repeating: 0x20, count: finishedHeader.count - 1 - open.utf8.count) + [0x0A]
    }

    /// The event lines, each with its newline.
    static var eventLines: [[UInt8]] {
        finished.dropFirst(finishedHeader.count).split(separator: 0x0A).map { Array($0) + [0x0A] }
    }

    /// Every event of the finished recording, as the whole-file reader reads them.
    static var events: [LoopEvent] { Array(try! JSONLTraceReader.read(finished, maximumEvents: 1000).events) }

    /// A model following a recording (80x24), before anything is read.
    static func model(width: Int = 80) -> AppModel {
        var model = AppModel(session: Session(following: "demo.jsonl"), fileName: "demo.jsonl")
        _ = updateInline(&model, .resize(width: width, height: 24))
        return model
    }
}
