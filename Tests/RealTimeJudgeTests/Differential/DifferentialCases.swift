import LoopEngine

// The scenarios that run on both LoopEngine and the real CFRunLoop. Times are spaced at least 15 ms apart so
// that scheduling noise on a loaded machine cannot reorder them (docs/cfrunloop.md §16).
extension DifferentialCase {
    static let all: [DifferentialCase] =
        canonical + results + emptiness + observers + blocks + sources0
        + sources1 + timers + stopAndWake + commonModes + nested + timeouts + foundation + specialDates + ranges
        + queries
        + owners
        + foundationTimers
        + foundByFuzzing

    static let canonical: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§2.2",
                scenario: D.scenario(
                    "an idle keep-alive mode times out", [D.keepAlive()], [D.run(0.2)])),
            DifferentialCase(
                section: "§2.2",
                scenario: D.scenario(
                    "a lone one-shot timer fires after the wait, then the mode finishes",
                    [.timer("T1", first: D.ms(50))], [D.run(1)])),
            DifferentialCase(
                section: "§2.2",
                scenario: D.scenario(
                    "a source0 signalled before the run is performed in a polling iteration",
                    [.source0("A")], [.signal("A"), D.run(0.2)])),
            DifferentialCase(
                section: "§2.3",
                scenario: D.scenario(
                    "a timer that falls due during a source0 fires in the same polling iteration",
                    [.source0("A", [D.step(.work(D.ms(60)))]), .timer("T", first: D.ms(30))],
                    [.signal("A"), D.run(0.2)])),
            DifferentialCase(
                section: "§2.3",
                scenario: D.scenario(
                    "a rash run performs a source0 and a port in one iteration",
                    [.source0("A"), .port("P")], [.signal("A"), .send("P", count: 1), D.run(0.2, rash: true)])),
        ]
    }()

    static let results: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "handledSource beats timedOut", [.source0("A", [D.step(.work(D.ms(150)))])],
                    [.signal("A"), D.run(0.1, rash: true)])),
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "handledSource beats stopped and the stop is lost",
                    [.source0("A", [D.step(.stop)])],
                    [.signal("A"), D.run(0.2, rash: true), D.run(0.1)])),
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "timedOut beats stopped and the stop is lost",
                    [D.keepAlive(), .timer("T", first: D.ms(50), [D.step(.work(D.ms(100))), D.step(.stop)])],
                    [D.run(0.1), D.run(0.1)])),
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "a zero-second run that fires the last one-shot timer times out",
                    [.timer("T", first: D.ms(10))], [.work(D.ms(30)), D.run(0)])),
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "stopped beats finished", [.timer("T", first: D.ms(50), [D.step(.stop)])], [D.run(1)])),
            DifferentialCase(
                section: "§3",
                scenario: D.scenario(
                    "timers never count as handled", [.timer("T", first: D.ms(50), every: D.ms(50))],
                    // 25 ms between the limit and the fires either side of it: a late start still ends there.
                    [D.run(0.175, rash: true)])),
        ]
    }()

    static let emptiness: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§4",
                scenario: D.scenario(
                    "an unknown mode finishes without calling observers", [.observer("O")], [D.run(0.1, "Nope")])),
            DifferentialCase(
                section: "§4",
                scenario: D.scenario(
                    "a mode with only observers finishes without calling them",
                    [.observer("O", modes: ["ModeX"]), D.keepAlive()], [D.run(0.1, "ModeX")])),
            DifferentialCase(
                section: "§4",
                scenario: D.scenario(
                    "removing the last source is noticed after a wake-up", [D.keepAlive()], [D.run(0.3)],
                    outside: [D.at(40, .remove("K", .default), .wakeUp)])),
            DifferentialCase(
                section: "§4",
                scenario: D.scenario(
                    "a block-only mode sleeps until its time limit", [],
                    [.performBlock("B1", modes: [.default], []), D.run(0.1)])),
            DifferentialCase(
                section: "§4 §7.5",
                scenario: D.scenario(
                    "a source invalidated by an earlier perform neither runs nor counts as handled",
                    [.source0("B", [D.step(.invalidate("A"))]), .source0("A", order: 1)],
                    [.signal("A"), .signal("B"), D.run(0.1)])),
        ]
    }()

    static let observers: [DifferentialCase] = {
        typealias D = DSL
        let entryExit: Activity = [.entry, .exit]
        return [
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "observers are called in ascending order, ties in insertion order",
                    [
                        .observer("O10", entryExit, order: 10), .observer("Om5", entryExit, order: -5),
                        .observer("O0a", entryExit, order: 0), .observer("O0b", entryExit, order: 0), D.keepAlive(),
                    ],
                    [D.run(0.05)])),
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "an observer added during a pass joins at the next activity",
                    [
                        .observer("A", .beforeWaiting, [D.step(.add("B", .default))]),
                        .observer("B", [.beforeWaiting, .afterWaiting, .exit], modes: []), D.keepAlive(),
                    ],
                    [D.run(0.1)])),
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "an observer invalidated earlier in the pass is skipped, a removed one is still called",
                    [
                        .observer(
                            "O1", .entry, order: 1, [D.step(.invalidate("O2")), D.step(.remove("O3", .default))]),
                        .observer("O2", .entry, order: 2), .observer("O3", .entry, order: 3), D.keepAlive(),
                    ],
                    [D.run(0.05)])),
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "an observer's step limited to one activity runs only at that activity",
                    [.observer("O", .allActivities, [D.step(.stop, .activity(.beforeWaiting))]), D.keepAlive()],
                    [D.run(0.2)])),
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "a one-shot observer is called once",
                    [
                        .observer("O", [.beforeTimers, .beforeWaiting], repeats: false),
                        .source0("A"),
                    ], [.signal("A"), D.run(0.1)])),
            DifferentialCase(
                section: "§5",
                scenario: D.scenario(
                    "observers of other modes are never called", [.observer("O", modes: ["ModeX"]), D.keepAlive()],
                    [D.run(0.05)])),
        ]
    }()

    static let blocks: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§6",
                scenario: D.scenario(
                    "blocks run in FIFO order, filtered by mode",
                    [D.keepAlive()],
                    [
                        .performBlock("B1", modes: [.default], []), .performBlock("B2", modes: ["ModeX"], []),
                        .performBlock("B3", modes: [.common], []), .performBlock("B4", modes: ["ModeX", .default], []),
                        D.run(0.05), D.run(0.05, "ModeX"),
                    ])),
            DifferentialCase(
                section: "§6",
                scenario: D.scenario(
                    "a block queued during a pass runs in the next pass",
                    [D.keepAlive()],
                    [.performBlock("B1", modes: [.default], [.performBlock("B2", modes: [.default], [])]), D.run(0.1)])),
            DifferentialCase(
                section: "§6",
                scenario: D.scenario(
                    "blocks run before the source0s of the same iteration",
                    [.source0("A")], [.signal("A"), .performBlock("B", modes: [.default], []), D.run(0.05)])),
            DifferentialCase(
                section: "§6",
                scenario: D.scenario(
                    "a block queued from another thread runs after the wake-up",
                    [D.keepAlive()], [D.run(0.2)],
                    outside: [D.at(40, .performBlock("B", modes: [.default], []), .wakeUp)])),
            DifferentialCase(
                section: "§6 §12",
                scenario: D.scenario(
                    "a nested run cannot see the rest of the outer blocks pass",
                    [D.keepAlive()],
                    [
                        .performBlock("B1", modes: [.default], [D.run(0.05)]),
                        .performBlock("B2", modes: [.default], []),
                        D.run(0.2),
                    ])),
        ]
    }()

    static let sources0: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§7.1",
                scenario: D.scenario(
                    "a signal from another thread without a wake-up is not serviced", [.source0("A")], [D.run(0.1)],
                    outside: [D.at(40, .signal("A"))])),
            DifferentialCase(
                section: "§7.1",
                scenario: D.scenario(
                    "a signal with a wake-up is serviced after the wait", [.source0("A")], [D.run(0.2)],
                    outside: [D.at(40, .signal("A"), .wakeUp)])),
            DifferentialCase(
                section: "§7.2",
                scenario: D.scenario(
                    "a source that re-signals itself runs once per iteration",
                    [.source0("A", [D.step(.signal("A"), .callsThrough(2))])], [.signal("A"), D.run(0.1)])),
            DifferentialCase(
                section: "§7.3",
                scenario: D.scenario(
                    "signalled sources run by order, then by first signal",
                    [
                        .source0("A", order: 5), .source0("B", order: 1), .source0("C", order: 1),
                        .source0("D", order: 1),
                    ],
                    [
                        .signal("A"), .work(D.ms(2)), .signal("B"), .work(D.ms(2)), .signal("C"), .work(D.ms(2)),
                        .signal("D"), D.run(0.05),
                    ])),
            DifferentialCase(
                section: "§7.4",
                scenario: D.scenario(
                    "returnAfterSourceHandled performs one source0 per run",
                    [.source0("A", order: 5), .source0("B", order: 1), .source0("C", order: 1)],
                    [
                        .signal("A"), .work(D.ms(2)), .signal("B"), .work(D.ms(2)), .signal("C"),
                        D.run(0.05, rash: true), D.run(0.05, rash: true), D.run(0.05, rash: true),
                    ])),
            DifferentialCase(
                section: "§7.9",
                scenario: D.scenario(
                    "a nested run performs a source again while its perform is on the stack",
                    [.source0("A", [D.step(.signal("A"), .call(1)), D.step(D.run(0.05), .call(1))])],
                    [.signal("A"), D.run(0.1)])),
        ]
    }()

    static let sources1: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§8",
                scenario: D.scenario(
                    "a port message wakes a sleeping loop by itself", [.port("P")], [D.run(0.2)],
                    outside: [D.at(40, .send("P", count: 1))])),
            DifferentialCase(
                section: "§8",
                scenario: D.scenario(
                    "three messages before the wake are one perform", [.port("P")], [D.run(0.2, rash: true)],
                    outside: [D.at(40, .send("P", count: 3))])),
            DifferentialCase(
                section: "§8",
                scenario: D.scenario(
                    "a port added from another thread while the loop sleeps wakes it",
                    [D.keepAlive(), .port("P", modes: [])], [.send("P", count: 1), D.run(0.2)],
                    outside: [D.at(40, .add("P", .default))])),
            DifferentialCase(
                section: "§8",
                scenario: D.scenario(
                    "one port per iteration, in readiness order",
                    [.source0("A", [D.step(.work(D.ms(50)))]), .port("S"), .timer("T", first: D.ms(25))],
                    [.signal("A"), D.run(0.2)], outside: [D.at(10, .send("S", count: 1))])),
        ]
    }()

    static let timers: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§9.3",
                scenario: D.scenario(
                    "a repeating timer whose callout overruns skips the missed ticks",
                    [.timer("T", first: D.ms(100), every: D.ms(100), [D.step(.work(D.ms(350)), .call(1))])],
                    [D.run(0.75)])),
            DifferentialCase(
                section: "§9.3",
                scenario: D.scenario(
                    "a timer late because the loop was busy fires once, then resumes its grid",
                    [.source0("A", [D.step(.work(D.ms(350)))]), .timer("T", first: D.ms(100), every: D.ms(100))],
                    [.signal("A"), D.run(0.65)])),
            DifferentialCase(
                section: "§9.3",
                scenario: D.scenario(
                    "a batch fires by deadline, then costs one empty cycle",
                    [.timer("Ta", first: D.ms(20)), .timer("Tb", first: D.ms(10)), D.keepAlive()],
                    [.work(D.ms(30)), D.run(0.1)])),
            DifferentialCase(
                section: "§9.4",
                scenario: D.scenario(
                    "a timer fires only while one of its modes runs",
                    [
                        .timer("T", first: D.ms(20), every: D.ms(50), modes: ["ModeX"]),
                        D.keepAlive(modes: [.default, "ModeX"]),
                    ],
                    // ModeX's run: the missed fire at once (100 ms), then 120, 170, 220; its end (250) is 20 ms
                    // from the next (270), so a late start does not move a fire across it.
                    [D.run(0.1), D.run(0.15, "ModeX")])),
            DifferentialCase(
                section: "§9.4",
                scenario: D.scenario(
                    "a timer in two modes keeps one schedule",
                    [
                        .timer("T", first: D.ms(20), every: D.ms(50), modes: [.default, "ModeX"]),
                        D.keepAlive(modes: [.default, "ModeX"]),
                    ],
                    // No fire within 20 ms of a run's end, so late starts do not move a fire across it.
                    [D.run(0.1), D.run(0.1, "ModeX")])),
            DifferentialCase(
                section: "§9.3",
                scenario: D.scenario(
                    "setNextFireDate inside the callout replaces the grid",
                    [
                        .timer(
                            "T", first: D.ms(50), every: D.ms(100),
                            [D.step(.setNextFireDate("T", after: D.ms(20)), .call(1))])
                    ],
                    [D.run(0.2)])),
            DifferentialCase(
                section: "§9.4",
                scenario: D.scenario(
                    "setNextFireDate from another thread wakes the loop",
                    [.timer("T", first: D.ms(200))], [D.run(0.3)],
                    outside: [D.at(30, .setNextFireDate("T", after: D.ms(30)))])),
            DifferentialCase(
                section: "§9.2 §15",
                scenario: D.scenario(
                    "on Linux an invalidated last timer still wakes the loop at its old deadline",
                    [.timer("T", first: D.ms(100)), D.keepAlive()], [D.run(0.2)],
                    outside: [D.at(30, .invalidate("T"))])),
        ]
    }()

    static let stopAndWake: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§10.1",
                scenario: D.scenario(
                    "a wake-up recorded before the wait makes it return at once",
                    [.observer("O", .entry, [D.step(.wakeUp)]), D.keepAlive()], [D.run(0.1)])),
            DifferentialCase(
                section: "§10.1",
                scenario: D.scenario(
                    // The wake-ups land while the loop's thread is busy in an observer, so a preempted sender
                    // cannot split them across two waits.
                    "several wake-ups coalesce into one empty cycle",
                    [.observer("O", .beforeWaiting, [D.step(.work(D.ms(60)), .call(1))]), D.keepAlive()],
                    [D.run(0.2)],
                    outside: [D.at(20, .wakeUp, .wakeUp, .wakeUp)])),
            DifferentialCase(
                section: "§10.1",
                scenario: D.scenario(
                    "an unconsumed wake-up carries over to the next run",
                    [.observer("O", .entry, [D.step(.wakeUp, .call(1))]), .port("P")],
                    [.send("P", count: 1), D.run(0.2, rash: true), D.run(0.1)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop from another thread ends a sleeping run", [D.keepAlive()], [D.run(0.3)],
                    outside: [D.at(50, .stop)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop from a timer callout", [D.keepAlive(), .timer("T", first: D.ms(50), [D.step(.stop)])],
                    [D.run(0.3)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop from a beforeWaiting observer",
                    [.observer("O", .beforeWaiting, [D.step(.stop, .call(1))]), D.keepAlive()], [D.run(0.2)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop from a source0 without returnAfterSourceHandled",
                    [.source0("A", [D.step(.stop)])], [.signal("A"), D.run(0.2)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop during a timer callout is kept though its wake-up is dropped",
                    [D.keepAlive(), .timer("T", first: D.ms(40), [D.step(.work(D.ms(40)))])], [D.run(0.3)],
                    outside: [D.at(60, .stop)])),
            DifferentialCase(
                section: "§10.2",
                scenario: D.scenario(
                    "a stop before any run is forgotten", [D.keepAlive()], [.stop, D.run(0.1)])),
            DifferentialCase(
                section: "§10.3",
                scenario: D.scenario(
                    "CFRunLoopRun ends when stopped", [D.keepAlive()], [.run(.untilStopped)],
                    outside: [D.at(50, .stop)]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3",
                scenario: D.scenario(
                    "RunLoop.run() re-enters after a stop and ends only when the mode is empty",
                    [D.keepAlive()], [.run(.foundationForever)],
                    outside: [D.at(50, .stop), D.at(120, .remove("K", .default), .wakeUp)]), ignoringRunBoundaries: true
            ),
            DifferentialCase(
                section: "§10.3",
                scenario: D.scenario(
                    "the keep-alive idiom ends when a task sets its flag",
                    [.port("P", [D.step(.setFlag("done"))])], [.run(.whileNot(flag: "done", mode: .default))],
                    outside: [D.at(40, .send("P", count: 1))]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§2.2 S3",
                scenario: D.scenario(
                    "an infinite time limit ends only by a stop", [D.keepAlive()], [D.run(.infinity)],
                    outside: [D.at(50, .stop)])),
        ]
    }()

    static let commonModes: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§11",
                scenario: D.scenario(
                    "a new common mode receives the common items",
                    [.timer("T", first: D.ms(40), every: D.ms(40), modes: [.common])],
                    [.addCommonMode("ModeX"), D.run(0.1, "ModeX")])),
            DifferentialCase(
                section: "§11",
                scenario: D.scenario(
                    "the common-modes pseudo-mode cannot be run", [D.keepAlive()], [D.run(0.1, .common)])),
            DifferentialCase(
                section: "§11",
                scenario: D.scenario(
                    "removing a common item from one mode leaves it in the others",
                    [.timer("T", first: D.ms(30), every: D.ms(40), modes: [.common]), D.keepAlive(modes: ["ModeX"])],
                    [.addCommonMode("ModeX"), .remove("T", .default), D.run(0.05), D.run(0.1, "ModeX")])),
        ]
    }()

    static let nested: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§12",
                scenario: D.scenario(
                    "an observer that starts a nested run is skipped by it",
                    [.observer("O", .beforeWaiting, [D.step(D.run(0.05), .call(1))]), D.keepAlive()], [D.run(0.2)])),
            DifferentialCase(
                section: "§12",
                scenario: D.scenario(
                    "the timer that started a nested run does not fire inside it",
                    [.timer("T", first: D.ms(30), every: D.ms(30), [D.step(D.run(0.06), .call(1))]), D.keepAlive()],
                    [D.run(0.17)])),
            DifferentialCase(
                section: "§12",
                scenario: D.scenario(
                    "a nested run in another mode calls only that mode's observers",
                    [
                        .timer("T", first: D.ms(30), [D.step(D.run(0.05, "ModeX"))]),
                        .observer("OX", [.entry, .exit], modes: ["ModeX"]), .observer("OD", [.entry, .exit]),
                        D.keepAlive(modes: [.default, "ModeX"]),
                    ],
                    [D.run(0.15)])),
            DifferentialCase(
                section: "§10.2 §12",
                scenario: D.scenario(
                    "a stop inside a nested run stops only that run",
                    [.timer("T", first: D.ms(30), [D.step(D.run(0.2))]), D.keepAlive()], [D.run(0.15)],
                    outside: [D.at(60, .stop)])),
            DifferentialCase(
                section: "§10.2 §12",
                scenario: D.scenario(
                    "a stop before a nested run stops the outer run when control returns",
                    [.timer("T", first: D.ms(30), [D.step(.stop), D.step(D.run(0.05))]), D.keepAlive()], [D.run(0.3)])),
        ]
    }()

    static let timeouts: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "a zero-second run with nothing pending polls once", [D.keepAlive()], [D.run(0)])),
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "a zero-second run performs every signalled source0",
                    [.source0("A"), .source0("B")], [.signal("A"), .work(D.ms(2)), .signal("B"), D.run(0)])),
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "a negative time limit polls once too", [D.keepAlive()], [D.run(-1)])),
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "polling runs service one port per call",
                    [.timer("T", first: D.ms(10)), .port("P")],
                    [.work(D.ms(30)), .send("P", count: 1), D.run(0), D.run(0), D.run(0)])),
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "a polling rash run runs the block, then the ready port",
                    [.port("P")],
                    [.performBlock("B", modes: [.default], []), .send("P", count: 1), D.run(0, rash: true)])),
            DifferentialCase(
                section: "§13",
                scenario: D.scenario(
                    "a block queued without a wake-up runs right before the timeout", [D.keepAlive()], [D.run(0.1)],
                    outside: [D.at(40, .performBlock("B", modes: [.default], []))])),
            DifferentialCase(
                section: "§13.1",
                scenario: D.scenario(
                    "a nested run's limit at a timer's instant: the timer first, then one more cycle to the limit",
                    [
                        .timer("tick", first: D.ms(100), every: D.ms(100)),
                        .timer("modal", first: D.ms(150), [D.step(D.run(0.05))]), D.keepAlive(),
                    ],
                    [D.run(0.33)])),
            DifferentialCase(
                section: "§13.1",
                scenario: D.scenario(
                    "a nested run's limit at a common timer's instant, in another mode: the outer run has no empty cycle",
                    commonModes: ["Modal"],
                    [
                        .timer("tick", first: D.ms(100), every: D.ms(100), modes: [.common]),
                        .timer("modal", first: D.ms(150), [D.step(D.run(0.05, "Modal"))]),
                        D.keepAlive(modes: [.default, "Modal"]),
                    ],
                    [D.run(0.33)])),
        ]
    }()
}
