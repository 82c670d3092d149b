import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// The runtime's side of `--follow` on a real file written step by step: each look reads what was added since the
/// last, a torn line waits, the rewritten header ends it, and a file cut shorter or replaced stops it.
@Suite("following a file: the feed")
struct FollowFeedTests {
    /// A fresh file holding `bytes`, removed after `body`.
    static func withFile(_ bytes: [UInt8], _ body: (String, FileHandle) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("follow-\(UUID().uuidString).jsonl")
            .path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try body(path, handle)
    }

    static func batch(_ message: AppMessage?) -> FollowBatch? {
        if case .followed(let batch) = message { batch } else { nil }
    }

    @Test("each look reads what was written since the last; a torn line waits; the rewritten header ends it")
    func growingFile() throws {
        let lines = FollowFixture.eventLines
        let events = FollowFixture.events
        try Self.withFile(FollowFixture.recordingHeader + lines[0]) { path, handle in
            let feed = try FollowFeed(path: path)
            let first = Self.batch(feed.take())
            #expect(first?.header?.recording?.thread == "main")
            #expect(first?.events == [events[0]] && first?.ended == false)
            #expect(feed.take() == nil)
            try handle.write(contentsOf: lines[1] + lines[2].prefix(20))
            #expect(Self.batch(feed.take()) == FollowBatch(events: [events[1]]))
            try handle.write(contentsOf: Array(lines[2].dropFirst(20)))
            #expect(Self.batch(feed.take()) == FollowBatch(events: [events[2]]))
            try handle.write(contentsOf: lines[3...].flatMap { $0 })
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: FollowFixture.finishedHeader)
            #expect(Self.batch(feed.take()) == FollowBatch(events: Array(events[3...]), ended: true))
            #expect(feed.take() == nil)
        }
    }

    @Test("a file cut shorter than what was read stops following with both sizes")
    func truncated() throws {
        let start = FollowFixture.recordingHeader + FollowFixture.eventLines[0]
        try Self.withFile(start) { path, handle in
            let feed = try FollowFeed(path: path)
            _ = feed.take()
            try handle.truncate(atOffset: 10)
            #expect(
                Self.batch(feed.take()) == FollowBatch(problem: .truncated(size: 10, read: start.count)))
            #expect(feed.take() == nil)
        }
    }

    @Test("a path that now names another file stops following: the file read is not the one named")
    func replaced() throws {
        try Self.withFile(FollowFixture.recordingHeader) { path, _ in
            let feed = try FollowFeed(path: path)
            _ = feed.take()
            try FileManager.default.removeItem(atPath: path)
            _ = FileManager.default.createFile(atPath: path, contents: Data(FollowFixture.recordingHeader))
            #expect(Self.batch(feed.take()) == FollowBatch(problem: .replaced))
        }
    }

    @Test("a line that is not a trace line stops following with its line number")
    func unreadable() throws {
        try Self.withFile(FollowFixture.recordingHeader + Array("{\"t\":oops}\n".utf8)) { path, _ in
            let feed = try FollowFeed(path: path)
            guard case .unreadable(let failure) = Self.batch(feed.take())?.problem else {
                Issue.record("expected an unreadable line")
                return
            }
            #expect(failure.line == 2)
        }
    }

    @Test("a file that cannot be opened, or is not a regular file, is refused with the reason")
    func cannotOpen() {
        #expect(throws: FollowOpenError(path: "/nonexistent/x.jsonl", reason: "No such file or directory")) {
            try FollowFeed(path: "/nonexistent/x.jsonl")
        }
        #expect(throws: FollowOpenError(path: "/tmp", reason: "not a regular file")) { try FollowFeed(path: "/tmp") }
    }
}

/// `record --live`'s side of the feed: the file renamed into place while it is read, and the writer's end.
@Suite("following a file: renamed, and its writer ended")
struct FollowFeedRenameTests {
    @Test("a file renamed while it is read is read on under its new path, and checked there")
    func renamed() throws {
        let lines = FollowFixture.eventLines
        try FollowFeedTests.withFile(FollowFixture.recordingHeader + lines[0]) { path, handle in
            let feed = try FollowFeed(path: path)
            #expect(FollowFeedTests.batch(feed.take())?.events == [FollowFixture.events[0]])
            let final = path + ".final"
            defer { try? FileManager.default.removeItem(atPath: final) }
            #expect(rename(path, final) == 0)
            feed.moved(to: final)
            try handle.write(contentsOf: lines[1])
            #expect(FollowFeedTests.batch(feed.take()) == FollowBatch(events: [FollowFixture.events[1]]))
            // The old path naming a file again does not matter; the new one naming another file does.
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            #expect(feed.take() == nil)
            try FileManager.default.removeItem(atPath: final)
            _ = FileManager.default.createFile(atPath: final, contents: Data())
            #expect(FollowFeedTests.batch(feed.take()) == FollowBatch(problem: .replaced))
        }
    }

    @Test("once its writer has ended, everything read ends following though the header was never rewritten")
    func writerEnded() throws {
        let lines = FollowFixture.eventLines
        try FollowFeedTests.withFile(FollowFixture.recordingHeader + lines[0]) { path, handle in
            let feed = try FollowFeed(path: path)
            _ = feed.take()
            try handle.write(contentsOf: lines[1])
            feed.writerEnded()
            #expect(FollowFeedTests.batch(feed.take()) == FollowBatch(events: [FollowFixture.events[1]], ended: true))
            #expect(feed.take() == nil)
        }
    }

    @Test("a writer that ended without writing a header recorded nothing, and following says so")
    func nothingRecorded() throws {
        try FollowFeedTests.withFile([]) { path, _ in
            let feed = try FollowFeed(path: path)
            #expect(feed.take() == nil)
            feed.writerEnded()
            #expect(FollowFeedTests.batch(feed.take()) == FollowBatch(problem: .nothingRecorded))
            #expect(feed.take() == nil)
        }
    }
}
