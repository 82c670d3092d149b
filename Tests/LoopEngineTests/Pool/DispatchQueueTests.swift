import LoopEngine
import Testing

/// A dispatch queue in the pool model, on the virtual clock, as exact pool traces: what cancelling a work item
/// does before and after its block starts (libdispatch's rules, checked against the real one by
/// `DispatchDifferentialTests`).
@Suite("a dispatch queue: blocks, and work items cancelled before and while they run (virtual clock)")
struct DispatchQueueTests {
    static func submit(_ name: String, _ kind: DispatchSubmission.Kind, _ millis: Int) -> Action {
        .addOperation(
            queue: "G", OperationSpec(name: name, body: .work(.milliseconds(millis), checkEvery: nil), submission: kind)
        )
    }

    static func scenario(_ kind: DispatchQueueKind, _ program: [Action]) -> Scenario {
        Scenario(
            name: "dispatch", threads: [ThreadSpec(name: "T", items: [], program: program)], outside: [],
            queues: [QueueSpec(name: "G", limit: kind == .serial ? 1 : nil, idleTimeout: .seconds(1), dispatch: kind)])
    }

    static func poolLines(_ scenario: Scenario) -> [String] {
        ScenarioRunner.run(scenario).events.filter(\.kind.isPool).map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.loop) \(event.step)"
                + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test("serial: a work item cancelled while queued is skipped at its turn; one cancelled while running ends")
    func serialQueue() {
        let lines = Self.poolLines(
            Self.scenario(
                .serial,
                [
                    Self.submit("a", .block, 100), Self.submit("w", .workItem, 50), Self.submit("r", .workItem, 100),
                    .cancelOperation("w"), .work(.milliseconds(150)), .cancelOperation("r"), .cancelOperation("w"),
                ]))
        #expect(
            lines == [
                "0 G opAdd a (a block (async returns nothing to cancel it with), work 0.100s)",
                "0 G opReady a",
                "0 G.1 threadCreate G.1 (worker of G)",
                "0 G opAdd w (a DispatchWorkItem, work 0.050s)",
                "0 G opReady w",
                "0 G opAdd r (a DispatchWorkItem, work 0.100s)",
                "0 G opReady r",
                "0 G opCancel w (a work item not reached yet: the queue will skip its block)",
                "0 G.1 opStart a (new thread)",
                "100 G.1 opFinish a (done: its block returned)",
                "100 G.1 opFinish w (skipped: cancelled before the queue reached it, its block never ran)",
                "100 G.1 opStart r (reused thread (1 before))",
                "150 G opCancel r (a work item already running: its block goes on to the end)",
                "150 G opCancel w (already finished: no effect)",
                "200 G.1 opFinish r (done: its block ran to the end although it was cancelled)",
                "1200 G.1 threadExit G.1 (idle for 1.000s: retired after 2 blocks)",
            ])
    }

    @Test("concurrent: blocks start at once up to the width; an item past it can still be cancelled")
    func concurrentQueue() {
        let program =
            (1...4).map { Self.submit("b\($0)", .block, 100) } + [
                Self.submit("w", .workItem, 10), .cancelOperation("w"),
            ]
        let lines = Self.poolLines(Self.scenario(.concurrent, program)).filter {
            $0.contains("opStart") || $0.contains("opFinish") || $0.contains("opCancel")
        }
        #expect(
            lines == [
                "0 G opCancel w (a work item not reached yet: the queue will skip its block)",
                "0 G.1 opStart b1 (new thread)",
                "0 G.2 opStart b2 (new thread)",
                "0 G.3 opStart b3 (new thread)",
                "0 G.4 opStart b4 (new thread)",
                "100 G.1 opFinish b1 (done: its block returned)",
                "100 G.2 opFinish b2 (done: its block returned)",
                "100 G.3 opFinish b3 (done: its block returned)",
                "100 G.4 opFinish b4 (done: its block returned)",
                // b1's worker takes w the moment b1 finishes; its loop gets to the perform after the others end.
                "100 G.1 opFinish w (skipped: cancelled before the queue reached it, its block never ran)",
            ])
    }
}
