import Testing

@testable import LoopEngine

/// The core hands a ``TraceRecorder`` names as ids that the loop, its modes and its items remember
/// (``TraceNameSlot``): the trace must read exactly as the events the same run gives any other sink, whichever
/// recorder the loop records into and however often a recorder starts over.
@Suite("a recorder takes names as ids the loop remembers")
struct TraceRecorderNameTests {
    /// A sink that keeps the events the core's parts make: the reference, with no ids.
    final class PlainSink: TraceSink {
        var events: [LoopEvent] = []
        func record(_ event: consuming LoopEvent) { events.append(event) }
    }

    /// Three phases on one loop, each recorded by the sink `sink(phase)` gives: two modes, an observer, two
    /// timers, a version-0 source and a block, so that every kind of name slot (loop, mode, item) is used.
    static func play(_ sink: (Int) -> any TraceSink) {
        let h = VirtualHarness()
        h.loop.sink = sink(0)
        h.observer("o", [.beforeTimers, .beforeWaiting])
        h.timer("t", at: 10)
        h.source("s").signal()
        h.run(.default, 0.03)
        h.loop.sink = sink(1)
        h.observer("o-M1", [.entry, .exit], in: ModeName("M1"))
        h.timer("u", at: 50, in: ModeName("M1"))
        h.block("b", [ModeName("M1")])
        h.run(ModeName("M1"), 0.04)
        h.loop.sink = sink(2)
        h.source("s2").signal()
        h.run(.default, 0.01)
    }

    @Test("a second recorder, and the first one emptied, read their names as the parts name them")
    func namesAcrossRecordersAndRestarts() {
        let reference = (0..<3).map { _ in PlainSink() }
        Self.play { reference[$0] }
        let first = TraceRecorder()
        let second = TraceRecorder()
        var firstPhases: [[LoopEvent]] = []
        Self.play { phase in
            switch phase {
            case 0: return first
            case 1:
                firstPhases.append(first.events)
                return second
            default:
                // The first recorder starts over: ids the loop remembers for its old table must not be used.
                first.removeAll()
                return first
            }
        }
        #expect(reference.allSatisfy { !$0.events.isEmpty })
        #expect(firstPhases == [reference[0].events])
        #expect(second.events == reference[1].events)
        #expect(first.events == reference[2].events)
    }

    @Test("a recorder that reuses another's events keeps its own ids for the names that follow")
    func reusedTraceKeepsItsNames() {
        let reference = PlainSink()
        Self.play { _ in reference }
        let whole = TraceRecorder()
        Self.play { _ in whole }
        #expect(whole.events == reference.events)
        // A replay of the same run that reuses its first ten events: the names after them are interned into the
        // reused trace's table, not read from slots filled for `whole`'s.
        let replay = TraceRecorder()
        replay.reuse(whole.trace, count: 10)
        Self.play { _ in replay }
        #expect(replay.events == reference.events)
    }
}
