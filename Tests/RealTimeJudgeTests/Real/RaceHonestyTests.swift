#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

/// The honesty check of `loopviz explore` (docs/races.md): a race lesson run many times on real threads (the
/// engine's real backend, `--clock real`) shows only outcomes that exploring its schedules found. The converse is
/// not asked: a real machine may never take a schedule the model can. The real CFRunLoop is not judged here: it
/// showed an outcome the model cannot explore (docs/races.md, "The honesty check").
@Suite("races: every outcome seen for real is one explore found", .timeLimit(.minutes(2)))
struct RaceHonestyTests {
    /// How many times the lesson runs on real threads (each run takes its 1 s limit).
    static let runs = 4

    @Test("a perform right after start (lesson 54): real threads stay within the explored outcomes")
    func performRightAfterStart() throws {
        try RealTimeGate.exclusive {
            let scenario = try ExampleFiles.load("54-perform-right-after-start.loop").scenario
            let declared = scenario.threads.map(\.name)
            let explored = ScheduleExplorer.explore(
                scenario,
                bounds: .init(maxSchedules: 1_000, timeLimit: .seconds(30), horizon: .seconds(2), maxEvents: 10_000))
            #expect(explored.isComplete)
            #expect(explored.outcomes.count == 2)
            let known = Set(explored.outcomes.map(\.observable))
            for _ in 0..<Self.runs {
                let real = RealScenarioRunner.run(scenario, timeLimit: .seconds(3))
                let seen = ObservableOutcome(real.events, declared: declared)
                #expect(known.contains(seen), "real threads: \(seen.threads.map { ($0.name, $0.events.map(\.step)) })")
            }
        }
    }
}
#endif
