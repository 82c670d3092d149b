import LoopEngine
import SnapshotSupport
import Testing

extension Rules {
    /// docs/concurrency.md rule 4: the rest of a main-actor task after `Task.yield()` comes back from the global
    /// executor tens of microseconds later. A look at the main queue within that time (CF's peek after an iteration
    /// that did not drain) is a race: the default has the rest there, the other schedule has the look first. Time
    /// the main thread spends meanwhile, or a wait that blocks, lands it. `CompareMainActorTests` checks the shape
    /// on the real runtime (fuzz seed 5 case 1316).
    @Suite("a yield's rest on its way back from the global executor")
    struct MainActorYieldRaceTests {
        /// A nested rash run drains the task; the outer run's source0 pass handled `s1`, so it peeks right after.
        static func scenario(extraWork: String = "", schedule: Schedule = .default) throws -> Scenario {
            var scenario = try ScenarioParser.parse(YieldRaceFixture.text(extraWork: extraWork), file: "t.loop")
                .scenario
            scenario.schedule = schedule
            return scenario
        }

        /// T's steps from the nested run's drain of A1 to A1's second job.
        static func afterNestedDrain(_ outcome: ScenarioRunner.Outcome) -> [String] {
            let steps = outcome.events.filter { $0.loop == "T" }.map { event in
                event.step + (event.detail.map { " (\($0))" } ?? "")
            }
            guard let start = steps.firstIndex(where: { $0.hasPrefix("mainQueue A1 (main-actor task starts)") }),
                let end = steps.firstIndex(where: { $0.hasPrefix("mainQueue A1 (resumed") })
            else { return [] }
            return Array(steps[start...end])
        }

        @Test("the outer run's look right after the nested drain is a branch point: the rest there, or not yet")
        func outerLookIsARace() throws {
            let run = ScenarioRunner.run(try Self.scenario())
            #expect(
                run.branchPoints.map(\.options) == [[.hop(job: "A1"), .mainQueueLook(loop: "T")]])
            #expect(
                run.branchPoints.first?.choiceWords
                    == "at 0.000003, branch point 0: the rest of A1 (back from the global executor) went first; "
                    + "T's look at the main queue could have gone first instead")
            let note =
                "note A1 (A1 awaits Task.yield(): the rest of A1 goes to the global executor, then to the back of "
                + "the main queue)"
            #expect(
                Self.afterNestedDrain(run) == [
                    "mainQueue A1 (main-actor task starts)", note, "exit", "result handledSource",
                    "mainQueue A1 (resumed after Task.yield())",
                ])
            let late = ScenarioRunner.run(try Self.scenario(schedule: try #require(Schedule(id: "0:1"))))
            #expect(
                Self.afterNestedDrain(late) == [
                    "mainQueue A1 (main-actor task starts)", note, "exit", "result handledSource", "sleep (poll)",
                    "wake (nothing)", "exit", "result handledSource",
                    "runStart default (limit 0.0599955s, returnAfterSourceHandled)", "entry", "beforeTimers",
                    "beforeSources", "beforeWaiting", "sleep (until time limit at 0.060)", "wake (main queue)",
                    "afterWaiting", "mainQueue A1 (resumed after Task.yield())",
                ])
        }

        @Test("time the main thread spends after the yield lands the rest: no branch point, the peek drains it")
        func workLandsTheRest() throws {
            let run = ScenarioRunner.run(try Self.scenario(extraWork: "  mainqueue B\n    work 1ms\n"))
            #expect(run.branchPoints.isEmpty)
            let explored = ScheduleExplorer.explore(
                try Self.scenario(),
                bounds: .init(
                    maxSchedules: 10, timeLimit: .seconds(10), horizon: .seconds(1),
                    maxEvents: 10_000))
            #expect(explored.isComplete)
            #expect(explored.outcomes.count == 2)
        }
    }
}
