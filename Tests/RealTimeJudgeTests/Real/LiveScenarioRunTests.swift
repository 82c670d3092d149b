#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// A scenario running on real threads while the caller acts on it: what the UI's `--clock real` stands on.
    @Suite("a live scenario run")
    struct LiveScenarioRunTests {
        static let scenario = Scenario(
            name: "live", items: [.port("K"), .source0("S")], program: [.run(.foundationForever)])

        /// Drains `sink` until `wanted` holds for the events so far, or two seconds pass.
        static func collect(
            _ sink: BufferedTraceSink, _ clock: any LoopClock, until wanted: ([LoopEvent]) -> Bool
        )
            -> [LoopEvent]
        {
            var events: [LoopEvent] = []
            let deadline = clock.now + .seconds(2)
            while !wanted(events) && clock.now < deadline {
                events += sink.drain().events
                clock.spend(.milliseconds(1))
            }
            return events
        }

        @Test func theCallersActionsReachTheSleepingLoopAtOnceAndStopJoinsEverything() {
            RealTimeGate.exclusive {
                let sink = BufferedTraceSink()
                let run = LiveScenarioRun(Self.scenario, sink: sink)
                let asleep = Self.collect(sink, run.clock) { $0.contains { $0.kind == .sleep } }
                #expect(asleep.contains { $0.kind == .sleep }, "the loop went to sleep in the kernel")
                #expect(run.perform([.signal("S"), .wakeUp], onThread: "T"))
                let woken = Self.collect(sink, run.clock) { $0.contains { $0.kind == .source0 } }
                #expect(woken.map(\.step).contains("source0 S"))
                #expect(woken.contains { $0.kind == .wake && $0.detail == "wakeUp" })
                #expect(!run.perform([.wakeUp], onThread: "nobody"))
                #expect(!run.hasEnded, "RunLoop.run() never ends by itself")
                run.stop()
                #expect(!run.perform([.wakeUp], onThread: "T"), "after stop nothing is performed")
                run.stop()
            }
        }

        @Test func aRunWhoseProgramsEndSaysSo() {
            RealTimeGate.exclusive {
                let scenario = Scenario(
                    name: "short", items: [.port("K")],
                    program: [.run(.inMode(.default, seconds: 0.02, returnAfterSourceHandled: false))])
                let run = LiveScenarioRun(scenario, sink: BufferedTraceSink())
                let deadline = run.clock.now + .seconds(2)
                while !run.hasEnded && run.clock.now < deadline { run.clock.spend(.milliseconds(1)) }
                #expect(run.hasEnded)
                run.stop()
            }
        }
    }

    /// A sink that takes its time over one event: while it records it, the thread that emitted that event is held
    /// in the middle of what it does, which lets a test act at that moment.
    final class HoldingSink: TraceSink, @unchecked Sendable {
        // @unchecked Sendable: the state is a `Shared`; `held` and `hold` are immutable.
        struct State {
            var notes: [String] = []
            var holding = false
            var released = false
        }

        let state = Shared(State())
        private let held: String
        private let hold: Duration

        /// Holds the thread that records the note `held` for `hold`.
        init(holding held: String, for hold: Duration) {
            self.held = held
            self.hold = hold
        }

        func record(_ event: consuming LoopEvent) {
            guard event.kind == .note, let text = event.detail else { return }
            state.update { $0.notes.append(text) }
            guard text == held else { return }
            state.update { $0.holding = true }
            Real.sleep(for: hold)
            state.update { $0.released = true }
        }
    }
}

extension Real.LiveScenarioRunTests {
    @Test func stopWaitsForAPerformUnderWayOnAnotherThreadAndRefusesTheRestOfItsActions() {
        RealTimeGate.exclusive {
            // A program that ends at once: when stop is called no thread of the run is left to join, so only the
            // perform under way can hold stop up.
            let scenario = Scenario(name: "short", items: [], program: [])
            let sink = Real.HoldingSink(holding: "under way", for: .milliseconds(200))
            let run = LiveScenarioRun(scenario, sink: sink)
            #expect(Real.eventually { run.hasEnded })
            let admitted = Shared<Bool?>(nil)
            let caller = TestThread {
                let done = run.perform([.note("under way"), .work(.seconds(5)), .note("after")], onThread: "T")
                admitted.update { $0 = done }
            }
            // The caller is now inside its perform, held in the middle of its first action.
            #expect(Real.eventually { sink.state.value.holding })
            let start = Real.monotonic()
            run.stop()
            let took = Duration.nanoseconds(Real.monotonic() - start)
            #expect(sink.state.value.released, "stop returned while the perform was still in its first action")
            caller.join()
            #expect(admitted.value == true, "the perform was under way before the stop")
            // The action under way completed; the ones after it were refused by the halt, the five-second work
            // included (a wide margin: this is no timing test).
            #expect(sink.state.value.notes == ["under way"])
            #expect(took < .seconds(2))
            #expect(!run.perform([.note("late")], onThread: "T"), "after stop nothing is performed")
            #expect(sink.state.value.notes == ["under way"])
        }
    }
}
#endif
