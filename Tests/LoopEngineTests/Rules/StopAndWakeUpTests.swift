import LoopEngine
import Testing

extension Rules {
    @Suite("§10 stop, wake-up and the run-forever wrappers")
    struct StopAndWakeUpTests {
        private let idleRun = [
            "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
            "100 afterWaiting", "100 exit", "100 result timedOut",
        ]

        // MARK: - §10.1 CFRunLoopWakeUp

        @Test("a wake-up while no run is active is dropped")
        func wakeUpWithoutARunIsDropped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.loop.wakeUp()
            h.run(.default, 0.1)
            #expect(h.timedSteps == idleRun)
        }

        @Test("a wake-up from an afterWaiting observer is dropped")
        func wakeUpFromAfterWaitingIsDropped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 20)
            h.observer("O", .afterWaiting) { _ in h.loop.wakeUp() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 observer O", "20 timer T", "20 beforeTimers", "20 beforeSources",
                    "20 beforeWaiting", "100 afterWaiting", "100 observer O", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a wake-up from a timer callout is dropped")
        func wakeUpFromATimerIsDropped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 20) { _ in h.loop.wakeUp() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a wake-up from a port source's perform is dropped")
        func wakeUpFromASource1IsDropped() {
            let h = VirtualHarness()
            let s = h.port("S") { _ in h.loop.wakeUp() }
            h.at(20) { s.send() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a wake-up from a block of the last blocks pass is dropped")
        func wakeUpFromTheLastBlocksPassIsDropped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(20) {
                h.block("B") { h.loop.wakeUp() }
                h.loop.wakeUp()
            }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 block B", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("dropping is safe: a source signalled with a dropped wake-up runs before the next sleep")
        func droppedWakeUpStillServicesTheSignal() {
            let h = VirtualHarness()
            let a = h.source("A")
            h.timer("T", at: 10) { _ in h.work(20) }
            h.at(20) {
                a.signal()
                h.loop.wakeUp()
            }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T", "30 beforeTimers", "30 beforeSources", "30 source0 A",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a wake-up recorded before the wait (from an entry observer) makes the wait return at once")
        func recordedWakeUpReturnsTheWaitAtOnce() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .entry) { _ in h.loop.wakeUp() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O", "0 beforeTimers", "0 beforeSources",
                    "0 beforeWaiting", "0 afterWaiting", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("several wake-ups before the wait coalesce into one empty cycle")
        func wakeUpsCoalesce() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .beforeSources, repeats: false) { _ in
                h.loop.wakeUp()
                h.loop.wakeUp()
                h.loop.wakeUp()
            }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 observer O",
                    "0 beforeWaiting", "0 afterWaiting", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("several wake-ups from another thread while sleeping cost one empty cycle")
        func outsideWakeUpsCoalesce() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(20) {
                h.loop.wakeUp()
                h.loop.wakeUp()
                h.loop.wakeUp()
            }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("an unconsumed wake-up survives the run and wakes the next run, in any mode, at once")
        func unconsumedWakeUpSurvivesTheRun() {
            let h = VirtualHarness()
            let s = h.port("S")
            h.keepAlive("KX", in: "ModeX")
            h.at(10) {
                s.send()
                h.loop.wakeUp()
            }
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(h.run("ModeX", 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 source1 S", "10 exit", "10 result handledSource",
                    "10 runStart ModeX", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "10 afterWaiting", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "110 afterWaiting", "110 exit", "110 result timedOut",
                ])
        }

        @Test("a consumed wake-up leaves nothing behind for a later run of another mode")
        func consumedWakeUpLeavesNothing() {
            let h = VirtualHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            h.at(20) { h.loop.wakeUp() }
            h.run(.default, 0.1)
            h.run("ModeX", 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                    "100 runStart ModeX", "100 entry", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "200 afterWaiting", "200 exit", "200 result timedOut",
                ])
        }

        @Test("the loop is waiting only between beforeWaiting and afterWaiting")
        func isWaitingOnlyDuringTheWait() {
            let h = VirtualHarness()
            h.keepAlive()
            var seen: [String] = []
            h.observer("O") { activity in seen.append("\(activity) \(h.loop.isWaiting)") }
            h.at(20) { seen.append("outside \(h.loop.isWaiting)") }
            h.timer("T", at: 50) { _ in seen.append("timer \(h.loop.isWaiting)") }
            h.run(.default, 0.1)
            #expect(!h.loop.isWaiting)
            #expect(
                seen == [
                    "entry false", "beforeTimers false", "beforeSources false", "beforeWaiting false",
                    "outside true", "afterWaiting false", "timer false", "beforeTimers false",
                    "beforeSources false", "beforeWaiting false", "afterWaiting false", "exit false",
                ])
        }

        // MARK: - §10.2 CFRunLoopStop

        @Test("a stop issued while no run is active is not remembered")
        func stopWithoutARunIsForgotten() {
            let h = VirtualHarness()
            h.keepAlive()
            h.loop.stop()
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.timedSteps == idleRun)
        }

        @Test("a stop from a timer callout ends the run after the callout: stopped")
        func stopFromATimer() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 20) { _ in h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.steps(with: [.stop])
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "timer T → stop → exit → result stopped"))
        }

        @Test("a stop from another thread wakes the sleeping loop and ends the run")
        func stopFromOutsideWhileSleeping() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(50) { h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 stop", "50 afterWaiting", "50 exit", "50 result stopped",
                ])
        }

        @Test("a stop from another thread during a timer callout loses its wake-up but ends the run after it")
        func stopFromOutsideDuringATimer() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 20) { _ in h.work(20) }
            h.at(30) { h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "30 stop", "40 exit", "40 result stopped",
                ])
        }

        @Test("a stop from a beforeWaiting observer makes the wait return at once, then the run stops")
        func stopFromBeforeWaiting() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .beforeWaiting) { _ in h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 observer O", "0 stop", "0 afterWaiting", "0 exit", "0 result stopped",
                ])
        }

        @Test("a stop from an entry observer ends the run before its first iteration")
        func stopFromEntry() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .entry) { _ in h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.steps(with: [.stop]) == trace("runStart default → entry → observer O → stop → exit → result stopped"))
        }

        @Test("a stop from a source0 of a non-rash run ends it after the poll, which consumes the wake-up")
        func stopFromASource0() {
            let h = VirtualHarness()
            let a = h.source("A") { h.loop.stop() }
            a.signal()
            #expect(h.run(.default, 1) == .stopped)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A", "0 stop",
                    "0 exit", "0 result stopped",
                ] + idleRun)
        }

        @Test("a stop from a port source of a rash run is lost: handledSource wins")
        func stopFromASource1IsLostToHandledSource() {
            let h = VirtualHarness()
            let s = h.port("S") { _ in h.loop.stop() }
            h.at(20) { s.send() }
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 stop", "20 exit", "20 result handledSource",
                    "20 runStart default", "20 entry", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "120 afterWaiting", "120 exit", "120 result timedOut",
                ])
        }

        @Test("a stop inside a nested run stops only the nested run")
        func stopInANestedRunStopsOnlyIt() {
            let h = VirtualHarness()
            h.keepAlive()
            var nested: RunResult?
            h.timer("T", at: 10) { _ in nested = h.run(.default, 1) }
            h.timer("U", at: 30) { _ in h.loop.stop() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(nested == .stopped)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "30 afterWaiting", "30 timer U", "30 stop", "30 exit", "30 result stopped",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a stop issued in an outer callout before a nested run is invisible to it and stops the outer run")
        func stopBeforeANestedRunStopsTheOuterRun() {
            let h = VirtualHarness()
            h.keepAlive()
            var nested: RunResult?
            h.timer("T", at: 10) { _ in
                h.loop.stop()
                nested = h.run(.default, 0.05)
            }
            #expect(h.run(.default, 1) == .stopped)
            #expect(nested == .timedOut)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T", "10 stop",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "60 afterWaiting", "60 exit", "60 result timedOut",
                    "60 exit", "60 result stopped",
                ])
        }

        @Test(
            "stopping a mode is sticky: the next run of that mode, and only it, stops at once",
            arguments: Backend.allCases)
        func stopModeIsSticky(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            h.loop.stopMode("ModeX")
            #expect(h.run(.default, 0) == .timedOut)
            #expect(h.run("ModeX", 1) == .stopped)
            #expect(h.run("ModeX", 0) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → exit → result timedOut",
                        "runStart ModeX → entry → exit → result stopped",
                        "runStart ModeX → entry → beforeTimers → beforeSources → exit → result timedOut"))
        }

        // MARK: - §10.3 CFRunLoopRun and Foundation's RunLoop.run

        @Test("CFRunLoopRun is one long run without a time limit that a stop ends")
        func runUntilStoppedIsOneLongRun() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(5000) { h.loop.stop() }
            #expect(h.loop.runUntilStopped() == .stopped)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "5000 afterWaiting", "5000 exit", "5000 result stopped",
                ])
        }

        @Test("CFRunLoopRun returns when the default mode finishes", arguments: Backend.allCases)
        func runUntilStoppedReturnsWhenFinished(backend: Backend) {
            let h = backend.makeHarness()
            h.timer("T", at: 50)
            #expect(h.loop.runUntilStopped() == .finished)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "timer T → exit → result finished"))
        }

        @Test("RunLoop.run(mode:before:) returns false without running when the mode is empty")
        func foundationRunOfAnEmptyModeIsFalse() {
            let h = VirtualHarness()
            h.observer("O")
            #expect(!h.loop.runFoundation(mode: .default, before: h.ms(100)))
            #expect(h.steps.isEmpty)
        }

        @Test("RunLoop.run(mode:before:) runs once, rash, and returns true whatever the result")
        func foundationRunReturnsTrueWhateverTheResult() {
            let h = VirtualHarness()
            let a = h.source("A")
            #expect(h.loop.runFoundation(mode: .default, before: h.ms(100)))
            a.signal()
            #expect(h.loop.runFoundation(mode: .default, before: h.ms(200)))
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                    "100 runStart default", "100 entry", "100 beforeTimers", "100 beforeSources", "100 source0 A",
                    "100 exit", "100 result handledSource",
                ])
        }

        @Test("RunLoop.run() re-enters after a stop and returns only when the default mode is empty")
        func foundationRunForeverReentersAfterAStop() {
            let h = VirtualHarness()
            let k = h.keepAlive()
            h.at(50) { h.loop.stop() }
            h.at(120) {
                h.loop.remove(k, from: .default)
                h.loop.wakeUp()
            }
            h.loop.runFoundationForever()
            #expect(h.world.haltReason == nil)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result stopped",
                    "50 runStart default", "50 entry", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "120 afterWaiting", "120 exit", "120 result finished",
                ])
        }

        @Test("RunLoop.run() returns after every handled source only to re-enter at once")
        func foundationRunForeverReentersAfterAHandledSource() {
            let h = VirtualHarness()
            let s = h.port("S") { _ in }
            h.at(20) { s.send() }
            h.at(60) { h.loop.remove(s, from: .default) }
            h.at(70) { h.loop.wakeUp() }
            h.loop.runFoundationForever()
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 exit", "20 result handledSource",
                    "20 runStart default", "20 entry", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "70 afterWaiting", "70 exit", "70 result finished",
                ])
        }

        @Test("RunLoop.run(until:) re-enters after a handled source and ends once its date has passed")
        func foundationRunUntilEndsAtItsDate() {
            let h = VirtualHarness()
            let s = h.port("S")
            h.at(20) { s.send() }
            h.loop.runFoundation(until: h.ms(100))
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 exit", "20 result handledSource",
                    "20 runStart default", "20 entry", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("limitDate(forMode:) polls the mode once, firing due timers, then returns the next deadline")
        func limitDatePollsOnceThenReportsTheNextTimer() {
            let h = VirtualHarness()
            h.timer("T", at: 10, every: 40)
            h.work(30)
            let limit = h.loop.limitDate(forMode: .default)
            #expect(limit == h.ms(50))
            #expect(
                h.timedSteps == [
                    "30 runStart default", "30 entry", "30 beforeTimers", "30 beforeSources", "30 timer T",
                    "30 exit", "30 result timedOut",
                ])
        }

        @Test(
            "limitDate(forMode:) is nil for an empty mode and the distant future for a mode without timers",
            arguments: Backend.allCases)
        func limitDateOfEmptyAndTimerlessModes(backend: Backend) {
            let h = backend.makeHarness()
            #expect(h.loop.limitDate(forMode: "Nope") == nil)
            _ = h.keepAlive()
            #expect(h.loop.limitDate(forMode: .default) == .distantFuture)
            #expect(
                h.steps == [
                    "runStart Nope", "result finished", "runStart default", "entry", "beforeTimers", "beforeSources",
                    "exit", "result timedOut",
                ])
        }
    }
}
