import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The scale workloads of `loopviz bench`: what they do, never how long they take (that is the bench's business).
/// Their traces at small sizes are golden files recorded before the engine's item structures changed (sorted
/// arrays, linear scans) to heaps and indexes: the order in which timers fire, ports are taken and outside events
/// run must be the same.
@Suite("loopviz bench's scale workloads")
struct ScaleWorkloadTests {
    static let cases: [(ScaleBench.Workload, Int)] = ScaleBench.Workload.allCases.flatMap { [($0, 5), ($0, 64)] }

    @Test("each workload at 5 and 64 items gives its golden trace", arguments: cases)
    func goldenTrace(_ workload: ScaleBench.Workload, _ items: Int) {
        let outcome = ScenarioRunner.run(ScaleBench.scenario(workload, items: items), horizon: ScaleBench.horizon)
        #expect(outcome.haltReason == nil)
        Snapshot.assertMatches(
            TextTraceFormatter.format(outcome.events), "Scale/\(workload.rawValue)-\(items).trace",
            target: "loopvizTests")
    }

    @Test("each workload does what it says: every port handled once, every timer fired its number of times")
    func counts() {
        let items = 64
        let ports = ScenarioRunner.run(ScaleBench.scenario(.ports, items: items), horizon: ScaleBench.horizon).events
        #expect(ports.filter { $0.kind == .source1 }.count == items)
        #expect(Set(ports.filter { $0.kind == .source1 }.compactMap(\.name)).count == items)
        #expect(ports.last?.name == "timedOut")
        let timers = ScenarioRunner.run(ScaleBench.scenario(.timers, items: items), horizon: ScaleBench.horizon).events
        #expect(timers.filter { $0.kind == .timer }.count == items)
        #expect(timers.last?.name == "finished")
        let repeating = ScenarioRunner.run(ScaleBench.scenario(.repeating, items: items), horizon: ScaleBench.horizon)
            .events
        #expect(repeating.filter { $0.kind == .timer }.count == items * 10)
        #expect(repeating.last?.name == "timedOut")
    }

    @Test("the generated file: one line per item, in a scrambled order")
    func script() {
        let text = ScaleBench.script(.timers, items: 8)
        let timers = text.split(separator: "\n").filter { $0.hasPrefix("  timer ") }
        #expect(timers.count == 8)
        #expect((0..<8).map { ScaleBench.scrambled($0, 8) }.sorted() == Array(0..<8))
        #expect((0..<8).map { ScaleBench.scrambled($0, 8) } != Array(0..<8))
    }
}
