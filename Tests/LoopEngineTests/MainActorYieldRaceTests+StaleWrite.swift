import LoopEngine
import Testing

extension Rules.MainActorYieldRaceTests {
    /// Fuzz seed 80 case 150, reduced: an afterWaiting observer starts a main-actor task after the wait read the
    /// main queue's port, so the drain right after runs the task's first job before its port write is read. The
    /// task yields; the next wait takes that stale write at once, and CF's drain then found the queue empty (the
    /// rest of the task came back about 150 µs later and woke the loop again).
    static func staleWriteScenario(afterWaiting: Bool, schedule: String? = nil) throws -> Scenario {
        let start =
            afterWaiting
            ? """
              observer o1 on afterWaiting
                call 2: mainactor A1
                  await yield
              run default for 20ms
              mainqueue Q2
            """
            : """
              run default for 20ms
              mainqueue Q2
              mainactor A1
                await yield
            """
        var scenario = try ScenarioParser.parse(
            """
            thread T main
              timer tEnd at 40ms
                stop
            \(start)
              CFRunLoopRun
            """, file: "t.loop"
        ).scenario
        if let schedule { scenario.schedule = try #require(Schedule(id: schedule)) }
        return scenario
    }

    /// T's steps of the `CFRunLoopRun`, from its wake for Q2 to its exit, without notes and observer callouts.
    private static func runSteps(_ run: ScenarioRunner.Outcome) -> [String] {
        let all = run.events.filter { $0.loop == "T" }.map(\.step)
        guard let start = all.lastIndex(of: "runStart default") else { return [] }
        return Array(all[start...]).filter { !$0.hasPrefix("note") && !$0.hasPrefix("observer") }
    }

    @Test("a task started after the wait read the port leaves a stale write: the next wake may find its rest not back")
    func staleWriteMakesTheNextWakeARace() throws {
        let head = [
            "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wake",
            "afterWaiting", "mainQueue Q2", "mainQueue A1", "beforeTimers", "beforeSources", "beforeWaiting", "sleep",
            "wake", "afterWaiting",
        ]
        let tail = [
            "beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wake", "afterWaiting", "timer tEnd", "stop",
            "wakeUp", "exit", "result stopped",
        ]
        let landed = ScenarioRunner.run(try Self.staleWriteScenario(afterWaiting: true))
        #expect(landed.branchPoints.first?.options == [.hop(job: "A1"), .mainQueueLook(loop: "T")])
        #expect(Self.runSteps(landed) == head + ["mainQueue A1"] + tail)
        // The wait does not sleep: the fact says the main queue is ready, and why is the stale write.
        let sleeps = landed.events.filter { $0.loop == "T" && $0.kind == .sleep }.map(\.fact)
        #expect(sleeps.count == 4)
        if sleeps.count == 4, case .wait(.sleep(_, _, let ready)) = sleeps[2] { #expect(ready == .mainQueue) }

        // What CF did here, every time: the look came first and drained nothing; the rest woke the loop again.
        let late = ScenarioRunner.run(try Self.staleWriteScenario(afterWaiting: true, schedule: "0:1,1:1"))
        #expect(
            Self.runSteps(late)
                == head + ["beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wake", "afterWaiting"]
                + ["mainQueue A1"] + tail)
    }

    @Test("a task queued before the wait read the port leaves no stale write: its rest's own write is the next wake")
    func writeReadBeforeTheDrainIsNoRace() throws {
        let run = ScenarioRunner.run(try Self.staleWriteScenario(afterWaiting: false))
        #expect(run.branchPoints.isEmpty)
        #expect(
            Self.runSteps(run) == [
                "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "sleep", "wake",
                "afterWaiting", "mainQueue Q2", "mainQueue A1", "beforeTimers", "beforeSources", "beforeWaiting",
                "sleep", "wake", "afterWaiting", "mainQueue A1", "beforeTimers", "beforeSources", "beforeWaiting",
                "sleep", "wake", "afterWaiting", "timer tEnd", "stop", "wakeUp", "exit", "result stopped",
            ])
    }
}
