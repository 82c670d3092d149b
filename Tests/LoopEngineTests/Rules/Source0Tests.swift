import LoopEngine
import Testing

extension Rules {
    @Suite("§7 version-0 sources")
    struct Source0Tests {
        @Test("re-signalling a signalled source keeps the time of its first signal for the pass order")
        func resignallingKeepsTheFirstSignalTime() {
            let h = VirtualHarness()
            h.keepAlive()
            let a = h.source("A")
            let b = h.source("B")
            h.at(5) { a.signal() }
            h.at(10) { b.signal() }
            h.at(15) { a.signal() }
            h.at(20) { h.loop.wakeUp() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 source0 A", "20 source0 B",
                    "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a signal from another thread without a wake-up is not serviced by a run that then times out")
        func signalDoesNotWakeTheLoop() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.at(20) { a.signal() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(a.isSignalled)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a signal from another thread with a wake-up is performed in the next iteration")
        func signalWithWakeUpIsPerformed() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.at(20) {
                a.signal()
                h.loop.wakeUp()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 source0 A",
                    "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a signal without a wake-up waits until something else wakes the loop, here a timer")
        func signalIsServicedAfterAnotherWake() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.timer("T", at: 50)
            h.at(20) { a.signal() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 beforeTimers", "50 beforeSources", "50 source0 A",
                    "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("signalling an invalidated source is ignored", arguments: Backend.allCases)
        func signallingAnInvalidSourceIsIgnored(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            a.invalidate()
            a.signal()
            #expect(!a.isSignalled)
        }

        @Test("any number of signals before the perform give one perform", arguments: Backend.allCases)
        func signalsCoalesce(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            a.signal()
            a.signal()
            a.signal()
            h.run(.default, 0)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 A → exit → result timedOut"))
        }

        @Test(
            "a source that re-signals itself is performed once per iteration, never twice in one pass",
            arguments: Backend.allCases)
        func selfResignalRunsInTheNextIteration(backend: Backend) {
            let h = backend.makeHarness()
            var calls = 0
            var a: LoopSource?
            a = h.source("A") {
                calls += 1
                if calls < 3 { a?.signal() }
            }
            a?.signal()
            h.run(.default, 0.1)
            #expect(
                h.steps
                    == ["runStart default", "entry"]
                    + [String](repeating: ["beforeTimers", "beforeSources", "source0 A"], times: 3)
                    + ["beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut"])
        }

        @Test("signalled sources run by order, then by first signal time: A(5), B, C, D(1) give B, C, D, A")
        func passOrderIsOrderThenSignalTime() {
            let h = VirtualHarness()
            let a = h.source("A", order: 5)
            let b = h.source("B", order: 1)
            let c = h.source("C", order: 1)
            let d = h.source("D", order: 1)
            for source in [a, b, c, d] {
                source.signal()
                h.work(1)
            }
            h.run(.default, 0)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 B → source0 C → source0 D",
                        "source0 A → exit → result timedOut"))
        }

        @Test("with returnAfterSourceHandled each run performs one source0 and returns handledSource")
        func rashRunsPerformOneSourceEach() {
            let h = VirtualHarness()
            let a = h.source("A", order: 5)
            let b = h.source("B", order: 1)
            let c = h.source("C", order: 1)
            for source in [a, b, c] {
                source.signal()
                h.work(1)
            }
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            let run = ["runStart default", "entry", "beforeTimers", "beforeSources"]
            let end = ["exit", "result handledSource"]
            #expect(h.steps == run + ["source0 B"] + end + run + ["source0 C"] + end + run + ["source0 A"] + end)
        }

