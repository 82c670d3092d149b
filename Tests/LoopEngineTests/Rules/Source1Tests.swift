import LoopEngine
import Testing

extension Rules {
    @Suite("§8 version-1 sources (ports)")
    struct Source1Tests {
        @Test("a mode whose only version-1 source was removed is empty", arguments: Backend.allCases)
        func removingTheOnlyPortEmptiesTheMode(backend: Backend) {
            let h = backend.makeHarness()
            let s = h.port("S")
            h.loop.remove(s, from: .default)
            #expect(h.run(.default, 1) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
        }

        @Test("a message to a port wakes a sleeping loop by itself, with no wake-up call")
        func portMessageWakesTheLoop() {
            let h = VirtualHarness()
            let s = h.port("S")
            h.at(20) { s.send() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a port source added from another thread while the loop sleeps wakes it when written")
        func portAddedWhileSleepingIsWatched() {
            let h = VirtualHarness()
            h.keepAlive()
            let s = LoopSource(portNamed: "S", on: h.world) { _ in }
            h.at(20) { h.loop.add(s, to: .default) }
            h.at(30) { s.send() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "30 afterWaiting", "30 source1 S", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("three writes before the loop wakes give one perform and leave nothing to read")
        func writesCoalesceIntoOnePerform() {
            let h = VirtualHarness()
            var performs = 0
            let s = h.port("S") { _ in performs += 1 }
            h.at(20) {
                s.send()
                s.send()
                s.send()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(performs == 1)
            #expect(h.world.pendingMessages(s.port!) == 0)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a performed port source counts as handled: a rash run returns handledSource")
        func portSourceIsHandled() {
            let h = VirtualHarness()
            let s = h.port("S")
            h.at(20) { s.send() }
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 exit", "20 result handledSource",
                ])
        }

        @Test("signalling a version-1 source has no effect")
        func signallingAPortDoesNothing() {
            let h = VirtualHarness()
            let s = h.port("S")
            s.signal()
            #expect(!s.isSignalled)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test(
            "in a polling iteration after a source0 a ready port is performed without before/afterWaiting",
            arguments: Backend.allCases)
        func readyPortIsServicedInThePoll(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            let s = h.port("S")
            a.signal()
            s.send()
            h.run(.default, 0.1)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 A → source1 S",
                        "beforeTimers → beforeSources → beforeWaiting → afterWaiting → exit → result timedOut"))
        }

        @Test("one port per iteration, in readiness order: a port written at 10 goes before a timer due at 20")
        func onePortPerIterationInReadinessOrder() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(50) }
            let s = h.port("S")
            h.timer("T", at: 20)
            h.at(10) { s.send() }
            a.signal()
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "50 source1 S", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting", "50 afterWaiting",
                    "50 timer T", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a port whose source was removed between the wake and the dispatch is ignored")
        func portOfARemovedSourceIsIgnored() {
            let h = VirtualHarness()
            h.keepAlive()
            var s: LoopSource?
            s = h.port("S")
            h.observer("O", .afterWaiting, repeats: false) { _ in
                if let s { h.loop.remove(s, from: .default) }
            }
            h.at(20) { s?.send() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 observer O", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }
    }
}
