import Foundation
import LoopEngine
import SnapshotSupport

@testable import loopviz

/// The demo recording while being written (``RecordingFixture``), with what the follow tests read of it.
enum FollowFixture {
    static var finished: [UInt8] { RecordingFixture.finished }
    static var finishedHeader: [UInt8] { RecordingFixture.finishedHeader }
    static var recordingHeader: [UInt8] { RecordingFixture.recordingHeader }
    static var eventLines: [[UInt8]] { RecordingFixture.eventLines }

    /// Every event of the finished recording, as the whole-file reader reads them.
    static var events: [LoopEvent] { Array(try! JSONLTraceReader.read(finished, maximumEvents: 1000).events) }

    /// A model following a recording (80x24), before anything is read.
    static func model(width: Int = 80) -> AppModel {
        var model = AppModel(session: Session(following: "demo.jsonl"), fileName: "demo.jsonl")
        _ = updateInline(&model, .resize(width: width, height: 24))
        return model
    }
}
