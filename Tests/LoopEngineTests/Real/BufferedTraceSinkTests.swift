import LoopEngine
import Testing

/// The bounded buffer between a loop's thread and a reader: kept events in order, drops counted where they happen.
@Suite("buffered trace sink")
struct BufferedTraceSinkTests {
    static func event(_ index: Int) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(index), loop: "T", depth: 1, mode: "default", iteration: index, kind: .note,
            fact: .note(.say("\(index)")))
    }

    @Test("a drain takes every event since the previous one, in order, and leaves the buffer empty")
    func drainTakesEverything() {
        let sink = BufferedTraceSink(capacity: 10)
        for index in 0..<4 { sink.record(Self.event(index)) }
        #expect(sink.drain() == .init(events: (0..<4).map(Self.event), dropped: 0))
        #expect(sink.drain() == .init(events: [], dropped: 0))
        sink.record(Self.event(4))
        #expect(sink.drain().events == [Self.event(4)])
        #expect(sink.recordedTotal == 5)
        #expect(sink.droppedTotal == 0)
    }

    @Test("a full buffer drops the newest events and says how many, right after the events it kept")
    func fullBufferCountsDrops() {
        let sink = BufferedTraceSink(capacity: 3)
        for index in 0..<5 { sink.record(Self.event(index)) }
        #expect(sink.drain() == .init(events: (0..<3).map(Self.event), dropped: 2))
        // Room again: recording resumes; the next batch has no drops of its own.
        for index in 5..<7 { sink.record(Self.event(index)) }
        #expect(sink.drain() == .init(events: [Self.event(5), Self.event(6)], dropped: 0))
        #expect(sink.droppedTotal == 2)
        #expect(sink.recordedTotal == 5)
    }

    @Test("the first event into an empty buffer cues the reader, once per batch")
    func firstEventCuesTheReader() {
        let cues = Counter()
        let sink = BufferedTraceSink(capacity: 8) { cues.increment() }
        sink.record(Self.event(0))
        sink.record(Self.event(1))
        #expect(cues.value == 1)
        _ = sink.drain()
        sink.record(Self.event(2))
        #expect(cues.value == 2)
    }

    @Test("a loop on the virtual clock can trace into it like into a recorder")
    func worksAsALoopSink() {
        let sink = BufferedTraceSink()
        let h = VirtualHarness()
        h.loop.sink = sink
        h.loop.run(mode: .default, seconds: 0)
        #expect(sink.drain().events.map(\.step) == ["runStart default", "result finished"])
    }

    /// A cue counter: the cue runs on the recording thread, here the test's own.
    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: only the test's thread touches it (the sink calls the cue on the recording thread).
        private(set) var value = 0
        func increment() { value += 1 }
    }
}
