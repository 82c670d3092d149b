import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The pool view draws a dispatch queue as one (lesson 44): its kind instead of a limit, one waiting line in
/// submission order instead of priority levels, and blocks, not operations. Re-record with `RECORD_SNAPSHOTS=1`.
@Suite("the pool view draws a dispatch queue as a dispatch queue")
struct PoolDispatchRenderTests {
    @Test("at 100 ms: the serial queue's header, one waiting line in submission order, no priority rows")
    func serialQueue() throws {
        let model = try PoolDispatchPokeTests.model()
        let lines = render(model).lines
        #expect(lines.contains { $0.contains("Queue gcd (1/2, Tab)  serial dispatch queue  running") })
        #expect(lines.contains { $0.contains("letter: block") })
        #expect(!lines.contains { $0.contains("limit 1") })
        for priority in QueuePriority.allCases {
            #expect(!lines.contains { $0.hasPrefix(" \(priority.description) ") })
        }
        let rows = try #require(lines.firstIndex { $0.hasPrefix(" waiting ") })
        #expect(lines[rows].contains("item") && lines[rows + 1].contains("late") && lines[rows + 2].contains("last"))
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/pool-dispatch-132x43.screen", target: "loopvizTests")
    }

    @Test("the operation queue beside it keeps its limit and priority levels")
    func operationQueueBeside() throws {
        var model = try PoolDispatchPokeTests.model()
        PoolUpdateTests.press(.tab, on: &model)
        #expect(model.shownQueueState?.name == "ops")
        let lines = render(model).lines
        #expect(lines.contains { $0.contains("Queue ops (2/2, Tab)  limit 1  running") })
        #expect(lines.contains { $0.contains("letter: operation") })
        #expect(lines.contains { $0.hasPrefix(" veryHigh ") })
    }

    @Test("a selection moves through executing, then waiting blocks in submission order")
    func selectionOrder() throws {
        let model = try PoolDispatchPokeTests.model()
        let queue = try #require(model.shownQueueState)
        #expect(queue.dispatch == .serial)
        #expect(queue.listed.map(\.name) == ["first", "item", "late", "last"])
    }
}
