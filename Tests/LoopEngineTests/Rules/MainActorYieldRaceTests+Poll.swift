import LoopEngine
import Testing

extension Rules.MainActorYieldRaceTests {
    /// Fuzz seed 77 case 2579: a run whose drain ran a task that yielded, then at once a run that only polls. The
    /// poll is the first look at the main queue in that run (no peek comes before a run's first wait), and CF
    /// polled before the rest came back from the global executor.
    static func pollAfterYieldScenario(schedule: String? = nil) throws -> Scenario {
        var scenario = try ScenarioParser.parse(
            """
            thread T main async
              mainactor A1
                await yield
              mainqueue Q5
                stop
              run default for 60ms
              RunLoop.acceptInput default before distantPast
            """, file: "t.loop"
        ).scenario
        if let schedule { scenario.schedule = try #require(Schedule(id: schedule)) }
        return scenario
    }

    @Test("a polling run right after a drain that yielded: its poll is a look at the main queue, a branch point")
    func pollRightAfterAYieldIsARace() throws {
        let steps: (ScenarioRunner.Outcome) -> [String] = { run in
            let all = run.events.filter { $0.loop == "T" }.map(\.step)
            guard let start = all.lastIndex(of: "runStart default") else { return [] }
            return Array(all[start...]).filter { $0 != "note T" }
        }
        let landed = ScenarioRunner.run(try Self.pollAfterYieldScenario())
        #expect(landed.branchPoints.map(\.options) == [[.hop(job: "A1"), .mainQueueLook(loop: "T")]])
        #expect(
            steps(landed) == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "sleep", "wake", "mainQueue A1",
                "note A1", "exit", "result handledSource",
            ])
        let early = ScenarioRunner.run(try Self.pollAfterYieldScenario(schedule: "0:1"))
        #expect(
            steps(early) == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "sleep", "wake", "exit",
                "result timedOut",
            ])
    }
}
