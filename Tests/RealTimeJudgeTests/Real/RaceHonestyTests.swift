#if os(Linux)
import LoopEngine
import SnapshotSupport
import Testing

/// The honesty check of `loopviz explore` (docs/races.md): a race lesson run many times on real threads (the
/// engine's real backend, `--clock real`) shows only outcomes that exploring its schedules found. The converse is
/// not asked: a real machine may never take a schedule the model can. The real CFRunLoop is judged on lessons 56
/// and 57 only: on lesson 54 it showed an outcome the model cannot explore (docs/races.md, "The honesty check").
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

    /// The race lessons judged on real threads and against the real CFRunLoop.
    static let judgedOnBoth = ["56-stop-during-a-callout.loop", "57-timer-and-wakeup-in-one-instant.loop"]

    @Test(
        "a stop during a callout (56), a timer and a wake-up in one instant (57): real threads and the real CFRunLoop stay within the explored outcomes",
        arguments: judgedOnBoth)
    func realRunsAreExplored(_ name: String) throws {
        try RealTimeGate.exclusive {
            let script = try ExampleFiles.load(name)
            let scenario = script.scenario
            let declared = scenario.threads.map(\.name)
            let explored = ScheduleExplorer.explore(
                scenario,
                bounds: .init(
                    maxSchedules: 1_000, timeLimit: .seconds(30), horizon: script.until ?? .seconds(2),
                    maxEvents: 10_000))
            #expect(explored.isComplete)
            #expect(explored.outcomes.count == 2)
            let known = Set(explored.outcomes.map(\.observable))
            for _ in 0..<Self.runs {
                let real = RealScenarioRunner.run(scenario, timeLimit: .seconds(3))
                let seen = ObservableOutcome(real.events, declared: declared)
                #expect(known.contains(seen), "real threads: \(seen.threads.map { ($0.name, $0.events.map(\.step)) })")
            }
            // The real CFRunLoop through `compare`, whose process runs a `main` thread on the real main thread:
            // AGREE when the real run took the default schedule's steps or, for a race, another explored one's.
            let path = LoopvizProcess.packageRoot.appendingPathComponent("examples").appendingPathComponent(name).path
            let result = try LoopvizProcess.run(
                ["compare", "--quiet", "--tolerance", "60ms"] + Array(repeating: path, count: Self.runs))
            let verdicts = result.stdout.components(separatedBy: "\n").filter {
                ["AGREE ", "DIFFER ", "SKIP ", "ERROR "].contains(where: $0.hasPrefix)
            }
            #expect(verdicts.count == Self.runs, "\(result.stdout)\n\(result.stderr)")
            #expect(verdicts.allSatisfy { $0.hasPrefix("AGREE \(path) (") }, "\(result.stdout)\n\(result.stderr)")
        }
    }
}
#endif
