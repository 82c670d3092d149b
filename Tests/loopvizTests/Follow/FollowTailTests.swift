import LoopEngine
import Testing

@testable import loopviz

/// `--follow` reads a recording in chunks of whatever size a look finds: every complete line is an event as the
/// whole-file reader reads it, and a torn last line waits for the rest of its bytes.
@Suite("following a file: the tail")
struct FollowTailTests {
    @Test("chunks of any size give exactly the events the whole-file reader gives", arguments: [1, 7, 100, 4096])
    func chunksGiveTheSameEvents(size: Int) throws {
        var tail = FollowTail()
        var events: [LoopEvent] = []
        var at = 0
        while at < FollowFixture.finished.count {
            let end = min(at + size, FollowFixture.finished.count)
            events += try tail.feed(Array(FollowFixture.finished[at..<end]))
            at = end
        }
        #expect(events == FollowFixture.events)
        #expect(tail.header?.recording == .init(process: "loopviz-demo", pid: 2011, thread: "main"))
        #expect(tail.headerLength == FollowFixture.finishedHeader.count)
        #expect(tail.bytesTaken == FollowFixture.finished.count && tail.waitingBytes == 0)
    }

    @Test("a torn last line gives nothing until its newline arrives, then its event")
    func tornLineWaits() throws {
        var tail = FollowTail()
        let line = FollowFixture.eventLines[0]
        #expect(try tail.feed(FollowFixture.recordingHeader + line.prefix(30)) == [])
        #expect(tail.waitingBytes == 30)
        #expect(try tail.feed(Array(line.dropFirst(30))) == [FollowFixture.events[0]])
        #expect(tail.waitingBytes == 0)
    }

    @Test("a line that grows past the readers' bound is refused at once, not held")
    func endlessLineIsRefused() throws {
        var tail = FollowTail()
        _ = try tail.feed(FollowFixture.recordingHeader)
        #expect(
            throws: JSONLTraceReader.Failure(line: 2, column: nil, message: "longer than 65536 bytes")
        ) { try tail.feed([UInt8](repeating: 0x61, count: JSONLTraceReader.maximumLineLength + 1)) }
    }

    @Test("the header says the program ended once LoopRecorder rewrote it with its counts")
    func headerSaysEnded() {
        #expect(!FollowTail.saysEnded(headerLine: FollowFixture.recordingHeader))
        #expect(FollowTail.saysEnded(headerLine: FollowFixture.finishedHeader))
        #expect(!FollowTail.saysEnded(headerLine: Array("{\"format\":".utf8)))
    }
}
