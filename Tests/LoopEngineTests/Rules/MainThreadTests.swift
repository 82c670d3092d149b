import LoopEngine
import Testing

extension Rules {
    @Suite("§14 the main thread and the libdispatch main queue")
    struct MainThreadTests {
        @Test("a main-queue block queued before a rash run is drained after a wait and counts as handled")
        func mainQueueBlockIsHandled() {
            let h = VirtualHarness(mainThread: true)
            h.loop.performOnMainQueue("M1") {}
            #expect(h.run(.default, 0.2, rash: true) == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M1", "0 exit", "0 result handledSource",
                ])
        }

        @Test("two queued main-queue blocks are drained in one go")
        func twoBlocksAreDrainedTogether() {
            let h = VirtualHarness(mainThread: true)
            h.loop.performOnMainQueue("M1") {}
            h.loop.performOnMainQueue("M2") {}
            #expect(h.run(.default, 0.2, rash: true) == .handledSource)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "mainQueue M1 → mainQueue M2 → exit → result handledSource"))
        }

        @Test("a main-queue block that re-enqueues itself costs a full beforeWaiting → afterWaiting cycle per hop")
        func reenqueueingCostsACyclePerHop() {
            let h = VirtualHarness(mainThread: true)
            h.loop.performOnMainQueue("M1") {
                h.loop.performOnMainQueue("M2") {
                    h.loop.performOnMainQueue("M3") {}
                }
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M1", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M2", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M3", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("after an iteration that did not drain, the main queue is drained without before/afterWaiting")
        func peekAfterATimerDrainsWithoutWaiting() {
            let h = VirtualHarness(mainThread: true)
            h.timer("T", at: 20) { _ in h.loop.performOnMainQueue("M1") {} }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 beforeTimers", "20 beforeSources", "20 mainQueue M1",
                    "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("a mode that is not common does not service the main queue")
        func nonCommonModeIgnoresTheMainQueue() {
            let h = VirtualHarness(mainThread: true)
            h.keepAlive("KX", in: "ModeX")
            h.loop.performOnMainQueue("M1") {}
            #expect(h.run("ModeX", 0.1) == .timedOut)
            #expect(h.run(.default, 0.1, rash: true) == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart ModeX", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                    "100 runStart default", "100 entry", "100 beforeTimers", "100 beforeSources",
                    "100 beforeWaiting", "100 afterWaiting", "100 mainQueue M1", "100 exit",
                    "100 result handledSource",
                ])
        }

        @Test("a common mode of the main loop made common later services the main queue too")
        func addedCommonModeServicesTheMainQueue() {
            let h = VirtualHarness(mainThread: true)
            h.makeTimer("Far", at: 10_000, in: ["ModeY"])
            h.loop.addCommonMode("ModeY")
            h.loop.performOnMainQueue("M1") {}
            #expect(h.run("ModeY", 0.1, rash: true) == .handledSource)
            #expect(
                h.steps
                    == trace(
                        "runStart ModeY → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "mainQueue M1 → exit → result handledSource"))
        }

        @Test(
            "a mode made common with nothing in it does not exist yet: on the main thread too its run finishes at once")
        func commonModeNeverCreatedFinishes() {
            // The real CF on this machine: CFRunLoopAddCommonMode creates the mode only by adding the common items
            // to it, and CFRunLoopRunInMode of a mode never created returns finished, main queue or not.
            let h = VirtualHarness(mainThread: true)
            h.loop.addCommonMode("ModeY")
            h.loop.performOnMainQueue("M1") {}
            #expect(h.run("ModeY", 0.1, rash: true) == .finished)
            #expect(h.steps == ["runStart ModeY", "result finished"])
        }

        @Test("on the main thread every common mode is non-empty, even with nothing in it")
        func commonModesOfTheMainLoopAreNeverEmpty() {
            let h = VirtualHarness(mainThread: true)
            #expect(h.run(.default, 0.05) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                ])
        }

        @Test("inside a main-queue drain a nested run of an empty default mode returns finished at once")
        func nestedRunInsideADrainIsNotMainQueueRun() {
            let h = VirtualHarness(mainThread: true)
            var nested: RunResult?
            h.loop.performOnMainQueue("M1") { nested = h.run(.default, 0.05) }
            #expect(h.run(.default, 0.2, rash: true) == .handledSource)
            #expect(nested == .finished)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting",
                        "mainQueue M1 → runStart default → result finished → exit → result handledSource"))
        }

        @Test("inside a main-queue drain a nested run does not service the main queue")
        func nestedRunInsideADrainDoesNotDrain() {
            let h = VirtualHarness(mainThread: true)
            h.keepAlive()
            h.loop.performOnMainQueue("M1") {
                h.loop.performOnMainQueue("M2") {}
                h.run(.default, 0.05)
            }
            #expect(h.run(.default, 0.2, rash: true) == .handledSource)
            #expect(h.run(.default, 0.2, rash: true) == .handledSource)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M1",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                    "50 exit", "50 result handledSource",
                    "50 runStart default", "50 entry", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "50 afterWaiting", "50 mainQueue M2", "50 exit", "50 result handledSource",
                ])
        }

        @Test("a wake-up from a main-queue block is dropped")
        func wakeUpDuringADrainIsDropped() {
            let h = VirtualHarness(mainThread: true)
            h.loop.performOnMainQueue("M1") { h.loop.wakeUp() }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 mainQueue M1", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("CFRunLoopRun on the main thread ends only by a stop: the default mode never finishes")
        func runUntilStoppedOnTheMainThreadEndsOnlyByStop() {
            let h = VirtualHarness(mainThread: true)
            h.timer("T", at: 20)
            h.at(50) { h.loop.stop() }
            #expect(h.loop.runUntilStopped() == .stopped)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 timer T", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result stopped",
                ])
        }

        @Test("RunLoop.main.run() never returns: after a stop it re-enters and sleeps forever")
        func foundationRunForeverOnTheMainThreadNeverReturns() {
            let h = VirtualHarness(mainThread: true)
            h.at(50) { h.loop.stop() }
            h.loop.runFoundationForever()
            #expect(h.world.haltReason == .idle)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result stopped",
                    "50 runStart default", "50 entry", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                ])
        }
    }
}
