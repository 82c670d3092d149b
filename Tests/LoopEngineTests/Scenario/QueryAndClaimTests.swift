import LoopEngine
import Testing

/// `query` actions and the expectations that can say what tests say: counts, absence, time ranges, modes and
/// query answers. Each runs a small scenario on the virtual clock and checks the whole report a check prints.
@Suite("queries and claims in the .loop language")
struct QueryAndClaimTests {
    static func run(_ source: String) throws -> (LoopScript, [LoopEvent]) {
        let script = try ScenarioParser.parse(source, file: "t.loop")
        let outcome = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(10))
        return (script, Array(outcome.events))
    }

    /// A timer that ticks at 100, 300 and 500 ms, a nested run of Modal in its second call, and queries.
    static let ticking = """
        thread T
          port K
          source0 s in Modal
          timer tick at 100ms every 200ms
            call 2: run Modal for 50ms
          observer o on entry in Modal
            query currentMode
          query currentMode
          query limitDate default
          query allModes
          run default for 600ms

        """

    @Test("a query action parses into one question per item, a range into one each")
    func queryActions() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              timer t1..2 at 10ms
              observer o on entry in nothing
              query currentMode
              query limitDate Tracking
              query nextTimerFireDate default
              query isWaiting
              query contains o in common
              query isValid t1..2
              query nextFireDate t2
              query allModes
            """, file: "t.loop")
        #expect(
            script.scenario.threads[0].program == [
                .query(.currentMode), .query(.limitDate("Tracking")), .query(.nextTimerFireDate(.default)),
                .query(.isWaiting), .query(.contains(item: "o", mode: .common)), .query(.isValid(item: "t1")),
                .query(.isValid(item: "t2")), .query(.nextFireDate(timer: "t2")), .query(.allModes),
            ])
    }

    @Test("each query is an event of the trace that reads as the question and its answer")
    func queriesAreEvents() throws {
        let (_, events) = try Self.run(Self.ticking)
        #expect(
            events.filter { $0.kind == .query }.map(\.step) == [
                "query currentMode is nil", "query limitDate default is 0.100",
                "query allModes is Modal, default", "query currentMode is Modal",
            ])
    }

    @Test("claims that hold: counts, never, ranges, modes and answers")
    func claimsThatHold() throws {
        let (script, events) = try Self.run(
            Self.ticking + """
                expect
                  timer tick 3 times
                  timer tick at most 3 times
                  timer tick at least once
                  timer tick between 0.1 and 0.3s
                  never timer tick before 0.1s
                  never source0 s
                  timer tick in default 3 times
                  entry in Modal once
                  result timedOut in Modal once
                  query currentMode is Modal
                  query currentMode is nil once
                  query limitDate default is 0.100
                  query allModes is default, Modal
                  query allModes
                  never query limitDate default is nil
                """)
        #expect(script.expectations.count == 1)
        #expect(script.expectations[0].check(events) == nil)
    }

    @Test("failing claims are reported together, each with the events it counted")
    func failingClaims() throws {
        let (script, events) = try Self.run(
            Self.ticking + """
                expect
                  timer tick 2 times
                  never timer tick after 0.4s
                  source0 s at least once
                  query currentMode is Tracking
                """)
        #expect(
            script.expectations[0].check(events) == """
                expect (line 12): 4 claims do not hold
                  - timer tick 2 times   (line 13)
                  + it happened 3 times:
                      0.100 timer tick
                      0.300 timer tick
                      0.500 timer tick
                  - never timer tick after 0.400   (line 14)
                  + it happened once:
                      0.500 timer tick
                  - source0 s at least once   (line 15)
                  + it never happened
                  - query currentMode is Tracking   (line 16)
                  + it never happened; query events: 4
                      0.000 query currentMode is nil
                      0.0000015 query limitDate default is 0.100
                      0.0000015 query allModes is Modal, default
                      0.300 query currentMode is Modal

                """)
    }

    @Test("ranges, modes and answers work in `expect in order` and `expect exactly` too")
    func clausesInOrderedSections() throws {
        let (script, events) = try Self.run(
            """
            thread T
              port K
              timer tick at 100ms
              query nextFireDate tick
              run default for 150ms
              query nextFireDate tick
            expect in order
              query nextFireDate tick is 0.100
              timer tick in default between 0.05s and 0.10s
              result timedOut in default after 0.15s
              query nextFireDate tick is none
            expect in order
              timer tick before 0.1s
            """)
        #expect(script.expectations[0].check(events) == nil)
        #expect(
            script.expectations[1].check(events) == """
                expect in order (line 12): step 1 never happened
                  - timer tick before 0.100   (line 13)
                  + nearest: 0.100 T: timer tick

                """)
    }

    @Test("a date answer matches to the digits written, and modes in any order")
    func answerPrecision() {
        let pattern = Expectation.QueryPattern(
            question: .limitDate(.default), answer: .date(LoopInstant(nanoseconds: 100_000_000)),
            resolution: .milliseconds(1))
        #expect(pattern.matches(.limitDate(.default), .date(LoopInstant(nanoseconds: 100_900_000))))
        #expect(!pattern.matches(.limitDate(.default), .date(LoopInstant(nanoseconds: 101_000_000))))
        #expect(!pattern.matches(.limitDate(.default), .distantFuture))
        #expect(!pattern.matches(.nextTimerFireDate(.default), .date(LoopInstant(nanoseconds: 100_000_000))))
    }

    static let errors: [ScenarioErrorCase] = [
        .init(
            id: "an unknown question", source: "thread T\n  port K\n  query mode", line: 3, column: 9,
            message:
                "expected a question: currentMode, limitDate M, nextTimerFireDate M, isWaiting, contains X in M, "
                + "isValid X, nextFireDate T, allModes, interval T, tolerance T or repeats T"),
        .init(
            id: "contains without its mode", source: "thread T\n  port K\n  query contains K", line: 3, column: 19,
            message: "expected 'in' and a mode: `query contains tick in Tracking`"),
        .init(
            id: "the fire date of something that is not a timer", source: "thread T\n  port K\n  query nextFireDate K",
            line: 3, column: 22, message: "'K' is a port, but this needs a timer"),
        .init(
            id: "a limit date of the common modes", source: "thread T\n  port K\n  query limitDate common", line: 3,
            column: 19, message: "'common' stands for all common modes and cannot be used here"),
        .init(
            id: "a count in an ordered section", source: "thread T\n  port K\nexpect in order\n  sleep 2 times",
            line: 4, column: 9,
            message:
                "a count belongs in a section of claims: `expect` alone, not `expect exactly` or `expect in order`"),
        .init(
            id: "never with a count", source: "thread T\n  port K\nexpect\n  never sleep once", line: 4, column: 3,
            message: "`never` takes no count"),
        .init(
            id: "a range without its end", source: "thread T\n  port K\nexpect\n  sleep between 1s 2s", line: 4,
            column: 20, message: "expected 'and' and the end: `between 2.0s and 2.5s`"),
        .init(
            id: "a range that ends first", source: "thread T\n  port K\nexpect\n  sleep between 2s and 1s", line: 4,
            column: 24, message: "the range ends before it starts"),
        .init(
            id: "a time and a range", source: "thread T\n  port K\nexpect\n  0.100 sleep before 1s", line: 4,
            column: 3, message: "give a time or a range (between, before, after), not both"),
        .init(
            id: "at without most or least", source: "thread T\n  port K\nexpect\n  sleep at 3 times", line: 4,
            column: 12, message: "expected 'most' or 'least': `at most once`, `at least 2 times`"),
        .init(
            id: "a Bool answer that is not one", source: "thread T\n  port K\nexpect\n  query isWaiting is maybe",
            line: 4, column: 22, message: "the answer is true or false, not 'maybe'"),
        .init(
            id: "a date answer that is a word", source: "thread T\n  port K\nexpect\n  query limitDate default is soon",
            line: 4, column: 30, message: "expected a time (0.300), nil, none or distantFuture, not 'soon'"),
        .init(
            id: "an expect section of an unknown kind", source: "thread T\n  port K\nexpect some\n  sleep", line: 3,
            column: 8,
            message:
                "expected `expect exactly`, `expect in order`, `expect in every schedule` or `expect` alone (claims)"),
    ]

    @Test("a bad query or claim is reported at its line and column", arguments: errors)
    func reportsProblem(_ errorCase: ScenarioErrorCase) {
        errorCase.expectReported()
    }
}
