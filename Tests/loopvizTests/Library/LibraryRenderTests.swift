import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The picker, the summary and a lesson that does not open, drawn at the projector's 80×24 and at 132×43;
/// re-record with `RECORD_SNAPSHOTS=1`.
@Suite("the lesson library draws its picker, summary and diagnostics")
struct LibraryRenderTests {
    typealias F = LibraryFixture

    @Test("the picker at 80×24 and 132×43", arguments: [(80, 24), (132, 43)])
    func picker(_ size: (Int, Int)) {
        var model = F.model(width: size.0, height: size.1)
        _ = F.press(.character("L"), .down, on: &model)
        let text = RenderTests.text(model)
        for entry in F.entries { #expect(text.contains(entry.title)) }
        Snapshot.assertMatches(text, "Screens/picker-\(size.0)x\(size.1).screen", target: "loopvizTests")
    }

    @Test("the picker filtering by a topic, at 80×24")
    func pickerFiltering() {
        var model = F.model()
        _ = F.press(.character("L"), .character("/"), on: &model)
        _ = F.type("ports", on: &model)
        let text = RenderTests.text(model)
        #expect(text.contains("/ ports_") && text.contains("1 of 3") && !text.contains("01  One timer, one run"))
        Snapshot.assertMatches(text, "Screens/picker-80x24-filter.screen", target: "loopvizTests")
    }

    @Test("the summary at 80×24 and 132×43", arguments: [(80, 24), (132, 43)])
    func summary(_ size: (Int, Int)) {
        var model = F.model(width: size.0, height: size.1)
        SummaryUpdateTests.atEnd(&model)
        let text = RenderTests.text(model)
        #expect(text.contains("✓ Every expect line held in this run (2 lines)."))
        Snapshot.assertMatches(text, "Screens/summary-\(size.0)x\(size.1).screen", target: "loopvizTests")
    }

    @Test("the summary after a poke, at 80×24: the line that differs and the pokes")
    func summaryAfterPoke() {
        var model = F.model()
        _ = F.press(.character("g"), .character("2"), .enter, .character("2"), .character("f"), on: &model)
        SummaryUpdateTests.atEnd(&model)
        let text = RenderTests.text(model)
        #expect(text.contains("✗ 0.100 timer tick (line 17): this run differs here"))
        #expect(text.contains("You poked the run 1 time (fire tick)"))
        Snapshot.assertMatches(text, "Screens/summary-80x24-poked.screen", target: "loopvizTests")
    }

    @Test("a lesson that does not parse, at 80×24: its diagnostics and what to do")
    func problem() {
        var model = F.model()
        let request = LessonRequest(index: 2, path: "lessons/03-broken.loop")
        _ = updateInline(&model, .lessonOpened(F.opened(request, "scenario \"x\"\nthread T\n  bogus 1\n")))
        let text = RenderTests.text(model)
        #expect(text.contains("lessons/03-broken.loop:3:3: error:"))
        Snapshot.assertMatches(text, "Screens/problem-80x24.screen", target: "loopvizTests")
    }
}
