import LoopEngine
import Testing

extension Rules {
    /// What makes a fire `late` (docs/cfrunloop.md §9.3, the missed-fire rule): a missed tick of the grid, or a fire at least
    /// `RunLoopCore.lateThreshold` after its deadline. A real clock's wake latency is neither.
    @Suite("a timer fire is late only when it missed a tick or came a millisecond or more after its deadline")
    struct TimerLatenessTests {
        /// The facts of the `timer` events, in order.
        private static func facts(_ harness: VirtualHarness) -> [LoopEvent.Fact?] {
            harness.recorder.events.filter { $0.kind == .timer }.map(\.fact)
        }

        @Test("a repeating timer that misses two ticks is late by two; its next fires are on time")
        func missedTicksAreCounted() {
            let h = VirtualHarness()
            let busy = h.source("busy") { h.work(250) }
            h.timer("T", at: 100, every: 100)
            busy.signal()
            h.run(.default, 0.45)
            // Busy until 250: fired at 250 for the 100 tick (the 200 tick is dropped), then at 300 and 400.
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: 1), nil, nil])
        }

        @Test("a fire less than a millisecond after its deadline is on time (the real clock's wake latency)")
        func wakeLatencyIsNotLate() {
            let h = VirtualHarness()
            let busy = h.source("busy") { h.loop.clock.spend(.microseconds(100_500)) }
            h.timer("T", at: 100, every: 1000)
            busy.signal()
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [nil])
        }

        @Test("a repeating timer overdue by a millisecond or more but with no tick missed is late, missing none")
        func overdueWithoutMissedTick() {
            let h = VirtualHarness()
            let busy = h.source("busy") { h.work(150) }
            h.timer("T", at: 100, every: 1000)
            busy.signal()
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: 0)])
        }

        @Test("a one-shot timer overdue by a millisecond or more is late, with no grid")
        func lateOneShot() {
            let h = VirtualHarness()
            let busy = h.source("busy") { h.work(150) }
            h.timer("T", at: 100)
            busy.signal()
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: nil)])
        }
    }
}
