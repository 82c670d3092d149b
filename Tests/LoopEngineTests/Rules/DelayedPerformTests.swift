import LoopEngine
import Testing

extension Rules {
    /// §19: `performSelector:withObject:afterDelay:[inModes:]` as one one-shot timer per request on the thread's
    /// own loop, and `cancelPreviousPerformRequestsWithTarget:[selector:object:]`.
    @Suite("§19 delayed performs")
    struct DelayedPerformTests {
        @Test("a delay of 0 is not immediate: the task waits for its timer's pass in the run")
        func zeroDelayWaitsForTheTimer() {
            let h = VirtualHarness()
            h.keepAlive()
            var ran = false
            h.loop.performAfterDelay("now", target: "self", delay: .zero, modes: [.default]) { ran = true }
            #expect(!ran)
            h.run(.default, 0.05)
            #expect(ran)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "0 afterWaiting", "0 timer delayedPerform", "0 perform now", "0 beforeTimers", "0 beforeSources",
                    "0 beforeWaiting", "50 afterWaiting", "50 exit", "50 result timedOut",
                ])
        }

        @Test("each request has its own timer, due its delay from the call, and runs once")
        func ownTimerEach() {
            let h = VirtualHarness()
            h.keepAlive()
            h.loop.performAfterDelay("b", target: "view", delay: .milliseconds(30), modes: [.default]) {}
            h.loop.performAfterDelay("a", target: "view", delay: .milliseconds(10), modes: [.default]) {}
            h.run(.default, 0.05)
            #expect(
                h.timedSteps.filter { $0.contains("timer") || $0.contains("perform") || $0.contains("result") } == [
                    "10 timer delayedPerform", "10 perform a", "30 timer delayedPerform", "30 perform b",
                    "50 result timedOut",
                ])
            #expect(
                h.recorder.events.filter { $0.kind == .perform }.map(\.fact) == [
                    .delayed(.milliseconds(10)), .delayed(.milliseconds(30)),
                ])
        }

        @Test("a request in the default mode waits while the loop runs another mode (scrolling), then runs late")
        func waitsForItsMode() {
            let h = VirtualHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "Tracking")
            h.loop.performAfterDelay("refresh", target: "view", delay: .milliseconds(10), modes: [.default]) {}
            h.run("Tracking", 0.05)
            h.run(.default, 0.05)
            #expect(
                h.timedSteps == [
                    "0 runStart Tracking", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "50 afterWaiting", "50 exit", "50 result timedOut",
                    "50 runStart default", "50 entry", "50 beforeTimers", "50 beforeSources", "50 beforeWaiting",
                    "50 afterWaiting", "50 timer delayedPerform", "50 perform refresh", "50 beforeTimers",
                    "50 beforeSources", "50 beforeWaiting", "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("cancelPrevious removes the target's delayed performs (or one task's), never its ordered performs")
        func cancelling() {
            let h = VirtualHarness()
            h.keepAlive()
            h.loop.performAfterDelay("save", target: "doc", delay: .milliseconds(10), modes: [.default]) {}
            h.loop.performAfterDelay("autosave", target: "doc", delay: .milliseconds(10), modes: [.default]) {}
            h.loop.performAfterDelay("close", target: "doc", delay: .milliseconds(20), modes: [.default]) {}
            h.loop.performAfterDelay("redraw", target: "view", delay: .milliseconds(20), modes: [.default]) {}
            h.loop.performOrdered("layout", target: "doc", order: 1, modes: [.default]) {}
            h.loop.cancelDelayedPerforms(task: "save", target: "doc")
            h.loop.cancelDelayedPerforms(task: nil, target: "doc")
            h.loop.cancelDelayedPerforms(task: nil, target: "nobody")
            h.loop.cancelOrderedPerforms(task: nil, target: "view")
            h.run(.default, 0.05)
            #expect(
                h.timedSteps.filter { $0.contains("timer") || $0.contains("perform") } == [
                    "0 timer orderedPerform", "0 perform layout", "20 timer delayedPerform", "20 perform redraw",
                ])
            #expect(
                h.recorder.events.compactMap(\.delayedNoteFact) == [
                    .delayedPerformsCancelled(task: "save", target: "doc", count: 1),
                    .delayedPerformsCancelled(task: nil, target: "doc", count: 2),
                    .delayedPerformsCancelled(task: nil, target: "nobody", count: 0),
                    .performsCancelled(task: nil, target: "view", count: 0),
                ])
        }

        @Test("the timer keeps its mode alive; cancelled or with no modes, nothing is left and the run finishes")
        func nothingLeftBehind() {
            let h = VirtualHarness()
            h.loop.performAfterDelay("never", target: "self", delay: .milliseconds(5), modes: []) {}
            h.loop.performAfterDelay("gone", target: "self", delay: .milliseconds(5), modes: [.default]) {}
            h.loop.cancelDelayedPerforms(task: "gone", target: "self")
            h.run(.default, 0.05)
            h.loop.performAfterDelay("last", target: "self", delay: .milliseconds(5), modes: [.default]) {}
            h.run(.default, 0.05)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 result finished",
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "5 afterWaiting", "5 timer delayedPerform", "5 perform last", "5 exit", "5 result finished",
                ])
        }
    }
}

extension LoopEvent {
    /// The note this event carries, if it is one of the engine's notes.
    fileprivate var delayedNoteFact: LoopEvent.Note? {
        if case .note(let note) = fact { note } else { nil }
    }
}
