import LoopEngine
import Testing

/// `hangs` reads a recording one event at a time and keeps only the segments it lists: what it keeps, counts and
/// measures must be what the whole trace's segments say.
@Suite("busy segments found one event at a time")
struct BusySegmentFinderTests {
    /// Two threads, each busy for 1, 120, 2, 300 and 600 ms between sleeps; B's last segment is left open.
    static var events: [LoopEvent] {
        var events: [LoopEvent] = []
        var now = 0.0
        for length in [1.0, 120, 2, 300, 600] {
            for loop in ["A", "B"] {
                events.append(BusySegmentTests.event(now, .afterWaiting, loop: loop))
                events.append(BusySegmentTests.event(now + 0.5, .note, loop: loop, name: "m", fact: .mark(.point)))
            }
            now += length
            if length == 600 { events.append(BusySegmentTests.event(now, .timer, loop: "B", name: "late")) }
            for loop in ["A", "B"] where !(length == 600 && loop == "B") {
                events.append(BusySegmentTests.event(now, .beforeWaiting, loop: loop))
                events.append(
                    BusySegmentTests.event(now, .sleep, loop: loop, fact: .wait(.sleep(nextTimer: nil, timeLimit: nil)))
                )
            }
            now += 10
        }
        return events
    }

    @Test("keeping the segments of 100 ms or more: exactly those of the whole trace, in order, and every one counted")
    func keepsTheLongOnes() {
        let all = BusySegment.all(in: Self.events)
        var finder = BusySegment.Finder(keepingAtLeast: .milliseconds(100))
        for event in Self.events { finder.add(event) }
        let summary = finder.finish()
        #expect(summary.kept == all.filter { $0.length >= .milliseconds(100) })
        #expect(summary.kept.map(\.loop) == ["A", "B", "A", "B", "A", "B"])
        #expect(summary.count == 10)
        #expect(all.count == 10)
        #expect(summary.longest == .milliseconds(600))
        #expect(summary.kept.last?.endedBy == nil)
    }

    @Test("a trace with no segment has no longest, and keeping from zero keeps every one")
    func emptyAndEverything() {
        var empty = BusySegment.Finder(keepingAtLeast: .zero)
        empty.add(BusySegmentTests.event(0, .timer, name: "t"))
        let none = empty.finish()
        #expect(none.kept.isEmpty && none.count == 0 && none.longest == nil)

        var every = BusySegment.Finder(keepingAtLeast: .zero)
        for event in Self.events { every.add(event) }
        #expect(every.finish().kept == BusySegment.all(in: Self.events))
    }
}
