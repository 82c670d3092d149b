import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// Presenter mode, key by key (pure `update`), its layout, and its screens at 80×24 and 132×43.
@Suite("presenter mode: larger Why, panels one by one, next narration, pokes locked")
struct PresenterTests {
    static func press(_ keys: Key..., on model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(key)) }
    }

    static func statusLine(_ model: AppModel) -> String { render(model).lines[model.height - 1] }

    @Test("D turns presenter mode on with the pokes locked: a poke is refused and says so; U unlocks; D again off")
    func locksPokes() {
        var model = UpdateTests.model()
        Self.press(.character(" "), .character("D"), on: &model)
        #expect(model.classroom.presenter.isOn && model.classroom.presenter.pokesLocked)
        Self.press(
            .character("g"), .character("4"), .character("4"), .enter, .character("2"), .character("f"), on: &model)
        #expect(model.session.interventions.isEmpty)
        #expect(model.flash?.text == "pokes locked: U unlocks them")
        #expect(Self.statusLine(model).contains("pokes locked: U unlocks them"))
        Self.press(.character("x"), .character("s"), .character("o"), on: &model)
        #expect(model.session.interventions.isEmpty)
        Self.press(.character("U"), on: &model)
        #expect(!model.classroom.presenter.pokesLocked && model.flash?.text == "pokes unlocked: U locks them again")
        #expect(Self.statusLine(model).hasPrefix(" PAUSED PRESENTER [U] unlocked  pokes unlocked"))
        Self.press(.character("f"), on: &model)
        #expect(model.session.interventions.map(\.label) == ["fire tick"])
        Self.press(.character("D"), on: &model)
        #expect(!model.classroom.presenter.isOn && model.flash?.text == "presenter mode off")
        // Outside presenter mode U says where it works.
        Self.press(.character("U"), on: &model)
        #expect(model.flash?.text == "pokes are only locked in presenter mode (D)")
    }

    @Test("the status bar echoes the last key pressed in presenter mode, and says the pokes are locked")
    func echoesKeys() {
        var model = UpdateTests.model()
        Self.press(.character(" "), .character("D"), .character("n"), on: &model)
        #expect(model.classroom.presenter.lastKey == .character("n"))
        #expect(Self.statusLine(model).hasPrefix(" PAUSED PRESENTER [n] locked (U)   4 steps/s  t=0.000s"))
        Self.press(.right, on: &model)
        #expect(Self.statusLine(model).contains("PRESENTER [→] locked (U)"))
        Self.press(.character(" "), on: &model)
        #expect(Self.statusLine(model).contains("PRESENTER [Space] locked (U)"))
        // Off, nothing is echoed.
        Self.press(.character("D"), .character("n"), on: &model)
        #expect(model.classroom.presenter.lastKey == nil && !Self.statusLine(model).contains("PRESENTER"))
    }

    @Test("z hides the focused panel, Tab picks it, Z shows them again one by one; outside presenter mode z says so")
    func panelsOneByOne() {
        var model = UpdateTests.model()
        Self.press(.character("z"), on: &model)
        #expect(model.flash?.text == "panels are hidden in presenter mode (D)")
        Self.press(.character("D"), on: &model)
        #expect(model.focus == .log)
        Self.press(.character("z"), on: &model)
        #expect(model.classroom.presenter.hidden == [.log] && model.flash?.text == "log hidden (Z shows it again)")
        #expect(model.focus == .cycle)
        Self.press(.character("z"), .tab, .character("z"), on: &model)
        #expect(model.classroom.presenter.hidden == [.log, .cycle, .mode])
        Self.press(.character("Z"), on: &model)
        #expect(model.classroom.presenter.hidden == [.log, .cycle] && model.flash?.text == "mode shown")
        Self.press(.character("Z"), .character("Z"), .character("Z"), on: &model)
        #expect(model.classroom.presenter.hidden.isEmpty && model.flash?.text == "every panel is shown")
    }

    @Test("d and Enter play to the next narration and pause there; past the last one they say so")
    func nextNarration() {
        var model = UpdateTests.model()
        Self.press(.character(" "), .character("d"), on: &model)
        #expect(!model.isPaused && model.classroom.playUntil == 14)
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        // `say … after sleep`: the first sleep is event 14.
        #expect(model.cursor == 14 && model.isPaused && model.currentEvent?.kind == .sleep)
        #expect(model.classroom.playUntil == nil && model.playback == .paused)
        Self.press(.enter, on: &model)
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        #expect(model.cursor == 15 && model.currentEvent?.kind == .wake && model.isPaused)
        Self.press(.character("g"), .character("9"), .character("9"), .character("9"), .enter, on: &model)
        model.session.horizon = .seconds(4)
        model.session.recompute()
        model.cursor = model.trace.count
        Self.press(.character("d"), on: &model)
        #expect(model.flash?.text == "no narration after this step" && model.classroom.playUntil == nil)
    }

    @Test("the layout gives the Why a third of the screen, at least 7 rows, and leaves out what does not fit")
    func layout() {
        let small = PresenterLayout(width: 80, height: 24, threads: 1, hidden: [])
        #expect(small.cycle == Rect(x: 0, y: 1, width: 34, height: 12))
        #expect(small.loop == Rect(x: 34, y: 1, width: 46, height: 5))
        #expect(small.mode == Rect(x: 34, y: 6, width: 46, height: 7))
        #expect(small.timeline == Rect(x: 0, y: 13, width: 80, height: 3))
        #expect(small.log == nil && small.crowdedOut == [.log])
        #expect(small.why == Rect(x: 0, y: 16, width: 80, height: 7))
        let large = PresenterLayout(width: 132, height: 43, threads: 1, hidden: [])
        #expect(large.log == Rect(x: 0, y: 16, width: 132, height: 13) && large.crowdedOut.isEmpty)
        #expect(large.why == Rect(x: 0, y: 29, width: 132, height: 13))
        let onlyWhy = PresenterLayout(width: 80, height: 24, threads: 1, hidden: AppModel.Panel.allCases)
        #expect(onlyWhy.cycle == nil && onlyWhy.timeline == nil && onlyWhy.log == nil)
        #expect(onlyWhy.why == Rect(x: 0, y: 1, width: 80, height: 22))
        let right = PresenterLayout(width: 80, height: 24, threads: 1, hidden: [.cycle, .timeline])
        #expect(
            right.loop == Rect(x: 0, y: 1, width: 80, height: 5) && right.mode == Rect(x: 0, y: 6, width: 80, height: 7)
        )
        #expect(right.log == Rect(x: 0, y: 13, width: 80, height: 3))
    }

    @Test(
        "presenter screens at 80×24 and 132×43",
        arguments: [("80x24", 80, 24, ""), ("132x43", 132, 43, ""), ("80x24-why-only", 80, 24, "zzzzz")])
    func screens(_ name: String, _ width: Int, _ height: Int, _ hides: String) {
        var model = UpdateTests.model(width: width, height: height)
        Self.press(
            .character(" "), .character("D"), .character("g"), .character("2"), .character("6"), .enter, on: &model)
        for key in hides { Self.press(.character(key), on: &model) }
        let lines = render(model).lines
        #expect(lines.count == height && lines.allSatisfy { $0.count <= width })
        Snapshot.assertMatches(
            lines.joined(separator: "\n") + "\n", "Screens/presenter-\(name).screen", target: "loopvizTests")
    }
}
