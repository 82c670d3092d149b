import LoopEngine
import Testing

extension Rules {
    @Suite("§13 timeouts")
    struct TimeoutTests {
        @Test(
            "a run of zero or negative seconds with nothing pending is one polling iteration, then timedOut",
            arguments: [0.0, -1.0, -10.0])
        func pollWithNothingPending(seconds: Double) {
            let h = VirtualHarness()
            h.keepAlive()
            #expect(h.run(.default, seconds) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → exit → result timedOut"))
        }

        @Test("a polling run of an empty mode returns finished", arguments: Backend.allCases)
        func pollOfAnEmptyModeFinishes(backend: Backend) {
            let h = backend.makeHarness()
            #expect(h.run(.default, 0) == .finished)
            #expect(h.steps == ["runStart default", "result finished"])
        }

        @Test("a polling run performs every signalled source0, then times out", arguments: Backend.allCases)
        func pollPerformsAllSource0s(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            let b = h.source("B")
            a.signal()
            b.signal()
            #expect(h.run(.default, 0) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 A → source0 B → exit",
                        "result timedOut"))
        }

        @Test("a rash polling run performs one source0 and returns handledSource", arguments: Backend.allCases)
        func rashPollPerformsOneSource0(backend: Backend) {
            let h = backend.makeHarness()
            let a = h.source("A")
            let b = h.source("B")
            a.signal()
            b.signal()
            #expect(h.run(.default, 0, rash: true) == .handledSource)
            #expect(b.isSignalled)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 A → exit",
                        "result handledSource"))
        }

        @Test("a due timer fires in a polling run")
        func dueTimerFiresInThePoll() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 10)
            h.work(20)
            #expect(h.run(.default, 0) == .timedOut)
            #expect(
                h.timedSteps == [
                    "20 runStart default", "20 entry", "20 beforeTimers", "20 beforeSources", "20 timer T",
                    "20 exit", "20 result timedOut",
                ])
        }

        @Test("a polling run services one port: due timer in run 1, ready port in run 2, nothing in run 3")
        func pollServicesOnePortPerRun() {
            let h = VirtualHarness()
            h.keepAlive()
            let s = h.port("S")
            h.timer("T", at: 10)
            h.at(20) { s.send() }
            h.work(30)
            #expect(h.run(.default, 0) == .timedOut)
            #expect(h.run(.default, 0) == .timedOut)
            #expect(h.run(.default, 0) == .timedOut)
            let start = ["runStart default", "entry", "beforeTimers", "beforeSources"]
            let end = ["exit", "result timedOut"]
            #expect(h.steps == start + ["timer T"] + end + start + ["source1 S"] + end + start + end)
        }

        @Test(
            "a rash polling run runs a block, then a ready port, and returns handledSource", arguments: Backend.allCases
        )
        func rashPollRunsBlockThenPort(backend: Backend) {
            let h = backend.makeHarness()
            let s = h.port("S")
            s.send()
            h.block("B")
            #expect(h.run(.default, 0, rash: true) == .handledSource)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → block B → source1 S → exit",
                        "result handledSource"))
        }

        @Test("at its time limit a run wakes, runs the last blocks pass (a block queued without wake-up) and times out")
        func timeoutRunsTheLastBlocksPass() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(40) { h.block("B") }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 block B", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a loop that never sleeps still times out: a self-re-signalling source0 polls until the limit")
        func neverSleepingLoopTimesOut() {
            let h = VirtualHarness()
            var a: LoopSource?
            a = h.source("A") {
                h.loop.clock.spend(.microseconds(300))
                a?.signal()
            }
            a?.signal()
            #expect(h.run(.default, 0.02) == .timedOut)
            // 67 iterations of 0.3 ms of work plus the iteration cost: the first end after the 20 ms limit.
            #expect(
                h.steps
                    == ["runStart default", "entry"]
                    + [String](repeating: ["beforeTimers", "beforeSources", "source0 A"], times: 67)
                    + ["exit", "result timedOut"])
            #expect(h.world.now == LoopInstant.zero + (.microseconds(300) + VirtualWorld.defaultIterationCost) * 67)
        }

        @Test(
            "a time limit above about 16 years, infinity or NaN means no limit: an idle run sleeps forever",
            arguments: [6.0e8, 1.0e10, Double.infinity, Double.nan])
        func hugeLimitsMeanNoTimeout(seconds: Double) {
            let h = VirtualHarness()
            h.keepAlive()
            h.run(.default, seconds)
            #expect(h.world.haltReason == .idle)
            #expect(h.steps == trace("runStart default → entry → beforeTimers → beforeSources → beforeWaiting"))
        }

        @Test("a Foundation run before the distant future has no time limit")
        func distantFutureMeansNoTimeout() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(5000) { h.loop.stop() }
            #expect(h.loop.runFoundation(mode: .default, before: .distantFuture))
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "5000 afterWaiting", "5000 exit", "5000 result stopped",
                ])
        }

        @Test("the time limit counts from the start of the loop body, after the entry observers")
        func limitCountsFromAfterEntry() {
            let h = VirtualHarness()
            h.keepAlive()
            h.observer("O", .entry) { _ in h.work(30) }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O", "30 beforeTimers", "30 beforeSources",
                    "30 beforeWaiting", "130 afterWaiting", "130 exit", "130 result timedOut",
                ])
        }

        @Test("§13.1 a limit at a timer's instant: the timer port first, then one more cycle, ended by the limit")
        func limitAtATimersInstantComesAfterTheTimerPass() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("tick", at: 100, every: 100)
            h.timer("modal", at: 150) { _ in h.run(.default, 0.05) }
            h.run(.default, 0.23)
            let nested = h.allSteps.drop { $0 != "timer modal" }.prefix { $0 != "result timedOut" }
            #expect(
                Array(nested) == [
                    "timer modal", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
                    "sleep", "wake", "afterWaiting", "timer tick", "wakeUp", "beforeTimers", "beforeSources",
                    "beforeWaiting", "sleep", "wake", "afterWaiting", "exit",
                ])
            // The limit's wake-up is used up inside the nested run: the outer run goes to sleep at once.
            #expect(
                h.timedSteps.drop { $0 != "200 timer tick" } == [
                    "200 timer tick", "200 beforeTimers", "200 beforeSources", "200 beforeWaiting", "200 afterWaiting",
                    "200 exit", "200 result timedOut", "200 beforeTimers", "200 beforeSources", "200 beforeWaiting",
                    "230 afterWaiting", "230 exit", "230 result timedOut",
                ])
        }

        @Test("§13.1 a timer callout that works past the limit's instant meets the limit's wake-up while ignoring it")
        func limitAtATimersInstantAfterAWorkingCallout() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("tick", at: 100, every: 100) { _ in h.work(5) }
            h.timer("modal", at: 150) { _ in h.run(.default, 0.05) }
            h.run(.default, 0.23)
            #expect(
                h.timedSteps.drop { $0 != "150 runStart default" } == [
                    "150 runStart default", "150 entry", "150 beforeTimers", "150 beforeSources", "150 beforeWaiting",
                    "200 afterWaiting", "200 timer tick", "205 exit", "205 result timedOut",
                    "205 beforeTimers", "205 beforeSources", "205 beforeWaiting",
                    "230 afterWaiting", "230 exit", "230 result timedOut",
                ])
            #expect(
                h.recorder.events.contains {
                    $0.kind == .wakeUp && $0.fact == .wakeUp(.timeout, ignored: .afterTheWait)
                })
        }
    }
}
