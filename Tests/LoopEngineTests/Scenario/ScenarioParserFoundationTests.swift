import LoopEngine
import Testing

/// The language's Foundation calls and dates: what each line parses into, and what a bad one is told.
@Suite("the .loop parser speaks Foundation")
struct ScenarioParserFoundationTests {
    static func program(_ lines: String) throws -> [Action] {
        let script = try ScenarioParser.parse("thread T\n  port K\n" + lines, file: "t.loop")
        return script.scenario.threads[0].program
    }

    @Test("run(until:), run(mode:before:) and acceptInput(forMode:before:) with every kind of date")
    func foundationCalls() throws {
        let program = try Self.program(
            """
              RunLoop.run until 300ms
              RunLoop.run default until distantFuture
              RunLoop.run default before -100ms
              RunLoop.run Tracking before now
              RunLoop.run default before at 2s
              RunLoop.acceptInput default before distantPast
              RunLoop.acceptInput Tracking before 1.5s
              RunLoop.run

            """)
        #expect(
            program == [
                .run(.foundationUntil(.fromNow(.milliseconds(300)))),
                .run(.foundationUntil(.distantFuture)),
                .run(.foundation(.default, before: .fromNow(.milliseconds(-100)))),
                .run(.foundation(ModeName("Tracking"), before: .fromNow(.zero))),
                .run(.foundation(.default, before: .sinceStart(.seconds(2)))),
                .run(.acceptInput(.default, before: .distantPast)),
                .run(.acceptInput(ModeName("Tracking"), before: .fromNow(.milliseconds(1500)))),
                .run(.foundationForever),
            ])
    }

    @Test("run limits CF reads specially, a timer dated before the start, a reschedule into the past")
    func specialDates() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              timer t at -500ms every 200ms
              run default for inf
              run default for nan returnAfterSourceHandled
              run default for 600000000s
              reschedule t in -10ms
            """, file: "t.loop")
        let thread = script.scenario.threads[0]
        #expect(thread.items == [.timer("t", first: .milliseconds(-500), every: .milliseconds(200))])
        guard thread.program.count == 4, case .run(.inMode(_, let nan, true)) = thread.program[1] else {
            Issue.record("unexpected program \(thread.program)")
            return
        }
        #expect(nan.isNaN)
        #expect(thread.program[0] == .run(.inMode(.default, seconds: .infinity, returnAfterSourceHandled: false)))
        #expect(thread.program[2] == .run(.inMode(.default, seconds: 600_000_000, returnAfterSourceHandled: false)))
        #expect(thread.program[3] == .setNextFireDate("t", after: .milliseconds(-10)))
        // CF's reading of each limit, as the trace words it.
        #expect(
            [Double.infinity, .nan, 600_000_000, 504_911_232, -1].map(LoopEvent.RunLimit.init(seconds:)) == [
                .forever, .forever, .forever, .seconds(.seconds(504_911_232)), .poll,
            ])
    }

    @Test("every item kind takes a range of names, and actions name ranges of items")
    func itemRanges() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              port p1..3 in default
                work 1ms
              source0 s08..10 order 2
              timer t1..2 at 10ms every 5ms order -3
              observer o1..2 on entry once
              send p2..3 2 times
              signal s09..10
              add t1..2 to Tracking
              reschedule t1..2 in 1ms
              invalidate o1..2
            """, file: "t.loop")
        let thread = script.scenario.threads[0]
        let work = [ScriptStep(.work(.milliseconds(1)))]
        #expect(
            thread.items == [
                .port("p1", work), .port("p2", work), .port("p3", work),
                .source0("s08", order: 2), .source0("s09", order: 2), .source0("s10", order: 2),
                .timer("t1", first: .milliseconds(10), every: .milliseconds(5), order: -3),
                .timer("t2", first: .milliseconds(10), every: .milliseconds(5), order: -3),
                .observer("o1", .entry, repeats: false), .observer("o2", .entry, repeats: false),
            ])
        let tracking = ModeName("Tracking")
        #expect(
            thread.program == [
                .send("p2", count: 2), .send("p3", count: 2), .signal("s09"), .signal("s10"), .add("t1", tracking),
                .add("t2", tracking), .setNextFireDate("t1", after: .milliseconds(1)),
                .setNextFireDate("t2", after: .milliseconds(1)), .invalidate("o1"), .invalidate("o2"),
            ])
    }

    @Test("a port can be signalled: the trace says CF ignores it")
    func signalAPort() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  port p\n  signal p\n  run default for 10ms", file: "t.loop")
        #expect(script.scenario.threads[0].program.first == .signal("p"))
        let signals = ScenarioRunner.run(script.scenario).events.filter { $0.kind == .signal }
        #expect(signals.map(\.fact) == [.ignored(.portSource)])
    }

    @Test("a secondary thread's program dispatches to the main queue; the main thread's loop runs the block")
    func mainQueueFromAThreadsProgram() throws {
        let script = try ScenarioParser.parse(
            """
            thread main main
              port K
              mainqueue first
                say "first, from main's own program"
              run default for 200ms
            thread W
              work 50ms
              mainqueue fromWorker
                say "on main"
            """, file: "t.loop")
        let events = ScenarioRunner.run(script.scenario).events
        let drained = events.filter { $0.kind == .mainQueue }
        #expect(drained.map(\.name) == ["first", "fromWorker"])
        #expect(drained.map(\.loop) == ["main", "main"])
        #expect(drained.map { $0.time.nanoseconds / 1_000_000 } == [0, 50])
        let said = events.filter { if case .note(.say) = $0.fact { true } else { false } }
        #expect(said.map(\.loop) == ["main", "main"])
    }

    @Test("a timer's order is said in the trace: CF never uses it")
    func timerOrderIsExplained() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  timer a at 20ms order -10\n  timer b at 10ms order 10\n  run default for 50ms", file: "t.loop")
        let events = ScenarioRunner.run(script.scenario).events
        #expect(
            events.compactMap(Self.note) == [
                .timerOrderUnused(timer: "a", order: -10), .timerOrderUnused(timer: "b", order: 10),
            ])
        #expect(events.filter { $0.kind == .timer }.map(\.name) == ["b", "a"])
    }

    static func note(_ event: LoopEvent) -> LoopEvent.Note? {
        if case .note(let note) = event.fact { note } else { nil }
    }

    @Test("an expect line can say what run(mode:before:) returned")
    func expectReturned() throws {
        let script = try ScenarioParser.parse(
            "thread T\n  port K\n  RunLoop.run default before 0s\nexpect in order\n  0.000 returned true\n  returned false\n",
            file: "t.loop")
        let steps = script.expectations[0].steps
        #expect(steps.map(\.returned) == [true, false])
        #expect(steps.map(\.description) == ["0.000 returned true", "returned false"])
    }

    static let errors: [ScenarioErrorCase] = [
        .init(
            id: "a bad item range", source: "thread T\n  port p..5\n  run default for 1s", line: 2, column: 8,
            message: "bad range 'p..5'; expected a name, its first number, '..' and the last: upload1..10"),
        .init(
            id: "a range that repeats a name", source: "thread T\n  port p2\n  port p1..3", line: 3, column: 8,
            message: "duplicate item 'p2' on thread T"),
        .init(
            id: "a range of items that do not exist", source: "thread T\n  port p1..2\n  send p1..3", line: 3,
            column: 8, message: "unknown item 'p3' on thread T (known: p1, p2)"),
        .init(
            id: "a run limit that is a word", source: "thread T\n  port K\n  run default for infinity", line: 3,
            column: 19, message: "expected a time limit, e.g. 200ms (0s polls once), inf or nan"),
        .init(
            id: "run(until:) in another mode", source: "thread T\n  port K\n  RunLoop.run Tracking until 1s",
            line: 3, column: 24,
            message: "run(until:) always runs the default mode; for Tracking use `RunLoop.run Tracking before …`"),
        .init(
            id: "acceptInput without before", source: "thread T\n  port K\n  RunLoop.acceptInput default 1s",
            line: 3, column: 31,
            message: "expected 'before' and a limit: `RunLoop.acceptInput default before 1s`"),
        .init(
            id: "a date that is not one", source: "thread T\n  port K\n  RunLoop.run default before soon",
            line: 3, column: 30,
            message:
                "expected a date: a time from now (250ms, -100ms), now, `at 2s` (since the start), distantPast or "
                + "distantFuture"),
        .init(
            id: "a date since the start that is negative", source: "thread T\n  port K\n  RunLoop.run until at -1s",
            line: 3, column: 24, message: "a duration cannot be negative here"),
        .init(
            id: "a returned value that is not a Bool",
            source: "thread T\n  port K\n  RunLoop.run default before 0s\nexpect in order\n  returned yes", line: 5,
            column: 12, message: "run(mode:before:) returns true or false, not 'yes'"),
    ]

    @Test("a bad Foundation call is reported at its line and column", arguments: errors)
    func reportsProblem(_ errorCase: ScenarioErrorCase) {
        errorCase.expectReported()
    }
}
