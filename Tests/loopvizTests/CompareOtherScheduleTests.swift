import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `compare` on a race: when the real run took another branch than the default schedule, `compare` looks for the
/// schedule whose run agrees instead of reporting a difference, and reports a real difference when none does.
@Suite("compare on a race lesson")
struct CompareOtherScheduleTests {
    static func lesson() throws -> LoopScript {
        let url = Snapshot.packageRoot.appendingPathComponent("examples/54-perform-right-after-start.loop")
        return try ScenarioParser.parse(String(contentsOf: url, encoding: .utf8), file: url.path)
    }

    static func events(_ scenario: Scenario, _ schedule: Schedule) -> [LoopEvent] {
        var scheduled = scenario
        scheduled.schedule = schedule
        return ScenarioRunner.run(scheduled, horizon: .seconds(10)).events
    }

    @Test("a reference that took schedule 0:1 is matched by that schedule, and the AGREE line names it")
    func otherScheduleAgrees() throws {
        let scenario = try Self.lesson().scenario
        let other = try #require(Schedule(id: "0:1"))
        let reference = Self.events(scenario, other)
        let run = ScenarioRunner.run(scenario, horizon: .seconds(10))
        let agrees = { (events: [LoopEvent]) in
            TraceComparison(engine: events, reference: reference, tolerance: .milliseconds(1)).agrees
        }
        #expect(!agrees(run.events))
        let found = ScheduleExplorer.agreeingSchedule(run, scenario, horizon: .seconds(10), maxEvents: 100_000, agrees)
        #expect(found == other)
        #expect(
            CompareCommand.otherScheduleWords(other)
                == "a race: the real run took schedule 0:1, one of the outcomes `loopviz explore` finds; "
                + "replay it with `loopviz run --schedule 0:1`")
    }

    @Test("a reference no schedule produces is a difference: no schedule is offered")
    func noScheduleAgrees() throws {
        let scenario = try Self.lesson().scenario
        let run = ScenarioRunner.run(scenario, horizon: .seconds(10))
        let found = ScheduleExplorer.agreeingSchedule(run, scenario, horizon: .seconds(10), maxEvents: 100_000) { _ in
            false
        }
        #expect(found == nil)
    }
}
