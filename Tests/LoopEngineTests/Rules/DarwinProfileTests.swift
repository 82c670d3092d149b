import LoopEngine
import Testing

extension Rules {
    /// §15: the darwin profile is inferred from CF's `TARGET_OS_MAC` branches, not verified. The virtual kernel
    /// fires a tolerant timer port at its hard deadline: the minimum over the due timers of fire + tolerance.
    @Suite("§15 the darwin profile")
    struct DarwinProfileTests {
        @Test("on darwin a timer's tolerance is kept")
        func toleranceIsKept() {
            let h = VirtualHarness(profile: .darwin)
            let t = h.makeTimer("T", at: 50, tolerance: 30)
            #expect(t.tolerance == .milliseconds(30))
        }

        @Test("on darwin a lone tolerant timer fires at the end of its tolerance window")
        func tolerantTimerFiresAtItsHardDeadline() {
            let h = VirtualHarness(profile: .darwin)
            h.makeTimer("T", at: 50, tolerance: 30)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "80 afterWaiting", "80 timer T", "80 exit", "80 result finished",
                ])
        }

        @Test("on darwin timers coalesce: the port fires at the earliest hard deadline and every due timer fires")
        func tolerantTimersCoalesce() {
            let h = VirtualHarness(profile: .darwin)
            h.makeTimer("T1", at: 50, tolerance: 30)
            h.makeTimer("T2", at: 60)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "60 afterWaiting", "60 timer T1", "60 timer T2", "60 exit", "60 result finished",
                ])
        }

        @Test("on darwin a tolerance window that ends before the next timer does not coalesce")
        func shortToleranceDoesNotCoalesce() {
            let h = VirtualHarness(profile: .darwin)
            h.makeTimer("T1", at: 50, tolerance: 10)
            h.makeTimer("T2", at: 70)
            #expect(h.run(.default, 1) == .finished)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "60 afterWaiting", "60 timer T1", "60 beforeTimers", "60 beforeSources", "60 beforeWaiting",
                    "70 afterWaiting", "70 timer T2", "70 exit", "70 result finished",
                ])
        }

        @Test("on darwin a repeating timer's tolerance is capped at half its interval; its grid does not move")
        func repeatingToleranceIsCappedAtHalfTheInterval() {
            let h = VirtualHarness(profile: .darwin)
            h.makeTimer("T", at: 100, every: 100, tolerance: 80)
            #expect(h.run(.default, 0.38) == .timedOut)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "150 afterWaiting", "150 timer T", "150 beforeTimers", "150 beforeSources", "150 beforeWaiting",
                    "250 afterWaiting", "250 timer T", "250 beforeTimers", "250 beforeSources", "250 beforeWaiting",
                    "350 afterWaiting", "350 timer T", "350 beforeTimers", "350 beforeSources", "350 beforeWaiting",
                    "380 afterWaiting", "380 exit", "380 result timedOut",
                ])
        }

        @Test("on darwin removing the last timer disarms the port: no stale wake at its deadline")
        func removingTheLastTimerDisarms() {
            let h = VirtualHarness(profile: .darwin)
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.at(20) { h.loop.remove(t, from: .default) }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("on darwin invalidating the last timer disarms the port: no stale wake at its deadline")
        func invalidatingTheLastTimerDisarms() {
            let h = VirtualHarness(profile: .darwin)
            h.keepAlive()
            let t = h.timer("T", at: 50)
            h.at(20) { t.invalidate() }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("on darwin each port message is performed separately, one per iteration")
        func eachPortMessageIsPerformed() {
            let h = VirtualHarness(profile: .darwin)
            var messages: [Int] = []
            let s = h.port("S") { messages.append($0) }
            h.at(20) {
                s.send()
                s.send()
                s.send()
            }
            #expect(h.run(.default, 0.1) == .timedOut)
            #expect(messages == [1, 1, 1])
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "20 afterWaiting", "20 source1 S", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("on darwin wake-ups still coalesce: the wake-up port holds one message")
        func wakeUpsCoalesceOnDarwin() {
            let h = VirtualHarness(profile: .darwin)
            h.keepAlive()
            h.at(20) {
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

        @Test("without tolerance, removed timers or queued port messages darwin gives linux's trace")
        func sharedBehaviourIsIdentical() {
            func scenario(_ profile: PlatformProfile) -> Scenario {
                Scenario(
                    name: "shared", profile: profile,
                    items: [
                        .source0("A", [ScriptStep(.work(.milliseconds(30)))]),
                        .port("S"),
                        .timer("T", first: .milliseconds(10), every: .milliseconds(40)),
                        .observer("O", [.entry, .exit]),
                    ],
                    program: [
                        .signal("A"), .run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false)),
                    ],
                    outside: [
                        OutsideEvent(at: .milliseconds(70), [.send("S", count: 1)]),
                        OutsideEvent(at: .milliseconds(120), [.performBlock("B", modes: [.default], []), .wakeUp]),
                    ])
            }
            let linux = ScenarioRunner.run(scenario(.linux)).events.filter(\.isCFObservable).map(\.step)
            let darwin = ScenarioRunner.run(scenario(.darwin)).events.filter(\.isCFObservable).map(\.step)
            #expect(darwin == linux)
            #expect(linux.contains("source1 S") && linux.contains("block B") && linux.contains("timer T"))
        }
    }
}
