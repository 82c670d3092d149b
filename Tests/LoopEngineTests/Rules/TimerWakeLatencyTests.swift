import LoopEngine
import Testing

extension Rules {
    /// docs/cfrunloop.md §9.6: after a wake on the timer port, a timer due within 50 µs is due in the same pass
    /// when the wake came as late as a real one does, a branch point whose default is the wake at the deadline.
    /// Both scenarios are fuzz findings where CF fired the two timers in one pass.
    @Suite("§9.6 a timer-port wake's lateness")
    struct TimerWakeLatencyTests {
        static func run(_ text: String, lateWake: Bool) throws -> ScenarioRunner.Outcome {
            var scenario = try ScenarioParser.parse(text, file: "t.loop").scenario
            let first = ScenarioRunner.run(scenario)
            guard lateWake else { return first }
            let point = try #require(
                first.branchPoints.first { $0.options == [.wakeOnTime(loop: "T"), .wakeLate(loop: "T")] })
            scenario.schedule = Schedule(choices: Array(repeating: 0, count: point.index) + [1])
            return ScenarioRunner.run(scenario)
        }

        /// The steps from the first timer-port wake that fires `first` to the next `beforeTimers`.
        static func pass(_ outcome: ScenarioRunner.Outcome, from first: String) -> [String] {
            let steps = outcome.events.filter { $0.loop == "T" }.map(\.step)
            guard let start = steps.firstIndex(of: first),
                let end = steps[start...].firstIndex(of: "beforeTimers")
            else { return [] }
            return Array(steps[start..<end])
        }

        /// Fuzz seed 79 case 1929: two delayed performs of 20 ms, queued one engine iteration apart (1.5 µs).
        static let delayedPerforms = """
            thread T
              port p4
                perform d2 target str afterDelay 20ms
              timer t1 interval 20ms foundation scheduled
                send p4
              reschedule t1 in 0ms
              RunLoop.run default before 20ms
              perform d2 target str afterDelay 20ms in default, M1
              RunLoop.acceptInput default before at 80ms
            """

        @Test("two delayed performs due 1.5 µs apart: one pass after a late wake, two after a wake at the deadline")
        func delayedPerformsDueTogether() throws {
            let onTime = try Self.run(Self.delayedPerforms, lateWake: false)
            #expect(
                onTime.branchPoints.contains { $0.options == [.wakeOnTime(loop: "T"), .wakeLate(loop: "T")] })
            #expect(Self.pass(onTime, from: "timer delayedPerform") == ["timer delayedPerform", "perform d2"])
            let late = try Self.run(Self.delayedPerforms, lateWake: true)
            #expect(
                Self.pass(late, from: "timer delayedPerform") == [
                    "timer delayedPerform", "perform d2", "timer delayedPerform", "perform d2",
                ])
        }

        /// Fuzz seed 78 case 21: a nested run of M1 from a timer at 60 ms; in M1 `t3` is overdue and `t2` is due
        /// 1.5 µs later (rescheduled one iteration after the start).
        static let nestedRun = """
            thread T main
              source0 s1
                reschedule t1 in 60ms
              timer t1 at 0ms
                run M1 for 40ms
              timer t2 at 20ms in M1
              timer t3 at 0ms every 40ms in M1
              timer tEnd at 100ms
                stop
              signal s1
              RunLoop.run default before 0ms
              reschedule t2 in 60ms
              CFRunLoopRun
            """

        @Test("an overdue timer and one due 1.5 µs later in a nested run: one pass after a late wake")
        func nestedRunTimersDueTogether() throws {
            let onTime = try Self.run(Self.nestedRun, lateWake: false)
            #expect(Self.pass(onTime, from: "timer t3") == ["timer t3"])
            let late = try Self.run(Self.nestedRun, lateWake: true)
            #expect(Self.pass(late, from: "timer t3") == ["timer t3", "timer t2"])
        }

        @Test("a timer due more than 50 µs after the wake is no branch point")
        func laterTimerIsNoRace() throws {
            let outcome = try Self.run(
                """
                thread T
                  timer a at 10ms
                  timer b at 10.1ms
                  run default for 20ms
                """, lateWake: false)
            #expect(!outcome.branchPoints.contains { $0.options.contains(.wakeLate(loop: "T")) })
            #expect(outcome.events.filter { $0.kind == .timer }.map(\.step) == ["timer a", "timer b"])
        }
    }
}
