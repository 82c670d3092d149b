import LoopEngine
import Testing

extension Rules {
    @Suite("§2 one call of CFRunLoopRunInMode")
    struct RunSequenceTests {
        @Test("canonical: an idle keep-alive mode sleeps until its 200 ms limit and times out")
        func canonicalIdleKeepAlive() {
            let h = VirtualHarness()
            h.keepAlive()
            #expect(h.run(.default, 0.2) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "200 afterWaiting", "200 exit", "200 result timedOut",
                ])
        }

        @Test("canonical: a lone one-shot timer at 50 ms fires after the wait, then the run finishes")
        func canonicalLoneOneShotTimer() {
            let h = VirtualHarness()
            h.timer("T1", at: 50)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T1", "50 exit", "50 result finished",
                ])
        }

        @Test("canonical: a source0 signalled before a non-rash run is performed in a polling iteration")
        func canonicalSignalledSource0() {
            let h = VirtualHarness()
            let a = h.source("A")
            a.signal()
            #expect(h.run(.default, 0.2) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "0 beforeTimers", "0 beforeSources", "0 beforeWaiting", "200 afterWaiting", "200 exit",
                    "200 result timedOut",
                ])
        }

        @Test("running kCFRunLoopCommonModes returns finished and calls no observer", arguments: Backend.allCases)
        func commonModesIsNotRunnable(backend: Backend) {
            let h = backend.makeHarness()
            let o = h.observer("O", in: .common)
            h.keepAlive(in: .common)
            let result = h.run(.common, 0.1)
            #expect(result == .finished)
            #expect(h.steps == ["runStart common", "result finished"])
            #expect(o.callCount == 0)
        }

        @Test("an empty mode returns finished at once without entry or exit observers", arguments: Backend.allCases)
        func emptyModeSkipsEntryAndExit(backend: Backend) {
            let h = backend.makeHarness()
            let o = h.observer("O")
            let result = h.run(.default, 0.1)
            #expect(result == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
            #expect(o.callCount == 0)
        }

        @Test("exit observers are called for finished, stopped, timedOut and handledSource runs alike")
        func exitObserversAlwaysRun() {
            let h = VirtualHarness()
            h.observer("X", .exit)
            // finished: a lone one-shot timer fires and the mode is empty.
            let t = h.timer("T", at: 10)
            #expect(h.run(.default, 1) == .finished)
            #expect(!t.isValid)
            // stopped: another thread stops the run.
            let k = h.keepAlive()
            h.at(30) { h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            // timedOut
            #expect(h.run(.default, 0.05) == .timedOut)
            // handledSource
            h.at(100) { k.send() }
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T", "10 exit", "10 observer X", "10 result finished",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "30 afterWaiting", "30 exit", "30 observer X", "30 result stopped",
                    "30 runStart default", "30 entry", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "80 afterWaiting", "80 exit", "80 observer X", "80 result timedOut",
                    "80 runStart default", "80 entry", "80 beforeTimers", "80 beforeSources", "80 beforeWaiting",
                    "100 afterWaiting", "100 source1 K", "100 exit", "100 observer X", "100 result handledSource",
                ])
        }

        @Test("the current mode is the running mode during a run and none outside it", arguments: Backend.allCases)
        func currentModeDuringARun(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive(in: "ModeX")
            var seen: [ModeName?] = []
            h.observer("O", .entry, in: "ModeX") { _ in seen.append(h.loop.currentMode) }
            h.run("ModeX", 0)
            seen.append(h.loop.currentMode)
            #expect(seen == ["ModeX", nil])
        }

        @Test("beforeTimers does not fire timers: a due timer fires after afterWaiting")
        func timersFireAfterTheWait() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", [.beforeTimers, .afterWaiting])
            h.timer("T", at: 20)
            h.run(.default, 0.05)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 observer O", "0 beforeSources",
                    "0 beforeWaiting", "20 afterWaiting", "20 observer O", "20 timer T",
                    "20 beforeTimers", "20 observer O", "20 beforeSources", "20 beforeWaiting",
                    "50 afterWaiting", "50 observer O", "50 exit", "50 result timedOut",
                ])
        }

        @Test("in a polling iteration a due timer fires right after the source0s, with no observer in between")
        func timerFiresInThePollAfterASource0() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(20) }
            h.observer("O", .allActivities)
            h.timer("T", at: 10)
            a.signal()
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O", "0 beforeTimers", "0 observer O",
                    "0 beforeSources", "0 observer O", "0 source0 A", "20 timer T",
                    "20 beforeTimers", "20 observer O", "20 beforeSources", "20 observer O",
                    "20 beforeWaiting", "20 observer O", "100 afterWaiting", "100 observer O",
                    "100 exit", "100 observer O", "100 result timedOut",
                ])
        }

        @Test("a timer that becomes due during a timer callout costs a full cycle with an immediate wake")
        func timerDueDuringACalloutCostsACycle() {
            let h = VirtualHarness()
            h.timer("U", at: 5) { _ in h.work(10) }
            h.timer("T", at: 10)
            let result = h.run(.default, 1)
            #expect(result == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "5 afterWaiting", "5 timer U",
                    "15 beforeTimers", "15 beforeSources", "15 beforeWaiting", "15 afterWaiting", "15 timer T",
                    "15 exit", "15 result finished",
                ])
        }

        @Test(
            "a rash run can perform one source0 and one port source in the same iteration", arguments: Backend.allCases)
        func rashRunPerformsASource0AndAPort(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            let s = h.port("S")
            a.signal()
            s.send()
            let result = h.run(.default, 1, rash: true)
            #expect(result == .handledSource)
            #expect(
                h.steps
                    == [String](
                        trace:
                            "runStart default → entry → beforeTimers → beforeSources → source0 A → source1 S → exit → "
                            + "result handledSource"))
        }

        @Test("a wake with no work still calls afterWaiting, then loops again")
        func afterWaitingEvenWithoutWork() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(20) { h.loop.wakeUp() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }
    }
}
