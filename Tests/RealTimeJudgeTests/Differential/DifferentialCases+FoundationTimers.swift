import LoopEngine

// Foundation's `Timer.fire()` (`fire T`) and a timer interval of 0 or less, on the real CFRunLoop: the oracle's
// fire is corelibs' (`isValid`, the block, `invalidate()` when the interval is 0), on the CF timer the scenario
// made. docs/cfrunloop.md §9.5.
extension DifferentialCase {
    static let foundationTimers: [DifferentialCase] = {
        typealias D = DSL
        let say = { (text: String) in D.step(.note(text)) }
        return [
            DifferentialCase(
                section: "§9.5",
                scenario: D.scenario(
                    "Timer.fire() calls a repeating timer at once and keeps its schedule",
                    [D.keepAlive(), .timer("tick", first: D.ms(40), every: D.ms(40), [say("tick")])],
                    [
                        .fire("tick"), .query(.isValid(item: "tick")), .query(.nextFireDate(timer: "tick")),
                        D.run(0.1),
                    ], outside: [D.at(60, .fire("tick"))])),
            DifferentialCase(
                section: "§9.5",
                scenario: D.scenario(
                    "Timer.fire() invalidates a one-shot timer; fire() of an invalid timer does nothing",
                    [
                        D.keepAlive(), .timer("single", first: D.ms(40), [say("single")]),
                        .source0("S", [D.step(.fire("single")), D.step(.query(.isValid(item: "single")))]),
                    ],
                    [.signal("S"), D.run(0.06), .fire("single"), .query(.isValid(item: "single"))])),
            DifferentialCase(
                section: "§9.5",
                scenario: D.scenario(
                    "a negative interval makes a one-shot timer; interval, tolerance and repeats read what CF stored",
                    [
                        D.keepAlive(), .timer("back", first: D.ms(20), every: .zero - D.ms(50)),
                        .timer("zero", first: D.ms(40), every: .zero),
                        .timer("tick", first: D.ms(60), every: D.ms(100), tolerance: D.ms(30)),
                    ],
                    [
                        .query(.interval(timer: "back")), .query(.repeats(timer: "back")),
                        .query(.interval(timer: "tick")), .query(.tolerance(timer: "tick")),
                        .query(.repeats(timer: "tick")), D.run(0.1), .query(.isValid(item: "back")),
                        .query(.isValid(item: "zero")),
                    ])),
            DifferentialCase(
                section: "§9.5",
                scenario: D.scenario(
                    "Timer(timeInterval:) fires at once on Linux, scheduledTimer one interval later",
                    [
                        D.keepAlive(),
                        .foundationTimer("poll", .initializer, interval: D.ms(60), [say("poll")]),
                        .foundationTimer("later", .scheduled, interval: D.ms(90), repeats: false, [say("later")]),
                        .foundationTimer(
                            "parked", .initializer, interval: D.ms(200), repeats: false, modes: [], [say("parked")]),
                    ],
                    [
                        .query(.interval(timer: "later")), .query(.repeats(timer: "poll")), D.run(0.1),
                        .add("parked", .default), D.run(0.05),
                    ])),
        ]
    }()
}
