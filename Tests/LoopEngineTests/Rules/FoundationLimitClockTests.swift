import LoopEngine
import Testing

extension Rules {
    /// docs/cfrunloop.md §13.2: Foundation gives a run `limit - CFAbsoluteTimeGetCurrent()` seconds, and on Linux
    /// `Date()` reads nanoseconds while CF's clock reads whole microseconds (`gettimeofday`), so a limit of "now"
    /// is usually still ahead of CF's clock and the run waits out a sliver of a microsecond instead of polling. The
    /// engine offers both as a branch point (the default polls). `FoundationLimitClockProbeTests` checks, on this
    /// machine's Foundation, that real runs take both and nothing else.
    @Suite("§13.2 a Foundation run limit of now against CF's microsecond clock")
    struct FoundationLimitClockTests {
        static func outcome(
            _ program: String, profile: String? = nil, schedule: String? = nil
        ) throws
            -> ScenarioRunner.Outcome
        {
            let text =
                "scenario \"limit\"\n" + (profile.map { "profile \($0)\n" } ?? "")
                + "thread T\n  source0 s1\n  \(program)\n"
            var scenario = try ScenarioParser.parse(text, file: "t.loop").scenario
            if let schedule { scenario.schedule = try #require(Schedule(id: schedule)) }
            return ScenarioRunner.run(scenario)
        }

        static func steps(_ outcome: ScenarioRunner.Outcome) -> [String] {
            outcome.events.map { event in event.step + (event.detail.map { " (\($0))" } ?? "") }
        }

        @Test("acceptInput before now: the default polls; CF's clock a microsecond behind makes the run wait it out")
        func acceptInputBeforeNowIsARace() throws {
            let polled = try Self.outcome("RunLoop.acceptInput default before now")
            #expect(polled.branchPoints.map(\.options) == [[.limitPassed(loop: "T"), .limitAhead(loop: "T")]])
            #expect(
                Self.steps(polled) == [
                    "schedule s1 (mode default)", "runStart default (limit poll, returnAfterSourceHandled)", "entry",
                    "beforeTimers",
                    "beforeSources", "sleep (poll)", "wake (nothing)", "exit", "result timedOut",
                ])
            let waited = try Self.outcome("RunLoop.acceptInput default before now", schedule: "0:1")
            #expect(
                Self.steps(waited) == [
                    "schedule s1 (mode default)", "runStart default (limit 0.000001s, returnAfterSourceHandled)",
                    "entry", "beforeTimers",
                    "beforeSources", "beforeWaiting", "sleep (until time limit at 0.000001)", "wakeUp (timeout)",
                    "wake (wakeUp)", "afterWaiting", "exit", "result timedOut",
                ])
            #expect(
                waited.branchPoints.first?.choiceWords
                    == "at 0.000, branch point 0: CF's clock, in whole microseconds, was still before T's run limit "
                    + "(the run waits up to a microsecond); or else CF's clock had passed T's run limit (the run polls) "
                    + "(the default)")
        }

        @Test(
            "run(mode:before:) and run(until:) of now take the same race",
            arguments: ["RunLoop.run default before now", "RunLoop.run until now", "RunLoop.run default before 0ms"])
        func foundationRunsOfNowAreRaces(program: String) throws {
            let polled = try Self.outcome(program)
            #expect(polled.branchPoints.map(\.options) == [[.limitPassed(loop: "T"), .limitAhead(loop: "T")]])
            #expect(!Self.steps(polled).contains("beforeWaiting"))
            let waited = try Self.outcome(program, schedule: "0:1")
            #expect(Self.steps(waited).contains("beforeWaiting"))
            #expect(Self.steps(waited).contains("result timedOut"))
        }

        @Test(
            "a limit a millisecond away either way, the distant past, a plain CFRunLoopRunInMode, or darwin: no race",
            arguments: [
                ("RunLoop.acceptInput default before 1ms", nil), ("RunLoop.acceptInput default before -1ms", nil),
                ("RunLoop.acceptInput default before distantPast", nil), ("run default for 0ms", nil),
                ("RunLoop.acceptInput default before now", "darwin"),
            ] as [(String, String?)])
        func noRaceAwayFromNow(program: String, profile: String?) throws {
            let outcome = try Self.outcome(program, profile: profile)
            #expect(outcome.branchPoints.isEmpty, "\(Self.steps(outcome))")
        }
    }
}
