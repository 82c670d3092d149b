import LoopEngine
import Testing

@testable import loopviz

/// A trace file is replayed from a stream (`ReplayTail`): only the events the UI keeps are held, and the rest is
/// counted, so a recording of 10⁷ events opens with the memory of 200,000.
@Suite("a replay keeps the tail of a streamed trace")
struct ReplayTailTests {
    static func event(_ index: Int, _ thread: String, fact: LoopEvent.Fact? = nil) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(index), loop: thread, depth: 1, mode: "default", iteration: index,
            kind: .beforeTimers, fact: fact)
    }

    @Test("up to its capacity every event is kept and none is forgotten")
    func shortTraceKeptWhole() {
        var tail = ReplayTail(capacity: 8)
        let events = (0..<8).map { Self.event($0, "main") }
        events.forEach { tail.append($0) }
        #expect(tail.events == events)
        #expect(tail.forgotten == 0 && tail.total == 8)
    }

    @Test("past its capacity the newest three quarters are kept; threads and drops count the whole stream")
    func longTraceKeepsItsNewest() {
        var tail = ReplayTail(capacity: 8)
        var events = [Self.event(0, "early", fact: .dropped(5))]
        events += (1..<20).map { Self.event($0, $0.isMultiple(of: 3) ? "worker" : "main") }
        events.append(Self.event(20, "main", fact: .dropped(2)))
        events.forEach { tail.append($0) }
        #expect(tail.events == Array(events.suffix(6)))
        #expect(tail.forgotten == events.count - 6 && tail.total == events.count)
        #expect(tail.threads == ["early", "main", "worker"])
        #expect(tail.dropped == 7)
    }

    @Test("a session replaying a tail counts the events before it as forgotten, as a live session that forgot them")
    func sessionCountsTheForgotten() {
        var tail = ReplayTail(capacity: 8)
        (0..<30).forEach { tail.append(Self.event($0, "main")) }
        let header = JSONLTraceHeader(scenario: "app", clock: .real, events: nil)
        let session = Session(replay: header, tail: tail)
        #expect(session.trace.count == 6)
        #expect(session.forgottenEvents == 24)
        #expect(session.trace.first?.iteration == 24)
    }
}
