import LoopEngine

// Differences the differential fuzzer (`loopviz fuzz --against cf`) found between LoopEngine and the real
// CFRunLoop, each shrunk by hand to its core; every one failed before its engine fix.
extension DifferentialCase {
    static let foundByFuzzing: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§15",
                scenario: D.scenario(
                    "a wake-up taken in another mode's run keeps its place in this mode's wait set, ahead of a later port",
                    [.port("P"), .source0("S", modes: ["M1"], [D.step(.wakeUp)])],
                    [
                        .signal("S"), D.run(0.1, "M1", rash: true),
                        .performBlock("B", modes: [.default], [.send("P", count: 1), .wakeUp]),
                        D.run(0), D.run(0),
                    ])),
            DifferentialCase(
                section: "§15",
                scenario: D.scenario(
                    "a ready port added to a mode queues behind a port that became ready after its message",
                    [.port("P", modes: ["M1"]), .port("Q")],
                    [.send("P", count: 1), .send("Q", count: 1), .add("P", .default), D.run(0), D.run(0)])),
            DifferentialCase(
                section: "§11",
                scenario: D.scenario(
                    "a block tagged common makes the common-modes pseudo-mode not empty for run(mode:before:)",
                    [.port("P")],
                    [
                        .performBlock("B", modes: [.common], []),
                        .run(.foundation(.common, before: .fromNow(D.ms(50)))), D.run(0),
                        .run(.foundation(.common, before: .fromNow(D.ms(50)))),
                    ]),
                ignoringRunBoundaries: true),
        ]
    }()
}
