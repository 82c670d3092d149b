import LoopEngine

/// The run-modes workload (issue 38's last open item): 100 timers every 1 ms, each in `modes` modes that the file
/// runs, on the virtual clock. CF moves a timer in each of its modes and re-arms each mode's timer port at every
/// fire (`__CFRepositionTimerInMode`), and a wait on a mode the file runs can see every one of those armings, so
/// the engine does them all (docs/limits.md, "Still open"): a fire costs about `modes` times what it costs in one
/// mode. The figure is microseconds of the process's CPU time per timer fire (the scenario's thread is an OS thread
/// of its own, so the caller's thread time would miss it); the row compares 1,000 run modes (100 in `--quick`)
/// with one.
///
/// The other modes are run only from the callout of a timer that never fires within the run, so they count as
/// run modes (`Scenario.modesRunsCanWaitOn`) while every fire is a fire of the `default` run.
enum RunModesBench {
    static let timers = 100
    static let fullModes = 1_000
    static let quickModes = 100

    /// The scenario file for timers in `modes` run modes (at least one: `default`), for a run of `milliseconds`.
    static func script(modes: Int, milliseconds: Int) -> String {
        let names = ["default"] + (1..<max(modes, 1)).map { "m\($0)" }
        var lines = ["# loopviz bench workload 'run-modes': \(timers) timers in \(names.count) run modes", ""]
        lines.append("scenario \"\(timers) timers in \(names.count) run modes\"")
        lines.append("")
        lines.append("thread T")
        lines.append("  timer t1..\(timers) at 1ns every 1ms in \(names.joined(separator: ", "))")
        lines.append("  timer never at 3600s in default")
        for name in names.dropFirst() { lines.append("    run \(name) for 1ms") }
        lines.append("  run default for \(max(milliseconds, 1))ms")
        return lines.joined(separator: "\n") + "\n"
    }

    #if os(Linux)
    /// Runs the workload once: microseconds of the process's CPU time per timer fire (the parse is not timed).
    static func run(modes: Int, milliseconds: Int) -> Double {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(
                script(modes: modes, milliseconds: milliseconds), file: "run-modes"
            ).scenario
        } catch {
            preconditionFailure("the run-modes workload does not parse: \(error)")
        }
        let start = BenchPlatform.processCPUTime()
        let outcome = ScenarioRunner.run(scenario, horizon: .seconds(3_600))
        let elapsed = BenchPlatform.processCPUTime() - start
        precondition(outcome.haltReason == nil, "the run-modes workload did not run to its end")
        let fires = outcome.events.count { $0.kind == .timer }
        return Double(elapsed) / 1_000 / Double(max(fires, 1))
    }
    #endif
}
