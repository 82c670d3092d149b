import LoopEngine
import Testing

extension Rules.MainActorYieldRaceTests {
    /// Fuzz seed 7 case 119: two tasks yield in one drain (A3, then A2 microseconds later), then the loop wakes
    /// for the main queue and drains.
    static func twoYieldsScenario(a2Work: String, schedule: String? = nil) throws -> Scenario {
        var scenario = try ScenarioParser.parse(
            """
            thread T main
              source0 s1 in M1
              run M1 for 40ms
              mainactor A2
                \(a2Work)
                await yield
              RunLoop.run default before 100ms
              RunLoop.run default before 100ms
              RunLoop.run default before 100ms
            at 20ms on T
              mainactor A3
                await yield
            """, file: "t.loop"
        ).scenario
        if let schedule { scenario.schedule = try #require(Schedule(id: schedule)) }
        return scenario
    }

    /// The main-queue jobs and run results of ``twoYieldsScenario(a2Work:schedule:)``.
    static func twoYields(a2Work: String, schedule: String? = nil) throws -> [String] {
        let run = ScenarioRunner.run(try twoYieldsScenario(a2Work: a2Work, schedule: schedule))
        return run.events.filter { $0.kind == .mainQueue || $0.kind == .result }.map { event in
            event.step + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("two yields in one drain: which rest the global executor brings back first is a branch point")
    func twoHopsInFlightMayLandInEitherOrder() throws {
        let run = ScenarioRunner.run(try Self.twoYieldsScenario(a2Work: "work 0ms"))
        #expect(run.branchPoints.map(\.options).first == [.hop(job: "A3"), .hop(job: "A2")])
        #expect(
            try Self.twoYields(a2Work: "work 0ms") == [
                "result timedOut", "mainQueue A3 (main-actor task starts)", "mainQueue A2 (main-actor task starts)",
                "result handledSource", "mainQueue A3 (resumed after Task.yield())",
                "mainQueue A2 (resumed after Task.yield())", "result handledSource", "result timedOut",
            ])
        #expect(
            try Self.twoYields(a2Work: "work 0ms", schedule: "0:1") == [
                "result timedOut", "mainQueue A3 (main-actor task starts)", "mainQueue A2 (main-actor task starts)",
                "result handledSource", "mainQueue A2 (resumed after Task.yield())",
                "mainQueue A3 (resumed after Task.yield())", "result handledSource", "result timedOut",
            ])
    }

    @Test(
        "a yield microseconds before a drain another job's port started: in that drain, in it with a wake for nothing later, or after it"
    )
    func aHopJustQueuedMayMissTheDrain() throws {
        // A2 works 2 ms first: A3's rest has landed by then; A2's is microseconds old at the next drain.
        let start = [
            "result timedOut", "mainQueue A3 (main-actor task starts)", "mainQueue A2 (main-actor task starts)",
            "result handledSource", "mainQueue A3 (resumed after Task.yield())",
        ]
        let a2 = "mainQueue A2 (resumed after Task.yield())"
        // There when the wait took the port: one drain, and the third run sleeps to its limit.
        #expect(
            try Self.twoYields(a2Work: "work 2ms")
                == start + [a2, "result handledSource", "result timedOut"])
        // Came after the wake, before the drain: in it, and its port write wakes the third run for nothing.
        #expect(
            try Self.twoYields(a2Work: "work 2ms", schedule: "0:1")
                == start + [a2, "result handledSource", "result handledSource"])
        // Came after the drain: a drain of its own.
        #expect(
            try Self.twoYields(a2Work: "work 2ms", schedule: "0:1,1:1")
                == start + ["result handledSource", a2, "result handledSource"])
    }
}

extension Rules.MainActorYieldRaceTests {
    @Test(
        "a job queued straight on the main queue behind a rest still on its way may land first (fuzz seed 9 case 2259)")
    func aDirectJobMayOvertakeAHop() throws {
        let source = """
            thread T main
              observer o1 on afterWaiting, exit in common
                mainactor A1
              mainactor A2
                await yield
              run default for 0ms
              run default for 0ms
            """
        func jobs(_ schedule: String?) throws -> [String] {
            var scenario = try ScenarioParser.parse(source, file: "t.loop").scenario
            if let schedule { scenario.schedule = try #require(Schedule(id: schedule)) }
            let run = ScenarioRunner.run(scenario)
            if schedule == nil {
                #expect(run.branchPoints.first?.options == [.hop(job: "A2"), .queued(job: "A1")])
            }
            return run.events.filter { $0.kind == .mainQueue }.map { $0.step + " " + ($0.detail ?? "") }
        }
        #expect(
            try jobs(nil) == [
                "mainQueue A2 main-actor task starts", "mainQueue A2 resumed after Task.yield()",
                "mainQueue A1 main-actor task starts",
            ])
        #expect(
            try jobs("0:1") == [
                "mainQueue A2 main-actor task starts", "mainQueue A1 main-actor task starts",
                "mainQueue A2 resumed after Task.yield()",
            ])
    }
}
