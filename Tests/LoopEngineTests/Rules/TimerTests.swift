import LoopEngine
import Testing

extension Rules {
    @Suite("§9 timers")
    struct TimerTests {
        // MARK: - §9.1 creation and fields

        @Test("a timer with a zero or negative interval is one-shot")
        func nonPositiveIntervalIsOneShot() {
            let h = VirtualHarness()
            let t = LoopTimer(name: "T", fireDate: h.ms(20), interval: .milliseconds(-5)) { _ in }
            #expect(t.interval == .zero)
            #expect(!t.isRepeating)
            h.loop.add(t, to: .default)
            #expect(h.run(.default, 1) == .finished)
            #expect(!t.isValid)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 exit", "20 result finished",
                ])
        }

        @Test("a first fire date in the past means now")
        func pastFireDateMeansNow() {
            let h = VirtualHarness()
            h.work(30)
            let t = h.timer("T", at: 10)
            #expect(t.nextFireDate == h.ms(30))
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "30 runStart default", "30 entry", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "30 afterWaiting", "30 timer T", "30 exit", "30 result finished",
                ])
        }

        @Test("timers fire by deadline, never by order: Tb (order 10, due 10) before Ta (order -10, due 20)")
        func timersFireByDeadlineNotOrder() {
            let h = VirtualHarness()
            var a: LoopSource?
            a = h.source("A") {
                h.work(30)
                a?.invalidate()
            }
            h.makeTimer("Ta", at: 20, order: -10)
            h.makeTimer("Tb", at: 10, order: 10)
            a?.signal()
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "30 timer Tb", "30 timer Ta", "30 exit", "30 result finished",
                ])
        }

        @Test("timers with equal deadlines fire in the order they were added")
        func equalDeadlinesFireInInsertionOrder() {
            let h = VirtualHarness()
            h.timer("Z", at: 20)
            h.timer("A", at: 20)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer Z", "20 timer A", "20 exit", "20 result finished",
                ])
        }

        @Test("tolerance is ignored on linux: it reads back as zero and the timer fires at its deadline")
        func toleranceIsIgnoredOnLinux() {
            let h = VirtualHarness()
            let t = h.makeTimer("T", at: 50, tolerance: 30)
            #expect(t.tolerance == .zero)
            t.tolerance = .milliseconds(20)
            #expect(t.tolerance == .zero)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 exit", "50 result finished",
                ])
        }

        @Test("inside its callout a timer's next fire date is still the one being served; it moves after")
        func nextFireDateDuringTheCallout() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(25) }
            var seen: [String] = []
            let t = h.timer("T", at: 20, every: 30) { timer in
                seen.append("\(h.nowMS) for \(timer.nextFireDate.nanoseconds / 1_000_000)")
            }
            a.signal()
            h.run(.default, 0.09)
            #expect(seen == ["25 for 20", "50 for 50", "80 for 80"])
            #expect(t.nextFireDate == h.ms(110))
        }

        @Test("the next timer fire date of a mode is that of its earliest timer, none without timers")
        func nextTimerFireDateOfAMode() {
            let h = VirtualHarness()
            h.timer("T1", at: 50)
            h.timer("T2", at: 20)
            h.keepAlive("KX", in: "ModeX")
            #expect(h.loop.nextTimerFireDate(in: .default) == h.ms(20))
            #expect(h.loop.nextTimerFireDate(in: "ModeX") == nil)
        }

        // MARK: - §9.2 the timer port

        @Test("a timer added from another thread wakes the sleeping loop on time without a wake-up")
        func timerAddedFromOutsideArmsThePort() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = LoopTimer(name: "T", fireDate: h.ms(50)) { _ in }
            h.at(20) { h.loop.add(t, to: .default) }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("linux never disarms the timer port: removing the last timer still wakes the loop at its deadline")
        func removedLastTimerStillWakesTheLoop() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.at(20) { h.loop.remove(t, from: .default) }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("linux never disarms the timer port: invalidating the last timer still wakes the loop")
        func invalidatedLastTimerStillWakesTheLoop() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.at(20) { t.invalidate() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test(
            "a reschedule into the past re-arms the port even at the instant of the last: CF's 'now' moved, so the one-shot's stale expiry wakes the loop once more"
        )
        func rescheduleToNowTwiceReArms() throws {
            // Fuzz seed 81 case 1933, reduced: the afterWaiting reschedule arms the port again (CF's "now" is a new
            // value); the timer fires and ends, and its port, never disarmed on Linux, holds that expiry.
            let scenario = try ScenarioParser.parse(
                """
                thread T
                  port p1
                  timer t2 interval 20ms foundation scheduled
                  observer o2 on beforeWaiting, afterWaiting
                    reschedule t2 in -20ms
                  RunLoop.run default before 20ms
                """, file: "t.loop"
            ).scenario
            let run = ScenarioRunner.run(scenario)
            let steps = run.events.filter { $0.kind != .note && $0.kind != .schedule }.map(\.step)
            let cycle = ["beforeTimers", "beforeSources", "beforeWaiting", "observer o2", "sleep", "wake"]
            #expect(
                steps == ["runStart default", "entry"] + cycle + ["afterWaiting", "observer o2", "timer t2"] + cycle
                    + ["afterWaiting", "observer o2"] + cycle.dropLast() + ["wakeUp", "wake", "afterWaiting"]
                    + ["observer o2", "exit", "result timedOut"])
            let wakes = run.events.compactMap { if case .woken(let cause) = $0.fact { cause } else { nil } }
            #expect(wakes == [.timerPort, .timerPort, .wakeUpPort])
        }

        @Test("removing a timer when another remains re-arms the port for it: no spurious wake")
        func removingATimerReArmsForTheNext() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.timer("U", at: 70)
            h.at(20) { h.loop.remove(t, from: .default) }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "70 afterWaiting", "70 timer U", "70 beforeTimers", "70 beforeSources", "70 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        // MARK: - §9.3 firing

        @Test("a timer that becomes due while a batch runs is not part of that batch")
        func timersDueDuringABatchWait() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T1", at: 10) { _ in h.work(20) }
            h.timer("T2", at: 20)
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T1",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting", "30 afterWaiting", "30 timer T2",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("after a two-timer batch there is one wake with no callout (the port was re-armed in the past)")
        func twoTimerBatchLeavesAnEmptyWake() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(30) }
            h.timer("T1", at: 10)
            h.timer("T2", at: 20)
            a.signal()
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "30 timer T1", "30 timer T2",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting", "30 afterWaiting",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a timer of the batch invalidated by an earlier timer's callout does not fire")
        func timerInvalidatedByTheBatchDoesNotFire() {
            let h = VirtualHarness()
            var a: LoopSource?
            a = h.source("A") {
                h.work(30)
                a?.invalidate()
            }
            var t2: LoopTimer?
            h.timer("T1", at: 10) { _ in t2?.invalidate() }
            t2 = h.timer("T2", at: 20)
            a?.signal()
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "30 timer T1", "30 exit", "30 result finished",
                ])
        }

        @Test("the next fire is strictly after now: a callout that ends on a grid point skips that point")
        func gridPointAtTheEndOfTheCalloutIsSkipped() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T", at: 100, every: 100) { _ in
                calls += 1
                if calls == 1 { h.work(100) }
            }
            h.run(.default, 0.35)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "200 beforeTimers", "200 beforeSources", "200 beforeWaiting",
                    "300 afterWaiting", "300 timer T", "300 beforeTimers", "300 beforeSources", "300 beforeWaiting",
                    "350 afterWaiting", "350 exit", "350 result timedOut",
                ])
        }

        @Test("a one-shot timer is invalidated after its callout and leaves every mode")
        func oneShotTimerLeavesEveryMode() {
            let h = VirtualHarness()
            let t = h.makeTimer("T", at: 20, in: [.default, "ModeX"])
            #expect(h.run(.default, 1) == .finished)
            #expect(!t.isValid)
            #expect(h.loop.isFinished(mode: "ModeX"))
            #expect(h.run("ModeX", 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 exit", "20 result finished",
                    "20 runStart ModeX", "20 result finished",
                ])
        }

        @Test("a later fire date set in the callout wins over the grid, and the grid restarts from it")
        func setNextFireDateInTheCalloutWins() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T", at: 100, every: 100) { timer in
                calls += 1
                if calls == 1 { timer.setNextFireDate(h.world.now + .milliseconds(30)) }
            }
            h.run(.default, 0.25)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "130 afterWaiting", "130 timer T", "130 beforeTimers", "130 beforeSources", "130 beforeWaiting",
                    "230 afterWaiting", "230 timer T", "230 beforeTimers", "230 beforeSources", "230 beforeWaiting",
                    "250 afterWaiting", "250 exit", "250 result timedOut",
                ])
        }

        @Test("a past fire date set in the callout makes the timer fire again at once")
        func pastFireDateInTheCalloutFiresAgain() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T", at: 100, every: 100) { timer in
                calls += 1
                if calls == 1 { timer.setNextFireDate(h.world.now - .milliseconds(50)) }
            }
            h.run(.default, 0.25)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "200 afterWaiting", "200 timer T", "200 beforeTimers", "200 beforeSources", "200 beforeWaiting",
                    "250 afterWaiting", "250 exit", "250 result timedOut",
                ])
        }

        @Test("a late repeating timer fires once, then resumes its grid: a 350 ms callout gives 100, 500, 600, 700")
        func blockingCalloutDropsMissedTicks() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T", at: 100, every: 100) { _ in
                calls += 1
                if calls == 1 { h.work(350) }
            }
            h.run(.default, 0.75)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "450 beforeTimers", "450 beforeSources", "450 beforeWaiting",
                    "500 afterWaiting", "500 timer T", "500 beforeTimers", "500 beforeSources", "500 beforeWaiting",
                    "600 afterWaiting", "600 timer T", "600 beforeTimers", "600 beforeSources", "600 beforeWaiting",
                    "700 afterWaiting", "700 timer T", "700 beforeTimers", "700 beforeSources", "700 beforeWaiting",
                    "750 afterWaiting", "750 exit", "750 result timedOut",
                ])
        }

        @Test("a loop busy in a source0 until 350 ms fires a 100 ms timer once late, then at 400, 500, 600, 700")
        func busyLoopFiresALateTimerOnce() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(350) }
            var served: [String] = []
            h.timer("T", at: 100, every: 100) { timer in
                served.append("\(h.nowMS) for \(timer.nextFireDate.nanoseconds / 1_000_000)")
            }
            a.signal()
            h.run(.default, 0.75)
            #expect(served == ["350 for 100", "400 for 400", "500 for 500", "600 for 600", "700 for 700"])
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "350 timer T", "350 beforeTimers", "350 beforeSources", "350 beforeWaiting",
                    "400 afterWaiting", "400 timer T", "400 beforeTimers", "400 beforeSources", "400 beforeWaiting",
                    "500 afterWaiting", "500 timer T", "500 beforeTimers", "500 beforeSources", "500 beforeWaiting",
                    "600 afterWaiting", "600 timer T", "600 beforeTimers", "600 beforeSources", "600 beforeWaiting",
                    "700 afterWaiting", "700 timer T", "700 beforeTimers", "700 beforeSources", "700 beforeWaiting",
                    "750 afterWaiting", "750 exit", "750 result timedOut",
                ])
        }

        @Test("a thread that starts its loop only at 350 ms fires a 100 ms timer once, then at 400 … 700")
        func lateStartFiresALateTimerOnce() {
            let h = VirtualHarness()
            h.timer("T", at: 100, every: 100)
            h.work(350)
            h.run(.default, 0.4)
            #expect(
                h.timedSteps == [
                    "350 runStart default", "350 entry", "350 beforeTimers", "350 beforeSources",
                    "350 beforeWaiting", "350 afterWaiting", "350 timer T",
                    "350 beforeTimers", "350 beforeSources", "350 beforeWaiting",
                    "400 afterWaiting", "400 timer T", "400 beforeTimers", "400 beforeSources", "400 beforeWaiting",
                    "500 afterWaiting", "500 timer T", "500 beforeTimers", "500 beforeSources", "500 beforeWaiting",
                    "600 afterWaiting", "600 timer T", "600 beforeTimers", "600 beforeSources", "600 beforeWaiting",
                    "700 afterWaiting", "700 timer T", "700 beforeTimers", "700 beforeSources", "700 beforeWaiting",
                    "750 afterWaiting", "750 exit", "750 result timedOut",
                ])
        }

        // MARK: - §9.4 modes

        @Test("a timer fires only while one of its modes runs; then once late, then on its grid")
        func timerFiresOnlyInItsModes() {
            let h = VirtualHarness()
            h.keepAlive()
            h.makeTimer("T", at: 20, every: 50, in: ["ModeX"])
            h.run(.default, 0.1)
            h.run("ModeX", 0.15)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                    "100 runStart ModeX", "100 entry", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "100 afterWaiting", "100 timer T", "100 beforeTimers", "100 beforeSources", "100 beforeWaiting",
                    "120 afterWaiting", "120 timer T", "120 beforeTimers", "120 beforeSources", "120 beforeWaiting",
                    "170 afterWaiting", "170 timer T", "170 beforeTimers", "170 beforeSources", "170 beforeWaiting",
                    "220 afterWaiting", "220 timer T", "220 beforeTimers", "220 beforeSources", "220 beforeWaiting",
                    "250 afterWaiting", "250 exit", "250 result timedOut",
                ])
        }

        @Test("a timer in several modes has one schedule: 20, 50 in default, then 80, 110, 140 in ModeX")
        func timerInSeveralModesSharesOneSchedule() {
            let h = VirtualHarness()
            h.makeTimer("T", at: 20, every: 30, in: [.default, "ModeX"])
            h.run(.default, 0.06)
            h.run("ModeX", 0.09)
            #expect(h.callouts == ["timer T", "timer T", "timer T", "timer T", "timer T"])
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "60 afterWaiting", "60 exit", "60 result timedOut",
                    "60 runStart ModeX", "60 entry", "60 beforeTimers", "60 beforeSources", "60 beforeWaiting",
                    "80 afterWaiting", "80 timer T", "80 beforeTimers", "80 beforeSources", "80 beforeWaiting",
                    "110 afterWaiting", "110 timer T", "110 beforeTimers", "110 beforeSources", "110 beforeWaiting",
                    "140 afterWaiting", "140 timer T", "140 beforeTimers", "140 beforeSources", "140 beforeWaiting",
                    "150 afterWaiting", "150 exit", "150 result timedOut",
                ])
        }

        @Test("a firing timer keeps its mode non-empty and cannot fire in a nested run until its callout returns")
        func firingTimerCannotFireInANestedRun() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T", at: 10, every: 10) { _ in
                calls += 1
                if calls == 1 { h.run(.default, 0.05) }
            }
            h.run(.default, 0.095)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "60 afterWaiting", "60 exit", "60 result timedOut",
                    "60 beforeTimers", "60 beforeSources", "60 beforeWaiting",
                    "70 afterWaiting", "70 timer T", "70 beforeTimers", "70 beforeSources", "70 beforeWaiting",
                    "80 afterWaiting", "80 timer T", "80 beforeTimers", "80 beforeSources", "80 beforeWaiting",
                    "90 afterWaiting", "90 timer T", "90 beforeTimers", "90 beforeSources", "90 beforeWaiting",
                    "95 afterWaiting", "95 exit", "95 result timedOut",
                ])
        }

        @Test("setting a timer's fire date from another thread also wakes the loop once for nothing")
        func setNextFireDateFromOutsideWakesTheLoop() {
            let h = VirtualHarness()
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.at(20) { t.setNextFireDate(h.ms(80)) }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "80 afterWaiting", "80 timer T", "80 beforeTimers", "80 beforeSources", "80 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }
    }
}
