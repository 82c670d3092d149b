import Testing

@testable import LoopEngine

/// `say zh "…"`: a language tag on narration and on notes, and which language the locale picks.
@Suite("say lines speak a language")
struct LanguageNarrationTests {
    @Test("a top-level say takes a language tag before its text; untagged is English")
    func topLevelTag() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              port K in default
              run default for 100ms
            say "sleeps" after sleep
            say zh "睡了" after sleep
            say en "ends" at step 3
            """)
        #expect(
            script.narration == [
                Narration(anchor: .after(Expectation.Step(kind: .sleep, line: 4)), text: "sleeps"),
                Narration(anchor: .after(Expectation.Step(kind: .sleep, line: 5)), text: "睡了", language: .zh),
                Narration(anchor: .step(3), text: "ends", language: .en),
            ])
    }

    @Test("in a program, say zh translates the say right before it and adds no event to the trace")
    func noteTranslation() throws {
        let tagged = try ScenarioParser.parse(
            """
            thread T
              say "starts"
              say zh "开始了"
              work 10ms
              say "done"
            """)
        let plain = try ScenarioParser.parse(
            """
            thread T
              say "starts"
              work 10ms
              say "done"
            """)
        #expect(tagged.scenario == plain.scenario)
        #expect(tagged.noteTranslations == [.zh: ["starts": "开始了"]])
        #expect(tagged.note("starts", in: .zh) == "开始了")
        #expect(tagged.note("done", in: .zh) == "done")
        #expect(tagged.note("starts", in: .en) == "starts")
    }

    @Test("a callout's say zh translates the say before it, under the same condition")
    func calloutTranslation() throws {
        let script = try ScenarioParser.parse(
            """
            thread T
              observer watch on afterWaiting in default
                on afterWaiting: say "woke"
                on afterWaiting: say zh "醒了"
              port K in default
              run default for 10ms
            """)
        #expect(script.noteTranslations == [.zh: ["woke": "醒了"]])
    }

    @Test("say zh with no say before it, and an unknown language, are errors at their column")
    func errors() {
        let cases: [(String, Int, String)] = [
            (
                "thread T\n  work 1ms\n  say zh \"开始\"", 3,
                "`say zh \"…\"` in a program or a callout translates the `say \"…\"` right before it; put it on the "
                    + "next line after one"
            ),
            (
                "thread T\n  run default for 1ms\nsay fr \"bonjour\" at 0ms", 5,
                "unknown language 'fr'; expected zh or en before the text (or no tag: English)"
            ),
        ]
        for (source, column, message) in cases {
            let error = #expect(throws: ScenarioDiagnostics.self) { try ScenarioParser.parse(source) }
            #expect(error?.diagnostics.map { "\($0.line):\($0.column) \($0.message)" } == ["3:\(column) \(message)"])
        }
    }

    @Test("the locale picks Chinese for zh_* as POSIX reads it: LC_ALL, then LC_MESSAGES, then LANG")
    func locale() {
        #expect(Language.preferred(environment: [:]) == .en)
        #expect(Language.preferred(environment: ["LANG": "zh_CN.UTF-8"]) == .zh)
        #expect(Language.preferred(environment: ["LANG": "zh_TW"]) == .zh)
        #expect(Language.preferred(environment: ["LANG": "C.UTF-8"]) == .en)
        #expect(Language.preferred(environment: ["LANG": "fr_FR.UTF-8"]) == .en)
        #expect(Language.preferred(environment: ["LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_US.UTF-8"]) == .en)
        #expect(Language.preferred(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"]) == .zh)
        #expect(Language.preferred(environment: ["LC_ALL": "", "LANG": "zh_HK.UTF-8"]) == .zh)
    }
}
