import LoopEngine
import Testing

extension Rules {
    @Suite("the virtual clock and kernel")
    struct VirtualClockTests {
        @Test("a new world starts at zero and has not halted")
        func newWorldStartsAtZero() {
            let world = VirtualWorld()
            #expect(world.now == .zero)
            #expect(!world.isHalted)
            #expect(world.haltReason == nil)
        }

        @Test("advancing to the past does nothing")
        func advancingToThePastDoesNothing() {
            let world = VirtualWorld()
            world.advance(to: .zero + .milliseconds(50))
            world.advance(to: .zero + .milliseconds(20))
            #expect(world.now == .zero + .milliseconds(50))
            world.spend(.milliseconds(-10))
            #expect(world.now == .zero + .milliseconds(50))
        }

        @Test("outside events run in time order, each at its own time")
        func outsideEventsRunInTimeOrder() {
            let world = VirtualWorld()
            let log = CallLog()
            for ms in [30, 10, 20] {
                world.at(.zero + .milliseconds(ms)) { log.append("\(ms) at \(world.now)") }
            }
            world.advance(to: .zero + .milliseconds(100))
            #expect(log.entries == ["10 at 0.010", "20 at 0.020", "30 at 0.030"])
            #expect(world.now == .zero + .milliseconds(100))
            #expect(!world.hasPendingEvents)
        }

        @Test("outside events due at the same time run in the order they were scheduled")
        func tiesRunInInsertionOrder() {
            let world = VirtualWorld()
            let log = CallLog()
            for name in ["c", "a", "b"] {
                world.at(.zero + .milliseconds(10)) { log.append(name) }
            }
            world.advance(to: .zero + .milliseconds(10))
            #expect(log.entries == ["c", "a", "b"])
        }

        @Test("outside events after the target time wait for a later advance")
        func laterEventsWait() {
            let world = VirtualWorld()
            let log = CallLog()
            world.at(.zero + .milliseconds(30)) { log.append("30") }
            world.advance(to: .zero + .milliseconds(20))
            #expect(log.entries.isEmpty)
            #expect(world.hasPendingEvents)
            world.spend(.milliseconds(10))
            #expect(log.entries == ["30"])
        }

        @Test("spending time in a callout delivers the outside events that fall within it")
        func spendingDeliversOutsideEvents() {
            let h = VirtualHarness()
            var seen: [String] = []
            h.at(5) { seen.append("outside at \(h.nowMS)") }
            let a = h.source("A") {
                seen.append("perform at \(h.nowMS)")
                h.work(10)
                seen.append("done at \(h.nowMS)")
            }
            a.signal()
            h.run(.default, 0)
            #expect(seen == ["perform at 0", "outside at 5", "done at 10"])
        }

        @Test("a world halts at its horizon: time stops there, later events never run, runs unwind")
        func worldHaltsAtItsHorizon() {
            let h = VirtualHarness(horizon: .milliseconds(100))
            h.keepAlive()
            var late = false
            h.at(150) { late = true }
            let result = h.run(.default, 1)
            #expect(result == .finished)
            #expect(h.world.haltReason == .horizon)
            #expect(h.world.now == h.ms(100))
            #expect(!late)
            #expect(h.steps == trace("runStart default → entry → beforeTimers → beforeSources → beforeWaiting"))
        }

        @Test("advancing a world past its horizon stops at the horizon")
        func advancingPastTheHorizonHalts() {
            let world = VirtualWorld()
            world.horizon = .zero + .milliseconds(100)
            world.advance(to: .zero + .milliseconds(200))
            #expect(world.now == .zero + .milliseconds(100))
            #expect(world.haltReason == .horizon)
        }

        @Test("a world halts when a loop would sleep forever with nothing that could wake it")
        func worldHaltsWhenIdleForever() {
            let h = VirtualHarness()
            h.keepAlive()
            let result = h.run(.default, .infinity)
            #expect(result == .finished)
            #expect(h.world.haltReason == .idle)
            #expect(h.world.now == .zero)
            #expect(h.steps == trace("runStart default → entry → beforeTimers → beforeSources → beforeWaiting"))
        }

        @Test("a halted world runs nothing more: a later run returns at once without events")
        func haltedWorldRunsNothing() {
            let h = VirtualHarness()
            h.keepAlive()
            h.run(.default, .infinity)
            let count = h.recorder.events.count
            #expect(h.run(.default, 1) == .finished)
            #expect(h.recorder.events.count == count)
        }

        @Test("a requested halt stops the world where it is")
        func requestedHalt() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(30) { h.world.halt() }
            h.run(.default, 1)
            #expect(h.world.haltReason == .requested)
            #expect(h.world.now == h.ms(30))
        }
    }
}
