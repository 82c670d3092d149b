import LoopEngine
import Testing

extension Rules {
    /// Foundation's perform-on-thread (Darwin), as the keep-alive-thread article uses it.
    @Suite("perform on a thread")
    struct PerformOnThreadTests {
        @Test("a performed task runs from the perform source after the wake-up")
        func performedTaskRunsAfterTheWakeUp() {
            let h = VirtualHarness()
            h.keepAlive()
            h.at(40) { h.loop.performTask("upload") {} }
            h.run(.default, 0.1)
            #expect(
                h.timedSteps == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "40 afterWaiting", "40 beforeTimers", "40 beforeSources", "40 source0 performSelector",
                    "40 perform upload", "40 beforeTimers", "40 beforeSources", "40 beforeWaiting",
                    "100 afterWaiting", "100 exit", "100 result timedOut",
                ])
        }

        @Test("tasks queued together run in one perform, in order", arguments: Backend.allCases)
        func queuedTasksRunInOrder(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.loop.performTask("A") {}
            h.loop.performTask("B") {}
            h.run(.default, 0, rash: true)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "source0 performSelector",
                    "perform A", "perform B", "exit", "result handledSource",
                ])
        }

        @Test("a task for another mode waits for a run of that mode", arguments: Backend.allCases)
        func taskWaitsForItsMode(backend: Backend) {
            let h = backend.makeHarness()
            h.keepAlive()
            h.keepAlive("KX", in: "ModeX")
            h.loop.performTask("X", modes: ["ModeX"]) {}
            h.run(.default, 0)
            h.run("ModeX", 0)
            #expect(
                h.steps == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "exit", "result timedOut",
                    "runStart ModeX", "entry", "beforeTimers", "beforeSources", "source0 performSelector",
                    "perform X", "exit", "result timedOut",
                ])
        }

        @Test("the keep-alive flag loop re-enters after every handled source until the flag is set")
        func keepAliveFlagLoop() {
            let scenario = Scenario(
                name: "flag",
                items: [.port("P", [ScriptStep(.setFlag("done"), when: .call(2))])],
                program: [.run(.whileNot(flag: "done", mode: .default))],
                outside: [
                    OutsideEvent(at: .milliseconds(20), [.send("P", count: 1)]),
                    OutsideEvent(at: .milliseconds(50), [.send("P", count: 1)]),
                ])
            let outcome = ScenarioRunner.run(scenario)
            #expect(outcome.haltReason == nil)
            #expect(
                outcome.events.filter(\.isCFObservable).map { "\($0.time.nanoseconds / 1_000_000) \($0.step)" } == [
                    "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                    "20 afterWaiting", "20 source1 P", "20 exit", "20 result handledSource",
                    "20 runStart default", "20 entry", "20 beforeTimers", "20 beforeSources", "20 beforeWaiting",
                    "50 afterWaiting", "50 source1 P", "50 exit", "50 result handledSource",
                ])
        }

        @Test("the keep-alive flag loop on an empty mode is reported instead of spinning")
        func keepAliveFlagLoopOnEmptyModeIsReported() {
            let scenario = Scenario(
                name: "spin", items: [], program: [.run(.whileNot(flag: "done", mode: .default))])
            let outcome = ScenarioRunner.run(scenario)
            #expect(outcome.haltReason == nil)
            #expect(outcome.events.map(\.kind) == [.note, .note])
            #expect(outcome.events.first?.detail?.contains("the mode is empty") == true)
            #expect(outcome.events.last?.detail?.contains("would spin") == true)
        }
    }
}
