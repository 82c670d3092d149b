import LoopEngine
import Testing

@testable import loopviz

/// The end-of-lesson summary through `update`: when it opens, what it checked (with `loopviz check`'s checker),
/// what the pokes changed, and its keys.
@Suite("the summary at a lesson's last step")
struct SummaryUpdateTests {
    typealias F = LibraryFixture

    /// The model after `g` to the last event: the last step.
    static func atEnd(_ model: inout AppModel) {
        _ = F.press(.character("g"), on: &model)
        _ = F.type(String(model.trace.count), on: &model)
        _ = F.press(.enter, on: &model)
    }

    static func summary(_ model: AppModel) -> LessonSummary? {
        if case .summary(let summary) = model.overlay { return summary }
        return nil
    }

    @Test("reaching the last step opens the summary: every expect line held, the card's Try again")
    func opensAtTheEnd() throws {
        var model = F.model()
        _ = F.press(.character("n"), on: &model)
        #expect(model.overlay == .none)
        Self.atEnd(&model)
        let summary = try #require(Self.summary(model))
        #expect(summary.title == "One timer, one run")
        #expect(
            summary.sections == [
                .init(
                    mode: .inOrder, line: 16,
                    lines: [
                        .init(verdict: .held, text: "0.100 timer tick", line: 17),
                        .init(verdict: .held, text: "result timedOut", line: 18),
                    ], report: [], ranOn: false)
            ])
        #expect(summary.pokes.isEmpty && summary.lessonRunHolds == nil)
        #expect(
            summary.tries == ["press f to fire the timer at once, or w to wake the loop: the run still ends at 300 ms."]
        )
    }

    @Test("a say line whose claim this run does not keep is listed with check's report; a kept one is not")
    func narrationClaims() throws {
        let lesson =
            F.oneTimer + "\n\n" + """
                say "tick fires, then the run times out" after timer tick
                  claims next result timedOut
                say "the run is stopped" after timer tick
                  claims next result stopped
                """
        var model = F.model(lesson, width: 100, height: 40)
        Self.atEnd(&model)
        let summary = try #require(Self.summary(model))
        #expect(
            summary.claimReport == [
                "say (line 22) \"the run is stopped\", shown from step 10 (0.100 timer tick):",
                "  - claims next result stopped   (line 23)",
                "  + the next result is step 19: 0.3000015 result timedOut",
            ])
        let layout = SummaryLayout(summary, width: 100, height: 40, glyphs: Glyphs(theme: model.theme))
        let shown = layout.lines.map(\.0)
        let header = try #require(
            shown.firstIndex { $0.hasSuffix(" Narration this run does not keep (claims under say lines):") })
        #expect(
            Array(shown[(header + 1)...].prefix(3)) == [
                "  say (line 22) \"the run is stopped\", shown from step 10 (0.100 timer tick):",
                "  - claims next result stopped (line 23)",
                "  + the next result is step 19: 0.3000015 result timedOut",
            ])
        // Without a false line the summary is what it was.
        var kept = F.model()
        Self.atEnd(&kept)
        #expect(try #require(Self.summary(kept)).claimReport.isEmpty)
    }

    @Test("playing to the end opens it too")
    func playingOpensIt() {
        var model = F.model()
        model.speedIndex = AppModel.speeds.count - 1
        for _ in 0..<10 { _ = updateInline(&model, .tick(seconds: 0.1)) }
        #expect(model.cursor == model.trace.count)
        #expect(Self.summary(model) != nil)
    }

    @Test(
        "after a poke the summary says which lines differ, that the pokes changed the run, and that the lesson's own run holds"
    )
    func pokesChangeTheRun() throws {
        var model = F.model()
        // Fire the timer (item 2) right after the run starts: it fires at once, never at 100 ms.
        _ = F.press(.character("g"), .character("2"), .enter, .character("2"), .character("f"), on: &model)
        Self.atEnd(&model)
        let summary = try #require(Self.summary(model))
        #expect(summary.pokes == ["fire tick"])
        #expect(summary.lessonRunHolds == true)
        let lines = summary.sections[0].lines
        #expect(lines.map(\.verdict) == [.differs, .unchecked])
        #expect(summary.differing == 1 && summary.unchecked == 1)
        // The checker's own report, as `loopviz check` prints it.
        let failure = try #require(model.session.script.expectations[0].failure(in: model.trace))
        #expect(summary.sections[0].report == failure.report.split(separator: "\n").dropFirst().map(String.init))
        #expect(summary.sections[0].report.first == "  - 0.100 timer tick   (line 17)")
    }

    @Test("Esc closes it and it stays closed; a step back and forth brings it back")
    func escapeAndReturn() {
        var model = F.model()
        Self.atEnd(&model)
        _ = F.press(.escape, on: &model)
        #expect(model.overlay == .none)
        _ = F.press(.character("n"), on: &model)
        #expect(model.overlay == .none)
        _ = F.press(.character("p"), on: &model)
        #expect(model.overlay == .none && model.cursor == model.trace.count - 1)
        _ = F.press(.character("n"), on: &model)
        #expect(Self.summary(model) != nil)
    }

    @Test("another key closes the summary and does what it does; the lesson keys act from it")
    func keysFromTheSummary() {
        var model = F.model()
        Self.atEnd(&model)
        let end = model.cursor
        _ = F.press(.character("p"), on: &model)
        #expect(model.overlay == .none && model.cursor == end - 1)
        _ = F.press(.character("n"), on: &model)
        #expect(
            F.press(.character("}"), on: &model) == [
                .openLesson(LessonRequest(index: 1, path: "lessons/02-source.loop"))
            ])
        #expect(model.overlay == .none)
        Self.atEnd(&model)
        #expect(Self.summary(model) == nil, "shown when the cursor arrives, not while it stays")
        _ = F.press(.character("p"), .character("n"), .character("q"), on: &model)
        #expect(model.quitRequested)
    }

    @Test("the summary scrolls within its lines at 80×24, and a lesson without expect says there is nothing to check")
    func scrollAndNoExpect() throws {
        var model = F.model(F.plain, current: 1)
        Self.atEnd(&model)
        var summary = try #require(Self.summary(model))
        #expect(summary.sections.isEmpty)
        let text = RenderTests.text(model)
        #expect(text.contains("This lesson has no expect section: nothing to check."))
        // Lesson 07 has 15 expect lines: more than the box at 80×24.
        var long = F.model(try String(contentsOfFile: F.examples + "/07-source0-needs-a-wakeup.loop", encoding: .utf8))
        Self.atEnd(&long)
        summary = try #require(Self.summary(long))
        #expect(summary.lineCount == 15)
        _ = F.press(.pageDown, .pageDown, .pageDown, on: &long)
        let scrolled = try #require(Self.summary(long))
        let layout = SummaryLayout(scrolled, width: 80, height: 24, glyphs: Glyphs(theme: long.theme))
        #expect(scrolled.scroll == layout.lines.count - (layout.visibleRows ?? 0))
        let rows = layout.visibleRows ?? 0
        #expect(
            RenderTests.text(long).contains(
                "end: ↑ k or PgUp back  (lines \(layout.lines.count - rows + 1)-\(layout.lines.count) of \(layout.lines.count))"
            ))
        _ = F.press(.home, on: &long)
        #expect(Self.summary(long)?.scroll == 0)
        _ = F.press(.end, on: &long)
        #expect(Self.summary(long)?.scroll == scrolled.scroll)
        _ = F.press(.up, on: &long)
        #expect(Self.summary(long)?.scroll == scrolled.scroll - 1)
    }

    @Test("a trace replay and the real clock have no summary")
    func noSummaryWithoutALesson() {
        let script = try! ScenarioParser.parse(F.oneTimer, file: "x.loop")
        var live = AppModel(session: Session(liveScript: script), fileName: "x.loop")
        _ = updateInline(&live, .live(events: Array(Session(script: script).trace), dropped: 0, ended: true))
        _ = F.press(.character("n"), on: &live)
        #expect(live.cursor == live.trace.count && live.overlay == .none)
    }
}

/// Claims are judged one by one in the summary, as `loopviz check` judges them: a failing claim does not leave
/// the claims after it unjudged.
@Suite("the summary's claims")
struct SummaryClaimTests {
    typealias F = LibraryFixture

    static let claims = """
        scenario "One timer, three claims"

        thread T
          port keepAlive in default
          timer tick at 100ms in default
          run default for 300ms

        expect
          timer tick 2 times
          timer tick once
          never result timedOut
          result timedOut
        """

    @Test("each claim gets its own verdict: the first and third differ, the second and fourth hold")
    func eachClaimJudged() throws {
        var model = F.model(Self.claims)
        SummaryUpdateTests.atEnd(&model)
        let summary = try #require(SummaryUpdateTests.summary(model))
        #expect(summary.sections.map(\.mode) == [.claims])
        #expect(summary.sections[0].lines.map(\.verdict) == [.differs, .held, .differs, .held])
        #expect(summary.differing == 2 && summary.unchecked == 0)
        let failure = try #require(model.session.script.expectations[0].failure(in: model.trace))
        #expect(failure.failedSteps == [0, 2])
        #expect(failure.report.hasPrefix("expect (line 8): 2 claims do not hold"))
    }
}
