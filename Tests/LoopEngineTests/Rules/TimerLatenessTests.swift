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
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: 1, cause: .busy), nil, nil])
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
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: 0, cause: .busy)])
        }

        @Test("a one-shot timer overdue by a millisecond or more is late, with no grid")
        func lateOneShot() {
            let h = VirtualHarness()
            let busy = h.source("busy") { h.work(150) }
            h.timer("T", at: 100)
            busy.signal()
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [.late(due: h.ms(100), missed: nil, cause: .busy)])
        }

        // Why a fire is late (LoopEvent.LateCause): only a callout that outlasts the deadline is "busy".

        @Test("a timer whose mode was not running at its deadline is late because of it, not busy (§9.4)")
        func lateBecauseItsModeWasNotRunning() {
            let h = VirtualHarness()
            h.keepAlive("K", in: .default)
            h.keepAlive("K2", in: "X")
            h.timer("T", at: 50, in: "X")
            h.run(.default, 0.1)
            h.run("X", 0.01)
            #expect(Self.facts(h) == [.late(due: h.ms(50), missed: nil, cause: .modeNotRunning)])
        }

        @Test("a timer added to its mode after its date fires at once, late because it was added late (§9.1)")
        func lateBecauseAddedAfterItsDate() {
            let h = VirtualHarness()
            h.keepAlive("K", in: .default)
            let timer = LoopTimer(
                name: "T", fireDate: h.ms(20), interval: .zero, tolerance: .zero, order: 0, createdAt: .zero,
                callout: { _ in })
            h.at(50) { h.loop.add(timer, to: .default) }
            h.run(.default, 0.1)
            #expect(Self.facts(h) == [.late(due: h.ms(20), missed: nil, cause: .addedAfterDue)])
        }

        @Test("a nested run of the same mode keeps the mode running: a fire late in it was kept by a callout")
        func nestedRunOfTheSameModeIsBusy() {
            let h = VirtualHarness()
            h.keepAlive("K", in: .default)
            h.timer("tick", at: 50)
            h.timer("alert", at: 10) { _ in
                h.work(60)
                h.run(.default, 0.03)
            }
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [nil, .late(due: h.ms(50), missed: nil, cause: .busy)])
        }

        @Test("a nested run of another mode suspends the outer one: a fire late after it is a mode not running")
        func nestedRunOfAnotherModeIsModeNotRunning() {
            let h = VirtualHarness()
            h.keepAlive("K", in: .default)
            h.keepAlive("M", in: "Modal")
            h.timer("tick", at: 50)
            h.timer("alert", at: 10) { _ in h.run("Modal", 0.06) }
            h.run(.default, 0.2)
            #expect(Self.facts(h) == [nil, .late(due: h.ms(50), missed: nil, cause: .modeNotRunning)])
        }

        @Test("a common-mode timer kept by a callout of one of its modes is busy, though it fires in a nested run")
        func busyInOneModeFiresInAnother() {
            let h = VirtualHarness()
            h.loop.addCommonMode("Tracking")
            h.keepAlive("K", in: .default)
            h.keepAlive("KT", in: "Tracking")
            h.timer("tick", at: 50, in: .common)
            h.timer("drag", at: 10) { _ in
                h.work(60)
                h.run("Tracking", 0.01)
            }
            h.run(.default, 0.1)
            #expect(Self.facts(h) == [nil, .late(due: h.ms(50), missed: nil, cause: .busy)])
        }

        @Test("on darwin a timer's port is armed at the end of its tolerance: the loop slept past its deadline")
        func darwinToleranceSleepsPastTheDeadline() {
            let h = VirtualHarness(profile: .darwin)
            h.keepAlive("K", in: .default)
            h.makeTimer("T", at: 50, tolerance: 20)
            h.run(.default, 0.1)
            #expect(Self.facts(h) == [.late(due: h.ms(50), missed: nil, cause: .sleptPast)])
        }
    }
}
