import LoopEngine
import Testing

extension Rules {
    /// §17: Foundation's perform requests built from CF parts - ordered performs (a one-shot timer in the
    /// requests' modes), their cancelling, and the perform source that removes itself.
    @Suite("§17 perform requests")
    struct OrderedPerformTests {
        @Test("ordered performs run once each from one timer, lower order first, FIFO within an order")
        func lowerOrderFirst() {
            let h = VirtualHarness()
            h.keepAlive()
            h.loop.performOrdered("b", target: "str", order: 11, modes: [.default]) {}
            h.loop.performOrdered("a", target: "str", order: 10, modes: [.default]) {}
            h.loop.performOrdered("c", target: "str", order: 10, modes: [.default]) {}
            h.run(.default, 0.1)
            h.run(.default, 0.1)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "timer orderedPerform", "perform a", "perform c", "perform b", "beforeTimers", "beforeSources",
                    "beforeWaiting", "afterWaiting", "exit", "result timedOut",
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "exit", "result timedOut",
                ])
        }

        @Test("a request for another mode waits for a run of that mode; a cancelled one never runs")
        func modesAndCancelling() {
            let h = VirtualHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "Tracking")
            h.loop.performOrdered("drag", target: "view", order: 1, modes: ["Tracking"]) {}
            h.loop.performOrdered("save", target: "model", order: 2, modes: [.default]) {}
            h.loop.performOrdered("old", target: "doc", order: 0, modes: [.default, "Tracking"]) {}
            h.loop.cancelOrderedPerforms(task: "save", target: "model")
            h.loop.cancelOrderedPerforms(task: nil, target: "doc")
            h.run(.default, 0.05)
            h.run("Tracking", 0.05)
            // The cancels made the timer again in Tracking only; default's timer port stays armed on linux and
            // wakes that run once for nothing (§9.2).
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
                    "runStart Tracking", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "timer orderedPerform", "perform drag", "beforeTimers", "beforeSources", "beforeWaiting",
                    "afterWaiting", "exit", "result timedOut",
                ])
            #expect(
                h.recorder.events.compactMap(\.noteFact) == [
                    .performsCancelled(task: "save", target: "model", count: 1),
                    .performsCancelled(task: nil, target: "doc", count: 1),
                ])
        }

        @Test("an empty modes list queues nothing; cancelling everything leaves no timer to keep a mode alive")
        func nothingLeftBehind() {
            let h = VirtualHarness()
            h.loop.performOrdered("never", target: "self", order: 0, modes: []) {}
            h.loop.performOrdered("gone", target: "self", order: 0, modes: [.default]) {}
            h.loop.cancelOrderedPerforms(task: "gone", target: "self")
            h.run(.default, 0.05)
            #expect(h.steps == ["runStart default", "result finished"])
        }

        @Test("the perform source removes itself once its queue is empty: a loop it alone kept alive finishes")
        func performSourceRemovesItself() {
            let h = VirtualHarness()
            h.loop.performTask("job") {}
            h.run(.default, 1.0)
            h.run(.default, 1.0)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "source0 performSelector",
                    "perform job", "exit", "result finished", "runStart default", "result finished",
                ])
        }
    }
}

extension LoopEvent {
    /// The note this event carries, if it is one of the engine's notes.
    fileprivate var noteFact: LoopEvent.Note? {
        if case .note(let note) = fact { note } else { nil }
    }
}
