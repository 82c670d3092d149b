import LoopEngine
import Testing

extension Rules {
    @Suite("§3 result codes and precedence")
    struct ResultPrecedenceTests {
        @Test("result codes have CF's values: finished 1, stopped 2, timedOut 3, handledSource 4")
        func resultCodes() {
            #expect(RunResult.finished.rawValue == 1)
            #expect(RunResult.stopped.rawValue == 2)
            #expect(RunResult.timedOut.rawValue == 3)
            #expect(RunResult.handledSource.rawValue == 4)
        }

        @Test("handledSource beats timedOut: a rash source0 that overran the time limit returns handledSource")
        func handledSourceBeatsTimedOut() {
            let h = VirtualHarness()
            let a = h.source("A") { h.work(300) }
            a.signal()
            let result = h.run(.default, 0.1, rash: true)
            #expect(result == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A",
                    "300 exit", "300 result handledSource",
                ])
        }

        @Test("handledSource beats stopped and the stop is lost: the next run is not stopped")
        func handledSourceBeatsStopped() {
            let h = VirtualHarness()
            let a = h.source("A") { h.loop.stop() }
            a.signal()
            #expect(h.run(.default, 1, rash: true) == .handledSource)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 source0 A", "0 stop",
                    "0 exit", "0 result handledSource",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("timedOut beats stopped and the stop is lost: a timer that overruns the limit, then stops")
        func timedOutBeatsStopped() {
            let h = VirtualHarness()
            h.keepAlive()
            h.timer("T", at: 50) { _ in
                h.work(100)
                h.loop.stop()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "150 stop", "150 exit", "150 result timedOut",
                    "150 runStart default", "150 entry", "150 beforeTimers", "150 beforeSources",
                    "150 beforeWaiting", "250 afterWaiting", "250 exit", "250 result timedOut",
                ])
        }

        @Test("timedOut beats finished: a lone one-shot timer whose callout overruns the limit")
        func timedOutBeatsFinished() {
            let h = VirtualHarness()
            h.timer("T", at: 50) { _ in h.work(100) }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "150 exit", "150 result timedOut",
                ])
        }

        @Test(
            "a polling run that fires the last one-shot timer returns timedOut, not finished",
            arguments: Backend.allCases)
        func pollFiringTheLastTimerTimesOut(backend: Backend) {
            let h = backend.makeHarness()
            h.timer("T", at: 0)
            #expect(h.run(.default, 0) == .timedOut)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → timer T → exit → result timedOut"))
            #expect(h.run(.default, 0) == .finished)
        }

        @Test("stopped beats finished: a lone one-shot timer that calls stop")
        func stoppedBeatsFinished() {
            let h = VirtualHarness()
            h.timer("T", at: 50) { _ in h.loop.stop() }
            #expect(h.run(.default, 1) == .stopped)
            #expect(
                h.timedSteps(with: [.stop]) == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 timer T", "50 stop", "50 exit", "50 result stopped",
                ])
        }

        @Test("timers never count as handled: a rash run with only timer activity runs until its time limit")
        func timersAreNotHandledSources() {
            let h = VirtualHarness()
            h.timer("T", at: 30, every: 30)
            #expect(h.run(.default, 0.1, rash: true) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "30 afterWaiting", "30 timer T", "30 beforeTimers", "30 beforeSources", "30 beforeWaiting",
                    "60 afterWaiting", "60 timer T", "60 beforeTimers", "60 beforeSources", "60 beforeWaiting",
                    "90 afterWaiting", "90 timer T", "90 beforeTimers", "90 beforeSources", "90 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("blocks never count as handled: a rash run that ran a block sleeps until its time limit")
        func blocksAreNotHandledSources() {
            let h = VirtualHarness()
            h.keepAlive()
            h.block("B")
            #expect(h.run(.default, 0.1, rash: true) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 block B",
                    "0 beforeWaiting", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test(
            "a mode that becomes empty during an iteration finishes the run at the end of it",
            arguments: Backend.allCases)
        func emptyAtTheEndFinishes(backend: Backend) {
            let h = backend.makeHarness()
            var a: LoopSource?
            a = h.source("A") { a?.invalidate() }
            a?.signal()
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → source0 A → exit → result finished"))
        }
    }
}
