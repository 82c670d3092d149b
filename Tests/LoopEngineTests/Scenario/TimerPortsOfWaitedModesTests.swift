import Testing

@testable import LoopEngine

/// A timer fire moves the timer in each of its modes and re-arms each mode's timer port, as CF does; a loop told
/// which modes its runs can wait on does that work only in those modes, and traces exactly what a loop that does it
/// in every mode traces (issue 38: 100 timers in 999 modes cost about 10 ms an event).
@Suite("a loop arms only the timer ports a run can wait on")
struct TimerPortsOfWaitedModesTests {
    @Test("20 timers in 200 modes, only default run: each fire moves its timer once, and the trace is the same")
    func firesCostOneMoveEach() {
        func run(limited: Bool) -> (events: [String], moves: Int, fires: Int) {
            let harness = VirtualHarness()
            // Every move counted in its mode: no mode rests (RestingModesTests count what resting saves).
            harness.loop.restingPolicy = .never
            if limited { harness.loop.limitTimerPorts(toModes: [.default]) }
            let modes = [ModeName.default] + (0..<199).map { ModeName("m\($0)") }
            for index in 0..<20 {
                let timer = LoopTimer(name: "t\(index)", fireDate: .zero + .nanoseconds(1), interval: .milliseconds(1))
                {
                    _ in
                }
                for mode in modes { harness.loop.add(timer, to: mode) }
            }
            _ = harness.run(.default, 0.0035)
            let fires = harness.recorder.events.filter { $0.kind == .timer }.count
            return (harness.eventText, harness.loop.timerMovesInModes, fires)
        }
        let limited = run(limited: true)
        let every = run(limited: false)
        #expect(limited.fires == 80)
        #expect(limited.events == every.events)
        #expect(limited.moves == limited.fires)
        #expect(every.moves == every.fires * 200)
        #expect(limited.moves == 80 && every.moves == 16_000)
    }

    /// Timers in modes that never run, beside modes that do (a nested run of Other from a callout, a later run of
    /// Other); moved by fires, `reschedule`, `add`, `invalidate`; asked about with `nextTimerFireDate`; with a port
    /// whose messages race the timer ports; on both profiles (linux keeps an expired timer port's place in a set
    /// that did not read it, darwin arms the tolerance window).
    static let mixedModes = """
        thread T
          port p in default, Other, Never1
          timer a at 1ms every 1ms tolerance 300us in default, Never1, Never2, Other
            call 3: run Other for 2ms
            call 5: reschedule b in 1ms
            call 6: send p
          timer b at 2ms every 3ms tolerance 1ms in Never1, Other, default
            query nextTimerFireDate Never2
          timer c at 4ms in Never2, default
          timer d at 1ms every 700us in Never1, Never2
          run default for 12ms
          add d to Other
          query nextTimerFireDate Never1
          run Other for 4ms
          invalidate a
          run default for 3ms
        """

    @Test(
        "timers in modes no run waits on: the same whole trace as when every mode's port is armed",
        arguments: [
            "linux", "darwin",
        ])
    func sameTraceWithModesNeverRun(_ profile: String) throws {
        let script = try ScenarioParser.parse("profile \(profile)\n" + Self.mixedModes)
        #expect(script.scenario.modesRunsCanWaitOn == [.default, ModeName("Other")])
        let limited = ScenarioRunner.runHosted(script.scenario, horizon: .seconds(1)).outcome
        let every = ScenarioRunner.runHosted(script.scenario, horizon: .seconds(1), armingEveryTimerPort: true).outcome
        #expect(limited.events.count > 100)
        #expect(TextTraceFormatter.format(limited.events) == TextTraceFormatter.format(every.events))
    }

    @Test("the modes a scenario's runs can wait on come from every place a run or a limitDate can be written")
    func modesFromEveryPlace() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              source0 s in nothing
                on schedule: run Sched for 1ms
                on cancel: query limitDate Cancel
              timer t at 1ms in default, Item
                run Callout for 1ms
                block B in default
                  run Block for 1ms
              add s to default
              if not done
                run If for 1ms
              run default for 5ms
            """)
        #expect(
            script.scenario.modesRunsCanWaitOn
                == Set(["default", "Sched", "Cancel", "Callout", "Block", "If"].map { ModeName($0) }))
    }
}
