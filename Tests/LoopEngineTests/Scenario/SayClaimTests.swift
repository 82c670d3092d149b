import LoopEngine
import Testing

/// `claims …` under a `say` line: what the narration states about the loop, parsed as `expect` lines and checked
/// where the line is shown.
@Suite("a say line's claims are checked where the line is shown")
struct SayClaimTests {
    /// docs/language.md's example: a stop lost to handledSource, told right by two lines and wrongly by the last.
    static let lesson = """
        thread T
          port keepAlive
          source0 quit
            stop
          run default for 300ms returnAfterSourceHandled
          say "run 1 returned: the stop was lost to handledSource"
            claims earlier result handledSource once
            claims earlier never result stopped

        at 100ms on T
          signal quit
          wakeup

        say "quit calls CFRunLoopStop... but handledSource comes first, and the stop is lost" after stop
          claims next result handledSource
        say "The loop sleeps until its time limit" after sleep
          claims next 0.300 wake
        """

    static func failures(_ source: String) throws -> [String] {
        let script = try ScenarioParser.parse(source)
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(5))
        return script.sayClaimFailures(in: outcome.events)
    }

    @Test("claims parse into the say's anchor, its words, its line and expect steps with their reach")
    func parsed() throws {
        let script = try ScenarioParser.parse(Self.lesson)
        #expect(
            script.sayClaims == [
                SayClaims(
                    anchor: .note("run 1 returned: the stop was lost to handledSource"),
                    text: "run 1 returned: the stop was lost to handledSource", line: 6,
                    claims: [
                        NarrationClaim(
                            .earlier,
                            Expectation.Step(kind: .result, name: "handledSource", count: .exactly(1), line: 7)),
                        NarrationClaim(
                            .earlier, Expectation.Step(kind: .result, name: "stopped", count: .exactly(0), line: 8)),
                    ]),
                SayClaims(
                    anchor: .narration(.after(Expectation.Step(kind: .stop, line: 14))),
                    text: "quit calls CFRunLoopStop... but handledSource comes first, and the stop is lost",
                    line: 14,
                    claims: [NarrationClaim(.next, Expectation.Step(kind: .result, name: "handledSource", line: 15))]),
                SayClaims(
                    anchor: .narration(.after(Expectation.Step(kind: .sleep, line: 16))),
                    text: "The loop sleeps until its time limit", line: 16,
                    claims: [
                        NarrationClaim(
                            .next,
                            Expectation.Step(
                                time: .milliseconds(300), resolution: .milliseconds(1), kind: .wake, line: 17))
                    ]),
            ])
        #expect(script.sayClaimCount == 4)
        // Claims are no events: the narration and the trace are what they were without them.
        #expect(script.narration.count == 2)
        #expect(script.scenario.threads[0].program.count == 2)
    }

    @Test("a false line fails with the say, where it is shown, the claim and what happened instead")
    func falseLineReported() throws {
        #expect(
            try Self.failures(Self.lesson) == [
                """
                say (line 16) "The loop sleeps until its time limit", shown from step 8 (0.000 sleep):
                  - claims next 0.300 wake   (line 17)
                  + the next wake is step 11: 0.100 wake

                """
            ])
    }

    @Test("next is the first event of the line's kind after the anchor's, on the line's thread when it names one")
    func nextLooksAtTheNextOfItsKind() throws {
        let source = """
            thread T
              port p
              timer a at 100ms
              timer b at 200ms
              run default for 300ms
            say "a fires first" at 50ms
              claims next timer a
            say "then b" after timer a
              claims next T: timer b
            say "wrong: b fires next" at 50ms
              claims next timer b
            say "and the run is stopped" after timer b
              claims next result stopped
            say "no more timers" after result
              claims next timer a
            """
        #expect(
            try Self.failures(source) == [
                """
                say (line 10) "wrong: b fires next", shown from step 8 (0.100 wake):
                  - claims next timer b   (line 11)
                  + the next timer is step 10: 0.100 timer a

                """,
                """
                say (line 12) "and the run is stopped", shown from step 17 (0.200 timer b):
                  - claims next result stopped   (line 13)
                  + the next result is step 26: 0.3000015 result timedOut

                """,
                """
                say (line 14) "no more timers", shown from step 26 (0.3000015 result timedOut):
                  - claims next timer a   (line 15)
                  + no timer comes from here on

                """,
            ])
    }

    @Test("earlier counts the events up to the anchor's, included, later those after it, as expect claims count")
    func laterAndEarlierCount() throws {
        let source = """
            thread T
              port p
              timer tick at 100ms every 100ms
              run default for 450ms
            say "tick has fired twice, and fires twice more" after 0.200 timer tick
              claims earlier timer tick 2 times
              claims later timer tick 2 times
            say "wrong: it fires once more" after 0.200 timer tick
              claims later timer tick once
              claims earlier never timer tick
            """
        #expect(
            try Self.failures(source) == [
                """
                say (line 8) "wrong: it fires once more", shown from step 17 (0.200 timer tick):
                  - claims later timer tick once   (line 9)
                  + it happened 2 times:
                      0.300 timer tick
                      0.400 timer tick
                  - claims earlier never timer tick   (line 10)
                  + it happened 2 times:
                      0.100 timer tick
                      0.200 timer tick

                """
            ])
    }

    @Test("a top-level line whose event never happens fails; a say action that never runs claims nothing")
    func neverShown() throws {
        let source = """
            thread T
              port p
              timer t at 100ms
                call 2: say "t fired again"
                  claims earlier timer t 2 times
              run default for 300ms
            say "the loop is stopped" after stop
              claims next result stopped
            """
        #expect(
            try Self.failures(source) == [
                """
                say (line 7) "the loop is stopped": its event never happens, so what it claims cannot hold
                  - claims next result stopped   (line 8)

                """
            ])
    }

    @Test("a say action's claims hold at every note it writes")
    func everyNote() throws {
        let source = """
            thread T
              port p
              timer tick at 100ms every 100ms
                say "tick fired"
                  claims earlier timer tick at most 2 times
              run default for 350ms
            """
        let script = try ScenarioParser.parse(source)
        #expect(script.sayClaims.map(\.anchor) == [.note("tick fired")])
        #expect(
            try Self.failures(source) == [
                """
                say (line 4) "tick fired", shown from step 27 (0.300 note):
                  - claims earlier timer tick at most 2 times   (line 5)
                  + it happened 3 times:
                      0.100 timer tick
                      0.200 timer tick
                      0.300 timer tick

                """
            ])
    }

    @Test("a failing say is quoted terminal-safe and cut to a diagnostic's width")
    func hostileWordsQuoted() throws {
        let words = "\u{1B}[2J" + String(repeating: "x", count: 200)
        let source = """
            thread T
              port p
              run default for 100ms
            say "\(words)" after sleep
              claims next result stopped
            """
        let report = try #require(try Self.failures(source).first)
        #expect(!report.contains("\u{1B}"))
        #expect(report.hasPrefix("say (line 4) \"\\e[2J" + String(repeating: "x", count: 75) + "…\", shown from"))
    }

    @Test("a wrong line under a say is an error with its line and column")
    func errors() {
        let cases: [(String, String)] = [
            ("  note \"x\"", "5:3 a line under a `say` is a claim, `claims next result handledSource`; found 'note'"),
            ("  claims", "5:9 expected `next`, `later` or `earlier` after `claims`"),
            ("  claims soon timer t", "5:10 unknown 'soon' after `claims`; expected next, later or earlier"),
            (
                "  claims next timer t once",
                "5:15 `claims next` names the next event of its kind, without a count or `never`; "
                    + "use `claims later … once`"
            ),
            (
                "  claims next never timer t",
                "5:15 `claims next` names the next event of its kind, without a count or "
                    + "`never`; use `claims later … once`"
            ),
            ("  claims later", "5:15 expected an event such as entry, timer T or result timedOut"),
            ("  claims later tick", "5:16 unknown event 'tick'; " + ScenarioProblemTests.eventsExpected),
            ("  claims later sleep\n    sleep", "6:5 'claims' takes no indented block"),
        ]
        for (lines, message) in cases {
            let source = "thread T\n  port p\n  run default for 1s\nsay \"x\" after sleep\n" + lines
            let found = ScenarioProblemTests.diagnostics(source).map { "\($0.line):\($0.column) \($0.message)" }
            #expect(found == [message], "\(lines)")
        }
    }
}
