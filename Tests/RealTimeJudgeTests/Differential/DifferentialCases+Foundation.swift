import LoopEngine

// Foundation's run calls (RunLoop.swift of swift-corelibs-foundation): run(until:), acceptInput(forMode:before:),
// the Bool run(mode:before:) returns, and the dates they take. The oracle calls Foundation's own methods.
extension DifferentialCase {
    static let foundation: [DifferentialCase] = {
        typealias D = DSL
        func until(_ date: FoundationDate) -> Action { .run(.foundationUntil(date)) }
        func before(_ date: FoundationDate, _ mode: ModeName = .default) -> Action {
            .run(.foundation(mode, before: date))
        }
        func accept(_ date: FoundationDate, _ mode: ModeName = .default) -> Action {
            .run(.acceptInput(mode, before: date))
        }
        return [
            DifferentialCase(
                section: "§10.3 run(until:)",
                scenario: D.scenario(
                    "run(until:) re-enters after a handled source and returns once its date has passed",
                    [D.keepAlive(), .source0("A"), .timer("T", first: D.ms(150))], [until(.fromNow(D.ms(300)))],
                    outside: [D.at(50, .signal("A"), .wakeUp)]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 run(until:)",
                scenario: D.scenario(
                    "run(until:) with a date in the past still runs once, polling",
                    [D.keepAlive(), .source0("A")], [.signal("A"), until(.fromNow(.zero - D.ms(100)))]),
                ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 run(until:)",
                scenario: D.scenario(
                    "run(until:) returns at once when the default mode is empty, and run(mode:before:) returns false",
                    [.source0("K", modes: [ModeName("other")])],
                    [
                        until(.distantFuture), before(.fromNow(D.ms(100))),
                        before(.fromNow(D.ms(50)), ModeName("other")),
                    ]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 run(mode:before:)",
                scenario: D.scenario(
                    "run(mode:before:) returns true after a timed-out run and after a handled port",
                    [D.keepAlive(), .port("P"), .timer("T", first: D.ms(30))],
                    [before(.fromNow(D.ms(80))), before(.distantFuture)],
                    outside: [D.at(120, .send("P", count: 1))]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 run(mode:before:)",
                scenario: D.scenario(
                    "run(mode:before:) with distantPast, now or a past date polls once",
                    [D.keepAlive(), .source0("A")],
                    [
                        before(.distantPast), .signal("A"), before(.fromNow(.zero)), before(.fromNow(.zero - D.ms(50))),
                        .work(D.ms(40)), before(.sinceStart(D.ms(20))),
                    ]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 run(mode:before:)",
                scenario: D.scenario(
                    "run(mode:before:) with a date since the start waits until that date",
                    [D.keepAlive()], [.work(D.ms(30)), before(.sinceStart(D.ms(100)))]),
                ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 acceptInput",
                scenario: D.scenario(
                    "acceptInput(forMode:before:) returns after the first handled port, not after a timer",
                    [D.keepAlive(), .port("P"), .timer("T", first: D.ms(30))], [accept(.fromNow(D.seconds(1)))],
                    outside: [D.at(80, .send("P", count: 1))]), ignoringRunBoundaries: true),
            DifferentialCase(
                section: "§10.3 acceptInput",
                scenario: D.scenario(
                    "acceptInput(forMode:before:) on an empty mode does nothing, then times out in a kept-alive one",
                    [D.keepAlive()], [accept(.fromNow(D.ms(100)), ModeName("other")), accept(.fromNow(D.ms(60)))]),
                ignoringRunBoundaries: true),
        ]
    }()
}

extension DSL {
    static func seconds(_ value: Int) -> Duration { .seconds(value) }
}

// Dates CF reads specially (docs/cfrunloop.md §2.2 S3, §9.1): past fire dates, run limits of inf, nan and above the ~16-year
// cut-off.
extension DifferentialCase {
    static let specialDates: [DifferentialCase] = {
        typealias D = DSL
        return [
            DifferentialCase(
                section: "§9.1",
                scenario: D.scenario(
                    "a repeating timer whose first fire date is before the start fires now, then on a grid from now",
                    [.timer("T", first: .zero - D.ms(500), every: D.ms(200))], [D.run(0.45)])),
            DifferentialCase(
                section: "§9.1",
                scenario: D.scenario(
                    "a one-shot timer dated in the past fires in the first wait",
                    [D.keepAlive(), .timer("T", first: .zero - D.ms(50))], [D.run(0.1)])),
            DifferentialCase(
                section: "§9.1",
                scenario: D.scenario(
                    "a timer added after its fire date fires late at once, then on the grid of its creation",
                    [D.keepAlive(), .timer("T", first: D.ms(100), every: D.ms(200), modes: [])], [D.run(0.6)],
                    outside: [D.at(250, .add("T", .default))])),
            DifferentialCase(
                section: "§9.3",
                scenario: D.scenario(
                    "a timer rescheduled into the past from outside fires at once",
                    [D.keepAlive(), .timer("T", first: D.ms(500))], [D.run(0.2)],
                    outside: [D.at(60, .setNextFireDate("T", after: .zero - D.ms(40)))])),
            DifferentialCase(
                section: "§2.2 S3",
                scenario: D.scenario(
                    "a NaN time limit is no limit: only a stop ends the run", [D.keepAlive()], [D.run(.nan)],
                    outside: [D.at(60, .stop)])),
            DifferentialCase(
                section: "§2.2 S3",
                scenario: D.scenario(
                    "a limit above the 16-year cut-off is no limit", [D.keepAlive()], [D.run(600_000_000)],
                    outside: [D.at(60, .stop)])),
            DifferentialCase(
                section: "§2.2 S3",
                scenario: D.scenario(
                    "a limit just under the cut-off is a deadline in 16 years: a stop ends the run",
                    [D.keepAlive()], [D.run(504_000_000)], outside: [D.at(60, .stop)])),
        ]
    }()
}

// Items written as ranges, and timer orders, parsed from the language itself.
extension DifferentialCase {
    static let ranges: [DifferentialCase] = [
        parsed(
            "§8", "a signal of a port is ignored: a wake-up with it costs an empty iteration, a message performs it",
            """
            thread T
              port P
              run default for 200ms

            at 40ms on T
              signal P

            at 80ms on T
              signal P
              wakeup

            at 130ms on T
              send P
            """),
        parsed(
            "§8, §9.1", "four ports of a range, sent at once, are served one per iteration; timer order is not used",
            """
            thread T
              port p1..4 in default
                work 5ms
              timer late at 20ms order -10
              timer early at 10ms order 10
              run default for 200ms

            at 120ms on T
              send p1..4
            """),
        parsed(
            "§9.1", "a range of repeating timers, each in its own mode's run",
            """
            thread T
              port K in default, other
              timer t1..2 every 40ms at 30ms in nothing
              add t1 to default
              add t2 to other
              run default for 100ms
              run other for 100ms
            """),
    ]

    /// A case written in the `.loop` language (the parser must accept it).
    static func parsed(_ section: String, _ name: String, _ source: String) -> DifferentialCase {
        do {
            var scenario = try ScenarioParser.parse(source, file: "\(name).loop").scenario
            scenario.name = name
            return DifferentialCase(section: section, scenario: scenario)
        } catch {
            preconditionFailure("\(name): \(error)")
        }
    }
}
