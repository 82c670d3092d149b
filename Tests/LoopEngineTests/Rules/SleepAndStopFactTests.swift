import LoopEngine
import Testing

extension Rules {
    /// The facts a sleep and a stop carry, so that no one has to guess them: what the kernel holds ready when the
    /// loop goes to sleep (docs/cfrunloop.md §2.2 L10, §9.2, §10.1), and whether a stop came before its run's first
    /// iteration (§2.2 S1, §10.2).
    @Suite("a sleep says which port is ready already, a stop whether its run began iterating")
    struct SleepAndStopFactTests {
        /// The `ready` of each sleep that is not a poll, in order.
        private static func readiness(_ harness: VirtualHarness) -> [LoopEvent.WakeCause?] {
            harness.recorder.events.compactMap { event in
                guard case .wait(.sleep(_, _, let ready)) = event.fact else { return nil }
                return ready
            }
        }

        private static func stopFacts(_ harness: VirtualHarness) -> [LoopEvent.Fact?] {
            harness.recorder.events.filter { $0.kind == .stop }.map(\.fact)
        }

        @Test("a sleep with nothing ready says so: the thread really sleeps")
        func nothingReady() {
            let h = VirtualHarness()
            h.keepAlive()
            h.run(.default, 0.05)
            #expect(Self.readiness(h) == [.nothing])
        }

        @Test("a port written while a source0 ran is ready at the next sleep, which returns it at once")
        func portReadyBeforeTheSleep() {
            let h = VirtualHarness()
            h.keepAlive()
            let net = h.port("net")
            let other = h.port("other")
            let busy = h.source("busy") { h.work(30) }
            h.at(10) { net.send() }
            h.at(20) { other.send() }
            busy.signal()
            h.run(.default, 0.1)
            // The poll after busy takes net; other waits for the next wait, which finds it ready.
            #expect(Self.readiness(h) == [.port("other", messages: 1), .nothing])
        }

        @Test("a wake-up written during entry stays pending: the next run's first sleep finds it ready")
        func pendingWakeUpFromAnEntryStop() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .entry, repeats: false) { _ in h.loop.stop() }
            #expect(h.run(.default, 0.05) == .stopped)
            h.run(.default, 0.05)
            #expect(Self.readiness(h) == [.wakeUpPort, .nothing])
            #expect(Self.stopFacts(h) == [.stop(.entry)])
        }

        @Test("a stop from a callout comes after its run's first iteration began")
        func stopInAnIteration() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 20) { _ in h.loop.stop() }
            h.run(.default, 1)
            #expect(Self.stopFacts(h) == [.stop(.iteration)])
        }

        @Test("a stop from an exit observer comes past the run's result: discarded, it stops no later run")
        func stopDuringExitIsDiscarded() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .exit, repeats: false) { _ in h.loop.stop() }
            #expect(h.run(.default, 0.02) == .timedOut)
            #expect(h.run(.default, 0.02) == .timedOut)
            #expect(Self.stopFacts(h) == [.stop(.exit)])
        }

        @Test("linux never disarms a timer port: a removed timer's passed deadline makes it ready (§9.2)")
        func staleTimerPortIsReady() {
            let h = VirtualHarness()
            h.keepAlive()
            let timer = h.timer("gone", at: 20)
            h.loop.remove(timer, from: .default)
            h.observer("O", .beforeWaiting, repeats: false) { _ in h.work(30) }
            h.run(.default, 0.05)
            #expect(Self.readiness(h) == [.timerPort, .nothing])
        }
    }
}
