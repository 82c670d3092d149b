import LoopEngine

// Queries (`query …`): each question asked of the real CFRunLoop with the call it names, and answered by the engine;
// the answers are compared (dates within the tolerance). docs/language.md, "Queries".
extension DifferentialCase {
    static let queries: [DifferentialCase] = {
        typealias D = DSL
        func ask(_ question: LoopQuery) -> Action { .query(question) }
        let tracking = ModeName("Tracking")
        let modal = ModeName("Modal")
        return [
            DifferentialCase(
                section: "queries currentMode",
                scenario: D.scenario(
                    "currentMode is nil outside a run, the run's mode in its observers, the nested mode in a nested run",
                    [
                        D.keepAlive(), .source0("M", modes: [modal]),
                        .observer("O", [.entry, .exit], modes: [modal], [D.step(ask(.currentMode))]),
                        .timer(
                            "T", first: D.ms(30),
                            [
                                D.step(ask(.currentMode)), D.step(D.run(0.03, modal)), D.step(ask(.currentMode)),
                            ]),
                    ], [ask(.currentMode), D.run(0.1), ask(.currentMode)])),
            DifferentialCase(
                section: "queries limitDate",
                scenario: D.scenario(
                    "limitDate polls the mode first (a due timer fires), then answers the next fire date, "
                        + "distantFuture without a timer, nil for an empty or unknown mode",
                    [
                        D.keepAlive(), .timer("due", first: .zero - D.ms(50)),
                        .timer("next", first: D.ms(200), modes: [tracking]), .source0("S", modes: [tracking]),
                        .source0("E", modes: [ModeName("Empty")]),
                    ],
                    [
                        ask(.limitDate(.default)), ask(.isValid(item: "due")), ask(.limitDate(tracking)),
                        .remove("E", ModeName("Empty")), ask(.limitDate(ModeName("Empty"))),
                        ask(.limitDate(ModeName("Nowhere"))),
                    ]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "queries limitDate",
                scenario: D.scenario(
                    "limitDate from another thread answers nil without polling; in a callout it is a nested poll",
                    [
                        D.keepAlive(), .timer("T", first: D.ms(40), every: D.ms(100)),
                        .timer("U", first: D.ms(70), [D.step(ask(.limitDate(.default)))]),
                    ], [D.run(0.2)], outside: [D.at(20, ask(.limitDate(.default)))]),
                ignoringRunBoundaries: true),
            DifferentialCase(
                section: "queries nextTimerFireDate",
                scenario: D.scenario(
                    "the next timer fire date is the first timer's date, its own in its callout, none without a timer",
                    [
                        D.keepAlive(), .timer("late", first: D.ms(90)),
                        .timer("soon", first: D.ms(30), [D.step(ask(.nextTimerFireDate(.default)))]),
                    ],
                    [
                        ask(.nextTimerFireDate(.default)), ask(.nextTimerFireDate(tracking)), D.run(0.06),
                        ask(.nextTimerFireDate(.default)),
                    ])),
            DifferentialCase(
                section: "queries isWaiting",
                scenario: D.scenario(
                    "isWaiting is true only while the loop sleeps, seen from another thread",
                    [D.keepAlive(), .timer("T", first: D.ms(50), [D.step(ask(.isWaiting))])],
                    [ask(.isWaiting), D.run(0.2), ask(.isWaiting)],
                    outside: [D.at(25, ask(.isWaiting)), D.at(150, ask(.isWaiting))])),
            DifferentialCase(
                section: "queries contains",
                scenario: D.scenario(
                    "contains follows adds, removes, common modes, invalidation and a one-shot timer's fire",
                    [
                        D.keepAlive(), .source0("S", modes: [.common]), .timer("T", first: D.ms(20), modes: []),
                        .observer("O", .entry, modes: [tracking]),
                    ],
                    [
                        ask(.contains(item: "S", mode: .common)), ask(.contains(item: "S", mode: .default)),
                        ask(.contains(item: "S", mode: tracking)), ask(.contains(item: "T", mode: .default)),
                        .add("T", .default), ask(.contains(item: "T", mode: .default)),
                        ask(.contains(item: "T", mode: .common)), ask(.contains(item: "O", mode: tracking)),
                        .remove("O", tracking), ask(.contains(item: "O", mode: tracking)), D.run(0.05),
                        ask(.contains(item: "T", mode: .default)), .invalidate("S"),
                        ask(.contains(item: "S", mode: .common)), ask(.contains(item: "S", mode: .default)),
                    ])),
            DifferentialCase(
                section: "queries isValid",
                scenario: D.scenario(
                    "a one-shot timer is valid in its callout and invalid after it; an invalidated source is invalid",
                    [
                        D.keepAlive(), .source0("S"),
                        .timer("T", first: D.ms(20), [D.step(ask(.isValid(item: "T")))]),
                        .observer("O", .entry, repeats: false),
                    ],
                    [
                        ask(.isValid(item: "T")), ask(.isValid(item: "O")), D.run(0.05), ask(.isValid(item: "T")),
                        ask(.isValid(item: "O")), .invalidate("S"), ask(.isValid(item: "S")),
                    ])),
            DifferentialCase(
                section: "queries nextFireDate",
                scenario: D.scenario(
                    "a timer's fire date stays in the past until it fires, then is the grid's next point; "
                        + "a date set in the past is kept; none once invalid",
                    [
                        D.keepAlive(),
                        .timer(
                            "T", first: .zero - D.ms(500), every: D.ms(100), [D.step(ask(.nextFireDate(timer: "T")))]),
                        .timer("U", first: D.ms(300)),
                    ],
                    [
                        ask(.nextFireDate(timer: "T")), D.run(0.15), ask(.nextFireDate(timer: "T")),
                        .setNextFireDate("U", after: .zero - D.ms(40)), ask(.nextFireDate(timer: "U")),
                        .invalidate("T"), ask(.nextFireDate(timer: "T")),
                    ])),
            DifferentialCase(
                section: "queries allModes",
                scenario: D.scenario(
                    "modes are made by adding items, queuing blocks (common too) and stopMode; not by running, "
                        + "nor by making a mode common while nothing is common",
                    [D.keepAlive()],
                    [
                        ask(.allModes), .addCommonMode(tracking), ask(.allModes),
                        .run(.inMode(ModeName("Nowhere"), seconds: 0.01, returnAfterSourceHandled: false)),
                        ask(.allModes), .performBlock("B", modes: [.common], []), ask(.allModes),
                        .performBlock("C", modes: [ModeName("Blocks")], []), .stopMode(ModeName("Stopped")),
                        ask(.allModes), .add("K", .common), ask(.allModes),
                    ])),
            DifferentialCase(
                section: "queries allModes",
                scenario: D.scenario(
                    "stopMode of a mode not made yet creates it, and the stop waits there for its first run",
                    [D.keepAlive(), .source0("S", modes: [])],
                    [
                        .stopMode(tracking), .add("S", tracking),
                        .run(.inMode(tracking, seconds: 0.05, returnAfterSourceHandled: false)), D.run(0.02),
                    ])),
        ]
    }()
}
