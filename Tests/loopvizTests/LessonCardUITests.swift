import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The lesson card over the screen, and the narration in the language asked for.
@Suite("the lesson card and the lesson's language")
struct LessonCardUITests {
    static func model(
        _ source: String = DefaultLesson.text, language: Language = .en, width: Int = 80, height: Int = 24
    )
        -> AppModel
    {
        let script = try! ScenarioParser.parse(source, file: "lesson.loop")
        var model = AppModel(session: Session(script: script), fileName: "lesson.loop")
        model.language = language
        _ = updateInline(&model, .resize(width: width, height: height))
        model.isPaused = true
        return model
    }

    static func lesson(_ name: String) -> String {
        let url = Snapshot.packageRoot.appendingPathComponent("examples/\(name)")
        return try! String(contentsOf: url, encoding: .utf8)
    }

    @Test("a lesson opens on its card; any key closes it without acting, i opens it again, q still quits")
    func keys() {
        var model = Self.model().openingCard()
        #expect(model.overlay == .card)
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(model.overlay == .none && model.cursor == 0)
        _ = UpdateTests.press(.character("i"), on: &model)
        #expect(model.overlay == .card)
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("i"), on: &model)
        #expect(UpdateTests.press(.character("q"), on: &model) == [.quit] && model.quitRequested)
    }

    @Test("a lesson without a header comment opens on the screen, and i says why there is no card")
    func noCard() {
        var model = Self.model("thread T\n  port K in default\n  run default for 1s").openingCard()
        #expect(model.overlay == .none)
        _ = UpdateTests.press(.character("i"), on: &model)
        #expect(model.overlay == .none)
        #expect(model.flash?.text == "this lesson has no card: its file starts with no # comment")
    }

    @Test(
        "the card at 80×24 and 132×43, in English and in Chinese", arguments: [(80, 24), (132, 43)], Language.allCases)
    func card(_ size: (Int, Int), _ language: Language) {
        let model = Self.model(language: language, width: size.0, height: size.1).openingCard()
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/card-default-\(size.0)x\(size.1)-\(language).screen",
            target: "loopvizTests")
    }

    @Test("a long lesson's card keeps Watch for and Try at 80×24, cutting the longest part at a word")
    func longCard() {
        let model = Self.model(Self.lesson("03-tasks-on-a-kept-alive-thread.loop"), language: .zh).openingCard()
        let text = RenderTests.text(model)
        Snapshot.assertMatches(text, "Screens/card-03-80x24-zh.screen", target: "loopvizTests")
        #expect(text.contains("看点") && text.contains("试试"))
    }

    @Test("Chinese narration at 80×24: the Why pane's header and a note's Why in Chinese, the chrome in English")
    func chineseNarration() {
        var model = Self.model(Self.lesson("03-tasks-on-a-kept-alive-thread.loop"), language: .zh)
        let note = model.trace.firstIndex { $0.kind == .note && $0.loop == "main" }!
        model.cursor = note + 1
        model.furthest = model.cursor
        let text = RenderTests.text(model)
        Snapshot.assertMatches(text, "Screens/narration-03-80x24-zh.screen", target: "loopvizTests")
        #expect(text.contains("main：upload2 完成了（waitUntilDone 已返回）"))
        // Every row is exactly as wide as the screen, however many of its characters are wide.
        for row in render(model).lines { #expect(DisplayWidth.columns(row) <= 80, "\(row)") }
    }

    @Test("a zh line replaces the English line on the same event; an English line with none is the fallback")
    func fallback() {
        let source = """
            thread T
              port K in default
              run default for 100ms
            say "enters" after entry
            say "sleeps" after sleep
            say zh "睡了" after sleep
            """
        let english = Self.model(source)
        let chinese = Self.model(source, language: .zh)
        let entry = english.trace.firstIndex { $0.kind == .entry }! + 1
        let sleep = english.trace.firstIndex { $0.kind == .sleep }! + 1
        #expect(english.session.narration(shownUpTo: entry) == "enters")
        #expect(chinese.session.narration(shownUpTo: entry, in: .zh) == "enters")
        #expect(english.session.narration(shownUpTo: sleep) == "sleeps")
        #expect(chinese.session.narration(shownUpTo: sleep, in: .zh) == "睡了")
    }

    @Test("every say zh line of the Chinese lessons is tied to the same event as the English line it follows")
    func translatedLessonsAnchorAlike() throws {
        let files = [
            "01-empty-mode-exits.loop", "02-port-keeps-thread-alive.loop", "03-tasks-on-a-kept-alive-thread.loop",
            "04-runloop-run-cannot-be-stopped.loop", "05-while-not-flag-fix.loop", "14-timer-and-tracking-mode.loop",
            "18-upload-pool.loop",
        ]
        for source in files.map(Self.lesson) + [DefaultLesson.text] {
            let script = try ScenarioParser.parse(source)
            let card = script.card
            #expect(card.words[.zh]?.watchFor != nil && card.words[.zh]?.tryThis != nil)
            #expect(card.words[.zh]?.teaches.isEmpty == false)
            let zh = script.narration.filter { $0.language == .zh }
            let en = script.narration.filter { $0.language == .en }
            #expect(zh.count == en.count && !zh.isEmpty)
            for (chinese, english) in zip(zh, en) {
                switch (chinese.anchor, english.anchor) {
                case (.after(let a), .after(let b)):
                    var a = a
                    a.line = b.line
                    #expect(a == b)
                default: #expect(chinese.anchor == english.anchor)
                }
            }
        }
    }
}

/// `--lang`: en or zh, else the locale's language.
@Suite("--lang picks the lesson's language")
struct LanguageOptionTests {
    @Test("--lang zh and en win over the locale; without it the locale decides; another value is a usage error")
    func values() throws {
        let chinese = ["LANG": "zh_CN.UTF-8"]
        let given = try ArgumentScanner(["--lang", "en"], options: [LanguageOption.declaration])
        #expect(try LanguageOption.value(in: given, environment: chinese) == .en)
        let none = try ArgumentScanner([], options: [LanguageOption.declaration])
        #expect(try LanguageOption.value(in: none, environment: chinese) == .zh)
        #expect(try LanguageOption.value(in: none, environment: ["LANG": "C"]) == .en)
        let bad = try ArgumentScanner(["--lang", "fr"], options: [LanguageOption.declaration])
        #expect(throws: CommandLineProblem.notALanguage("fr")) {
            try LanguageOption.value(in: bad, environment: [:])
        }
    }
}
