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
            // Case 2194 of seed 1: default's timer port expires at 20 ms while M1 runs; T2's reschedule re-arms it
            // for T1 (40 ms) and sends P. At 60 ms default's wait takes the timer port first: it kept the place its
            // 20 ms expiry took, ahead of P.
            DifferentialCase(
                section: "§15",
                scenario: D.scenario(
                    "a timer port re-armed after an expiry its mode never read keeps that place, ahead of a later port",
                    commonModes: ["M1"],
                    [
                        .port("P"), .timer("T1", first: D.ms(40)),
                        .timer(
                            "T2", first: D.ms(20), every: D.ms(60), modes: [.common], [D.step(.send("P", count: 1))]),
                    ],
                    [D.run(0.06, "M1"), D.run(0.06)])),
            // The other half: re-armed for 90 ms, the timer port is not ready at 60 ms, so the wait passes its
            // stale entry by and takes P; the timer port comes at 90 ms. T2 repeats every 200 ms, so its next fire
            // (220 ms) is far from the run's end (110 ms): a real CF late under load cannot fire it in the run.
            DifferentialCase(
                section: "§15",
                scenario: D.scenario(
                    "a re-armed timer port not yet due again is passed by: the later port comes first",
                    commonModes: ["M1"],
                    [
                        .port("P"), .timer("T1", first: D.ms(90)),
                        .timer(
                            "T2", first: D.ms(20), every: D.ms(200), modes: [.common], [D.step(.send("P", count: 1))]),
                    ],
                    [D.run(0.06, "M1"), D.run(0.05)])),
            // Case 2431 of seed 1: default's timer port, armed for T1 (0 ms), expires before P is sent; T1 ends in
            // M1's run, which re-arms the port for T2 (20 ms). Each poll takes one port: the timer port, then P.
            DifferentialCase(
                section: "§15",
                scenario: D.scenario(
                    "a timer port re-armed by a timer's end in another mode keeps the place of its first expiry",
                    [
                        .port("P"), .port("K", modes: ["M1"]), .timer("T1", first: .zero, modes: [.default, "M1"]),
                        .timer("T2", first: D.ms(20)),
                    ],
                    [.send("P", count: 1), D.run(0.06, "M1"), D.run(0), D.run(0)])),
            // Cases 432, 529 and 726 of seed 1 (with `CFRunLoopRun`/`RunLoop.run` generated): a source added to
            // the common modes with M1 common is scheduled into M1 first (the common-mode set's order), but
            // `CFRunLoopSourceInvalidate` walks the loop's set of all modes from its end: default's cancel first.
            DifferentialCase(
                section: "§11.1",
                scenario: D.scenario(
                    "an invalidated source leaves its modes in the reverse of CF's set of the loop's modes",
                    commonModes: ["M1"],
                    [.source0("S", modes: [.common])],
                    [.invalidate("S"), D.run(0)])),
        ]
    }()
}