        @Test("when the last source of the pass was not performed the iteration is not handled: no poll")
        func unperformedLastSourceMeansNotHandled() {
            let h = VirtualHarness()
            var b: LoopSource?
            let a = h.source("A", order: 0) {
                b?.invalidate()
                h.block("X")
            }
            b = h.source("B", order: 1)
            a.signal()
            b?.signal()
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "0 beforeWaiting", "100 afterWaiting", "100 block X", "100 exit", "100 result timedOut",
                ])
        }

        @Test(
            "schedule runs once per concrete mode a source enters, also for common modes added later",
            arguments: Backend.allCases)
        func scheduleCallouts(backend: Backend) {
            let h = backend.makeHarness()
            let log = CallLog()
            let a = LoopSource(
                name: "A", schedule: { _, mode in log.append("schedule \(mode)") },
                cancel: { _, mode in log.append("cancel \(mode)") }, perform: {})
            h.loop.addCommonMode("ModeY")
            h.loop.add(a, to: .common)
            h.loop.add(a, to: .default)
            h.loop.addCommonMode("ModeZ")
            h.loop.add(a, to: "ModeX")
            #expect(log.entries == ["schedule ModeY", "schedule default", "schedule ModeZ", "schedule ModeX"])
        }

        @Test(
            "cancel runs on removal from a mode and, on invalidation, once per mode the source was in",
            arguments: Backend.allCases)
        func cancelCallouts(backend: Backend) {
            let h = backend.makeHarness()
            let log = CallLog()
            let a = LoopSource(
                name: "A", schedule: { _, _ in }, cancel: { _, mode in log.append("cancel \(mode)") }, perform: {})
            h.loop.add(a, to: .default)
            h.loop.add(a, to: "ModeX")
            h.loop.add(a, to: "ModeY")
            h.loop.remove(a, from: "ModeX")
            h.loop.remove(a, from: "ModeX")
            #expect(log.entries == ["cancel ModeX"])
            a.invalidate()
            #expect(log.entries.count == 3)
            #expect(Set(log.entries) == ["cancel ModeX", "cancel default", "cancel ModeY"])
        }

        @Test(
            "a second source equal to one in the mode is not added, is reported as contained, and does nothing",
            arguments: Backend.allCases)
        func equalSourcesAreOne(backend: Backend) {
            let h = backend.makeHarness()
            let log = CallLog()
            let first = LoopSource(name: "A1", equalityKey: "same") {}
            let second = LoopSource(
                name: "A2", equalityKey: "same", schedule: { _, mode in log.append("schedule \(mode)") }
            ) {}
            h.loop.add(first, to: .default)
            h.loop.add(second, to: .default)
            #expect(log.entries.isEmpty)
            #expect(h.loop.contains(second, in: .default))
            second.signal()
            h.run(.default, 0)
            #expect(
                h.steps == trace("runStart default → entry → beforeTimers → beforeSources → exit → result timedOut"))
        }

        @Test("invalidating a source clears its signal and removes it from every mode of every loop")
        func invalidationRemovesEverywhere() {
            let h = VirtualHarness()
            let other = RunLoopCore(name: "U", clock: h.world, waiter: h.world)
            let a = LoopSource(name: "A") {}
            h.loop.add(a, to: .default)
            h.loop.add(a, to: "ModeX")
            other.add(a, to: .default)
            a.signal()
            a.invalidate()
            #expect(!a.isSignalled)
            #expect(!a.isValid)
            #expect(!h.loop.contains(a, in: .default))
            #expect(!h.loop.contains(a, in: "ModeX"))
            #expect(!other.contains(a, in: .default))
            #expect(h.loop.isFinished(mode: .default) && other.isFinished(mode: .default))
        }

        @Test("a source can be performed again by a nested run while its own perform is on the stack")
        func noReentrancyGuardForSources() {
            let h = VirtualHarness()
            h.keepAlive()
            var calls = 0
            var a: LoopSource?
            a = h.source("A") {
                calls += 1
                if calls == 1 {
                    a?.signal()
                    h.run(.default, 0.05)
                }
            }
            a?.signal()
            h.run(.default, 0.1)
            #expect(calls == 2)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "0 beforeTimers", "0 beforeSources", "0 beforeWaiting", "50 afterWaiting", "50 exit",
                    "50 result timedOut",
                    "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }
    }
}
