import LoopEngine
import Testing

extension Rules {
    @Suite("§5 observers")
    struct ObserverTests {
        @Test("activities have CF's bits: entry 1, beforeTimers 2, beforeSources 4, beforeWaiting 32, …")
        func activityBits() {
            #expect(Activity.entry.rawValue == 1)
            #expect(Activity.beforeTimers.rawValue == 2)
            #expect(Activity.beforeSources.rawValue == 4)
            #expect(Activity.beforeWaiting.rawValue == 32)
            #expect(Activity.afterWaiting.rawValue == 64)
            #expect(Activity.exit.rawValue == 128)
            #expect(Activity.allActivities.rawValue == 0x0FFF_FFFF)
        }

        @Test(
            "observers are called in ascending order, equal orders in the order they were added",
            arguments: Backend.allCases)
        func observersAreCalledByOrderThenInsertion(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.observer("O(10)", order: 10)
            h.observer("O(-5)", order: -5)
            h.observer("O(0)first", order: 0)
            h.observer("O(0)second", order: 0)
            h.run(.default, 0.05)
            let pass = ["observer O(-5)", "observer O(0)first", "observer O(0)second", "observer O(10)"]
            #expect(
                h.steps == ["runStart default", "entry"] + pass + ["beforeTimers"] + pass + ["beforeSources"] + pass
                    + ["beforeWaiting"] + pass + ["afterWaiting"] + pass + ["exit"] + pass + ["result timedOut"])
        }

        @Test("an observer added during a pass is not called in that pass; it joins at the next activity")
        func observerAddedDuringAPassWaits() {
            let h = VirtualHarness()
            h.keepAlive()
            let b = LoopObserver(name: "B", activities: .allActivities, order: 1) { _ in }
            h.observer("A", .entry) { _ in h.loop.add(b, to: .default) }
            h.run(.default, 0.05)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer A", "0 beforeTimers", "0 observer B",
                    "0 beforeSources", "0 observer B", "0 beforeWaiting", "0 observer B",
                    "50 afterWaiting", "50 observer B", "50 exit", "50 observer B", "50 result timedOut",
                ])
        }

        @Test("an observer invalidated by an earlier observer of the same pass is skipped", arguments: Backend.allCases)
        func invalidatedObserverIsSkipped(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            var b: LoopObserver?
            h.observer("A", .entry, order: 0) { _ in b?.invalidate() }
            b = h.observer("B", .allActivities, order: 1)
            h.run(.default, 0.05)
            #expect(b?.isValid == false)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → observer A → beforeTimers → beforeSources → beforeWaiting",
                        "afterWaiting → exit → result timedOut"))
        }

        @Test(
            "an observer merely removed from the mode by an earlier observer is still called in that pass",
            arguments: Backend.allCases)
        func removedObserverStillCalledInThatPass(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            var b: LoopObserver?
            h.observer("A", .entry, order: 0) { _ in
                if let b { h.loop.remove(b, from: .default) }
            }
            b = h.observer("B", .allActivities, order: 1)
            h.run(.default, 0.05)
            #expect(b?.isValid == true)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → observer A → observer B → beforeTimers → beforeSources",
                        "beforeWaiting → afterWaiting → exit → result timedOut"))
        }

        @Test("observers of other modes are never called", arguments: Backend.allCases)
        func observersOfOtherModesAreNotCalled(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            h.observer("X", .entry, in: "ModeX")
            h.observer("D", .entry)
            h.run(.default, 0)
            h.run("ModeX", 0)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → observer D → beforeTimers → beforeSources → exit → result timedOut",
                        "runStart ModeX → entry → observer X → beforeTimers → beforeSources → exit → result timedOut"))
        }

        @Test(
            "a one-shot observer is invalidated after its first callout, whatever the activity, in every mode",
            arguments: Backend.allCases)
        func oneShotObserverRunsOnce(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            let o = h.observer("O", [.beforeWaiting, .exit], repeats: false)
            h.loop.add(o, to: "ModeX")
            h.run(.default, 0.05)
            h.run("ModeX", 0.05)
            #expect(!o.isValid)
            #expect(o.callCount == 1)
            #expect(
                h.steps
                    == trace(
                        "runStart default → entry → beforeTimers → beforeSources → beforeWaiting → observer O",
                        "afterWaiting → exit → result timedOut",
                        "runStart ModeX → entry → beforeTimers → beforeSources → beforeWaiting → afterWaiting → exit",
                        "result timedOut"))
        }

        @Test("an observer whose callout is running is skipped by a nested run; the outer pass then continues")
        func runningObserverIsSkippedByNestedRuns() {
            let h = VirtualHarness()
            h.keepAlive()
            var calls = 0
            h.observer("O", order: 0) { _ in
                calls += 1
                if calls == 1 { h.run(.default, 0.05) }
            }
            h.observer("P", order: 1)
            h.run(.default, 0.2)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O",
                    "0 runStart default", "0 entry", "0 observer P", "0 beforeTimers", "0 observer P",
                    "0 beforeSources", "0 observer P", "0 beforeWaiting", "0 observer P",
                    "50 afterWaiting", "50 observer P", "50 exit", "50 observer P", "50 result timedOut",
                    "50 observer P",
                    "50 beforeTimers", "50 observer O", "50 observer P", "50 beforeSources", "50 observer O",
                    "50 observer P", "50 beforeWaiting", "50 observer O", "50 observer P",
                    "250 afterWaiting", "250 observer O", "250 observer P", "250 exit", "250 observer O",
                    "250 observer P", "250 result timedOut",
                ])
        }

        @Test("a mode whose only item is a timer gets the full entry … exit sequence of observer calls")
        func timerOnlyModeCallsEveryActivity() {
            let h = VirtualHarness()
            h.observer("O")
            h.timer("T", at: 50)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 observer O", "0 beforeTimers", "0 observer O",
                    "0 beforeSources", "0 observer O", "0 beforeWaiting", "0 observer O",
                    "50 afterWaiting", "50 observer O", "50 timer T", "50 exit", "50 observer O",
                    "50 result finished",
                ])
        }

        @Test("an observer that wants only some activities is called only for those", arguments: Backend.allCases)
        func observerActivityFilter(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            var seen: [Activity] = []
            h.observer("O", [.entry, .afterWaiting]) { seen.append($0) }
            h.run(.default, 0.05)
            #expect(seen == [.entry, .afterWaiting])
        }
    }
}
