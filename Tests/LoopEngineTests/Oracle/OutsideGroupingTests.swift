import LoopEngine
import Testing

/// The grouping of outside events by instant that the live runner's rule and both oracles share.
@Suite("Outside events grouped by time")
struct OutsideGroupingTests {
    @Test("events of one instant stay together in declaration order; instants ascend")
    func grouping() {
        let events = [
            OutsideEvent(at: .milliseconds(50), [.note("a")]), OutsideEvent(at: .milliseconds(20), [.note("b")]),
            OutsideEvent(at: .milliseconds(50), thread: "U", [.note("c")]),
            OutsideEvent(at: .milliseconds(20), [.note("d")]),
        ]
        let groups = OutsideEvent.groupedByTime(events)
        #expect(groups.map(\.time) == [.milliseconds(20), .milliseconds(50)])
        #expect(groups.map(\.events) == [[events[1], events[3]], [events[0], events[2]]])
    }
}
