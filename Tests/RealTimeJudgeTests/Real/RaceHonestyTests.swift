#if os(Linux)
import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// The honesty check of `loopviz explore` (docs/races.md): a race lesson run many times on real threads and on the
/// real CFRunLoop shows only outcomes that exploring its schedules found. The converse is not asked: a real
/// machine may never take a schedule the model can.
@Suite("races: every outcome seen for real is one explore found", .timeLimit(.minutes(2)))
struct RaceHonestyTests {
    /// How many times each side runs the lesson (each run takes its 1 s limit).
    static let runs = 4

    @Test(
        "a perform right after start (lesson 47): real threads and the real CFRunLoop stay within the explored outcomes"
    )
    func performRightAfterStart() throws {
        try RealTimeGate.exclusive {
            var scenario = try ExampleFiles.load("47-perform-right-after-start.loop").scenario
            // The real CFRunLoop runs a scenario's main thread only on the process's main thread, which a test does
            // not have: main here sends and ends, so it runs as any thread.
            for index in scenario.threads.indices { scenario.threads[index].isMain = false }
            let declared = scenario.threads.map(\.name)
            let explored = ScheduleExplorer.explore(
                scenario,
                bounds: .init(maxSchedules: 1_000, timeLimit: .seconds(30), horizon: .seconds(2), maxEvents: 10_000))
            #expect(explored.isComplete)
            #expect(explored.outcomes.count == 2)
            let known = Set(explored.outcomes.map(\.observable))
            // The real CFRunLoop's trace shows no run starts or results: its outcomes are compared without them.
            let knownWithoutRuns = Set(
                explored.outcomes.map {
                    ObservableOutcome($0.trace, declared: declared, ignoringRunBoundaries: true)
                })
            for _ in 0..<Self.runs {
                let real = RealScenarioRunner.run(scenario, timeLimit: .seconds(3))
                let seen = ObservableOutcome(real.events, declared: declared)
                #expect(known.contains(seen), "real threads: \(seen.threads.map { ($0.name, $0.events.map(\.step)) })")
                let reference = try CFOracle.run(scenario, timeLimit: .seconds(5))
                let cf = ObservableOutcome(reference, declared: declared, ignoringRunBoundaries: true)
                #expect(
                    knownWithoutRuns.contains(cf), "CFRunLoop: \(cf.threads.map { ($0.name, $0.events.map(\.step)) })")
            }
        }
    }
}
#endif
