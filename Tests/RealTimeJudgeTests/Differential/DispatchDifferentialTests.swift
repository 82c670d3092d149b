import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// A serial dispatch queue run on LoopEngine and on a real `DispatchQueue` (libdispatch, real threads, real time):
/// ``PoolComparison`` must find them agreeing on the start order and on each block's outcome. The cancels fall
/// 50-100 ms away from any start, so a loaded machine is late without changing which side of a start they land.
@Suite("LoopEngine's dispatch queue agrees with libdispatch's DispatchQueue", .serialized)
struct DispatchDifferentialTests {
    static func submit(_ name: String, _ kind: DispatchSubmission.Kind, _ millis: Int) -> Action {
        .addOperation(
            queue: "G", OperationSpec(name: name, body: .work(.milliseconds(millis), checkEvery: nil), submission: kind)
        )
    }

    @Test("a work item cancelled while queued never runs; one cancelled while running runs to its end")
    func workItemsCancelledBeforeAndWhileRunning() throws {
        let scenario = Scenario(
            name: "dispatch",
            threads: [
                ThreadSpec(
                    name: "P", items: [],
                    program: [
                        Self.submit("a", .block, 150), Self.submit("w", .workItem, 50),
                        Self.submit("r", .workItem, 150),
                        Self.submit("z", .block, 20), .work(.milliseconds(50)), .cancelOperation("w"),
                        .work(.milliseconds(150)), .cancelOperation("r"),
                    ])
            ], outside: [], queues: [QueueSpec(name: "G", limit: 1, dispatch: .serial)])
        let engine = ScenarioRunner.run(scenario)
        let reference = try RealTimeGate.exclusive { try FoundationPoolOracle.run(scenario) }
        let comparison = PoolComparison(engine: engine.events, reference: reference, scenario: scenario)
        let explanation: Comment = "\(comparison.verdict)\n\(comparison.summary())\n\(comparison.eventListing())"
        #expect(comparison.agrees, explanation)
        #expect(comparison.reference.starts["G"] == ["a", "r", "z"], explanation)
        #expect(
            comparison.reference.outcomes
                == ["a": .done, "w": .cancelledBeforeStart, "r": .doneDespiteCancel, "z": .done], explanation)
        let cancels = reference.filter { $0.kind == .opCancel }.map(\.fact)
        #expect(cancels == [.cancel(.workItemQueued), .cancel(.workItemRunning)], explanation)
    }
}
