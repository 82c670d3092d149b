import LoopEngine
import Testing

extension Rules {
    /// A program's `CFRunLoop…Invalidate` is an `invalidate` event with what the item is and the modes it left
    /// (docs/cfrunloop.md §5, §7.8, §9.4), so the trace and the screen can say it; no callout runs for it, and CF's
    /// own invalidation of a one-shot item after its callout is not one.
    @Suite("an invalidation is an event of its own, with the modes the item left")
    struct InvalidationEventTests {
        private static func lines(_ harness: VirtualHarness) -> [String] {
            harness.recorder.events.map { event in
                "\(event.time.nanoseconds / 1_000_000) \(event.step)" + (event.detail.map { " (\($0))" } ?? "")
            }
        }

        @Test("a timer invalidated in its own callout leaves both its modes and fires no more; nothing else runs")
        func timerInvalidatedInItsCallout() {
            let h = VirtualHarness()
            h.keepAlive()
            h.makeTimer("T", at: 20, every: 20, in: [.default, ModeName("Tracking")]) { $0.invalidate() }
            h.run(.default, 0.05)
            #expect(
                Self.lines(h) == [
                    "0 schedule K (mode default)", "0 runStart default (limit 0.050s)", "0 entry", "0 beforeTimers",
                    "0 beforeSources",
                    "0 beforeWaiting", "0 sleep (until timer T at 0.020 or time limit at 0.050)",
                    "20 wake (timer port)", "20 afterWaiting", "20 timer T",
                    "20 invalidate T (timer, left default and Tracking)", "20 beforeTimers", "20 beforeSources",
                    "20 beforeWaiting", "20 sleep (until time limit at 0.050)", "50 wakeUp (timeout)",
                    "50 wake (wakeUp)", "50 afterWaiting", "50 exit", "50 result timedOut",
                ])
        }

        @Test("an observer invalidated by a program is an event; a one-shot observer CF invalidates is not")
        func observerInvalidatedByTheProgramOnly() {
            let h = VirtualHarness()
            h.keepAlive()
            let watch = h.observer("watch", .beforeWaiting)
            h.observer("once", .entry, repeats: false)
            h.at(10) { watch.invalidate() }
            h.run(.default, 0.02)
            #expect(
                h.recorder.events.filter { $0.kind == .invalidate }.map(\.step) == ["invalidate watch"])
            #expect(
                h.recorder.events.first { $0.kind == .invalidate }?.fact
                    == .invalidated(kind: .observer, modes: ["default"]))
            #expect(!watch.isValid)
        }

        @Test("a one-shot timer's own invalidation after its callout is no invalidate event")
        func oneShotTimerIsNotReported() {
            let h = VirtualHarness()
            h.keepAlive()
            let once = h.timer("once", at: 10)
            h.run(.default, 0.02)
            #expect(!once.isValid)
            #expect(!h.recorder.events.contains { $0.kind == .invalidate })
        }

        @Test("a source is invalidated before its cancel steps, once per loop, with that loop's modes")
        func sourceThenItsCancels() {
            let h = VirtualHarness()
            h.keepAlive()
            let s = h.source("s")
            h.loop.add(s, to: ModeName("Tracking"))
            let p = h.port("p")
            h.at(10) {
                s.invalidate()
                p.invalidate()
            }
            h.run(.default, 0.02)
            let invalidations = h.recorder.events.filter { $0.kind == .invalidate || $0.kind == .cancel }
            #expect(
                invalidations.map { $0.step + ($0.detail.map { " (\($0))" } ?? "") } == [
                    "invalidate s (version-0 source, left default and Tracking)", "cancel s (mode default)",
                    "cancel s (mode Tracking)", "invalidate p (port source, left default)", "cancel p (mode default)",
                ])
        }

        @Test("invalidating an item twice, or one in no loop, records nothing more")
        func nothingTwice() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = h.timer("T", at: 50)
            let loose = LoopTimer(name: "loose", fireDate: .zero, interval: .zero, callout: { _ in })
            h.at(10) {
                t.invalidate()
                t.invalidate()
                loose.invalidate()
            }
            h.run(.default, 0.02)
            #expect(h.recorder.events.filter { $0.kind == .invalidate }.map(\.step) == ["invalidate T"])
            #expect(!loose.isValid)
        }
    }
}
