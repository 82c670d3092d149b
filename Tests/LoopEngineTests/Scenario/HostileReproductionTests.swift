import LoopEngine
import Testing

/// The reproductions of issue 38 (docs/audits/hostile-inputs.md D2, D3), as the engine and the parser now take
/// them: each cost is independent of what waits elsewhere, and each count is bounded with a clear error.
@Suite("the hostile reproductions of issue 38")
struct HostileReproductionTests {
    @Test("ordered performs piling up for a mode that never runs: default's run on, Other's requests wait, unread")
    func orderedPerformsPendingInAnotherMode() throws {
        let text = """
            scenario "ordered performs for a mode that never runs pile up"
            thread T
              port k
              timer t at 0ms every 1ns
                perform a order 1
                perform b order 1 in Other
              run default for 1s
            """
        let script = try ScenarioParser.parse(text, file: "quadratic.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(60), maxEvents: 20_000)
        #expect(outcome.reachedEventLimit)
        let events = Array(outcome.trace)
        let fires = events.filter { $0.kind == .timer && $0.name == "t" }.count
        let performed = events.filter { $0.kind == .perform }.map { $0.name ?? "" }
        #expect(fires > 1_000)
        #expect(Set(performed) == ["a"], "b waits for Other, which never runs")
        // Each fire queues one `a`; the orderedPerform timer runs it at the next iteration (the last may be cut).
        #expect(performed.count == fires || performed.count == fires - 1)
    }

    @Test("a timer in 5,001 modes: the 1,001st mode name is an error at its line and column")
    func fiveThousandModes() {
        let modes = ["default"] + (0..<5_000).map { "m\($0)" }
        let text = """
            scenario "many modes"
            thread T
              timer t1..100 at 1ns every 1ms in \(modes.joined(separator: ", "))
              run default for 1s
            """
        let column =
            1 + "  timer t1..100 at 1ns every 1ms in ".count + modes.prefix(1_000).map { "\($0), ".count }.reduce(0, +)
        do {
            _ = try ScenarioParser.parse(text, file: "modes.loop")
            Issue.record("5,001 modes were accepted")
        } catch {
            #expect(
                error.diagnostics.map { "\($0.line):\($0.column): \($0.message)" } == [
                    "3:\(column): this file names more than 1000 modes, the mode limit; expected at most 1000 mode names"
                ])
        }
    }
}
