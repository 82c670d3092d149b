import LoopEngine
import Testing

/// Dispatch queues in the `.loop` language, parsed into the exact ``Scenario`` values (the problems it reports are
/// rows of ``ScenarioErrorCase/dispatch``).
@Suite("the .loop parser reads dispatch queues, async blocks and work items")
struct ScenarioParserDispatchTests {
    @Test("a dispatch queue is serial unless it says concurrent: limit 1, or the default width")
    func dispatchQueueDeclarations() throws {
        let script = try ScenarioParser.parse(
            """
            queue s dispatch
            queue t dispatch serial idle 1s
            queue c dispatch concurrent
            thread T
              wakeup
            """, file: "d.loop")
        #expect(
            script.scenario.queues == [
                QueueSpec(name: "s", limit: 1, dispatch: .serial),
                QueueSpec(name: "t", limit: 1, idleTimeout: .seconds(1), dispatch: .serial),
                QueueSpec(name: "c", limit: nil, dispatch: .concurrent),
            ])
    }

    @Test("`async` submits a plain block, `async workItem` a DispatchWorkItem that `cancel` may name")
    func asyncActions() throws {
        let script = try ScenarioParser.parse(
            """
            queue g dispatch
            thread T
              async first on g work 20ms
              async workItem w1..2 on g work 5ms
              cancel w2
            """, file: "d.loop")
        let work: (Int) -> OperationSpec.Body = { .work(.milliseconds($0), checkEvery: nil) }
        #expect(
            script.scenario.threads[0].program == [
                .addOperation(queue: "g", OperationSpec(name: "first", body: work(20), submission: .block)),
                .addOperation(queue: "g", OperationSpec(name: "w1", body: work(5), submission: .workItem)),
                .addOperation(queue: "g", OperationSpec(name: "w2", body: work(5), submission: .workItem)),
                .cancelOperation("w2"),
            ])
    }
}
