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
}
#endif
