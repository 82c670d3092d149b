import LoopEngine
import Testing

extension Rules {
    @Suite("§12 nested runs")
    struct NestedRunTests {
        @Test("a nested run in another mode has its own entry and exit, for that mode's observers only")
        func nestedRunInAnotherMode() {
            let h = VirtualHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            var modes: [String] = []
            h.observer("O", [.entry, .exit])
            h.observer("P", [.entry, .exit], in: "ModeX") { activity in
                modes.append("\(activity) \(h.loop.currentMode?.rawValue ?? "-") depth \(h.loop.depth)")
            }
            h.timer("T", at: 10) { _ in
                h.run("ModeX", 0.05)
                modes.append("after \(h.loop.currentMode?.rawValue ?? "-") depth \(h.loop.depth)")
            }
            h.run(.default, 0.1)
            #expect(modes == ["entry ModeX depth 2", "exit ModeX depth 2", "after default depth 1"])
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O", "0 beforeTimers", "0 beforeSources",
                    "0 beforeWaiting", "10 afterWaiting", "10 timer T",
                    "10 runStart ModeX", "10 entry", "10 observer P", "10 beforeTimers", "10 beforeSources",
                    "10 beforeWaiting", "60 afterWaiting", "60 exit", "60 observer P", "60 result timedOut",
                    "60 beforeTimers", "60 beforeSources", "60 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 observer O", "100 result timedOut",
                ])
        }

        @Test("in a nested run of the same mode other timers fire, the starting one resumes its grid: 30, 120, 150")
        func nestedRunInTheSameModeKeepsOtherTimers() {
            let h = VirtualHarness()
            var calls = 0
            h.timer("T1", at: 30, every: 30) { _ in
                calls += 1
                if calls == 1 { h.run(.default, 0.06) }
            }
            h.timer("T2", at: 45)
            h.run(.default, 0.16)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "30 afterWaiting", "30 timer T1",
                    "30 runStart default", "30 entry", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "45 afterWaiting", "45 timer T2", "45 beforeTimers", "45 beforeSources", "45 beforeWaiting",
                    "90 afterWaiting", "90 exit", "90 result timedOut",
                    "90 beforeTimers", "90 beforeSources", "90 beforeWaiting",
                    "120 afterWaiting", "120 timer T1", "120 beforeTimers", "120 beforeSources", "120 beforeWaiting",
                    "150 afterWaiting", "150 timer T1", "150 beforeTimers", "150 beforeSources", "150 beforeWaiting",
                    "160 afterWaiting", "160 exit", "160 result timedOut",
                ])
        }

        @Test("the observer that started a nested run is skipped by it; the outer pass continues afterwards")
        func startingObserverIsSkipped() {
            let h = VirtualHarness()
            h.keepAlive()
            var calls = 0
            h.observer("O", .beforeWaiting, order: 0) { _ in
                calls += 1
                if calls == 1 { h.run(.default, 0.05) }
            }
            h.observer("P", .beforeWaiting, order: 1)
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 observer O",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 observer P", "50 afterWaiting", "50 exit", "50 result timedOut",
                    "50 observer P", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a nested run's time limit ends only the nested run")
        func nestedTimeoutIsItsOwn() {
            let h = VirtualHarness()
            h.keepAlive()
            var nested: RunResult?
            h.timer("T", at: 10) { _ in nested = h.run(.default, 0.02) }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(nested == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "30 afterWaiting", "30 exit", "30 result timedOut",
                    "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a nested run records wake-ups even while the outer run, inside a timer callout, ignores them")
        func nestedRunHasItsOwnWakeUpFilter() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 10) { _ in h.run(.default, 0.1) }
            h.at(30) { h.loop.wakeUp() }
            h.run(.default, 0.2)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "10 afterWaiting", "10 timer T",
                    "10 runStart default", "10 entry", "10 beforeTimers", "10 beforeSources", "10 beforeWaiting",
                    "30 afterWaiting", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "110 afterWaiting", "110 exit", "110 result timedOut",
                    "110 beforeTimers", "110 beforeSources", "110 beforeWaiting",
                    "200 afterWaiting", "200 exit", "200 result timedOut",
                ])
        }

        @Test(
            "a nested run counts the timer that is firing: a lone one-shot timer's nested run does not finish",
            arguments: Backend.allCases)
        func nestedRunCountsTheFiringTimer(backend: Backend) {
            let h = backend.makeHarness()
            var nested: RunResult?
            h.timer("T", at: 10) { _ in nested = h.run(.default, 0) }
            #expect(h.run(.default, 1) == .finished)
            #expect(nested == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "timer T → runStart default → entry → beforeTimers → beforeSources → exit → result timedOut",
                        "exit → result finished"))
        }
    }
}
