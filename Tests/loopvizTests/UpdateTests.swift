import LoopEngine
import Testing

@testable import loopviz

/// The UI's `update`, key by key, without a terminal.
@Suite("the UI reacts to every key")
struct UpdateTests {
    static func model(width: Int = 80, height: Int = 24) -> AppModel {
        let script = try! ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        var model = AppModel(session: Session(script: script), fileName: DefaultLesson.fileName)
        _ = updateInline(&model, .resize(width: width, height: height))
        return model
    }

    static func press(_ keys: Key..., on model: inout AppModel) -> [Effect] {
        keys.flatMap { updateInline(&model, .key($0)) }
    }

    @Test("space pauses and resumes")
    func spaceTogglesPause() {
        var model = Self.model()
        #expect(!model.isPaused)
        _ = Self.press(.character(" "), on: &model)
        #expect(model.isPaused && model.playback == .paused)
        _ = Self.press(.character(" "), on: &model)
        #expect(!model.isPaused)
    }

    @Test("n and → step forward one event, p and ← step back; stepping pauses")
    func stepping() {
        var model = Self.model()
        _ = Self.press(.character("n"), .right, .character("n"), on: &model)
        #expect(model.cursor == 3 && model.isPaused)
        _ = Self.press(.character("p"), .left, on: &model)
        #expect(model.cursor == 1)
        #expect(model.playback == .paused)
        _ = Self.press(.left, .left, on: &model)
        #expect(model.cursor == 0)
    }

    @Test("] and [ jump to the next and previous iteration")
    func iterationJumps() {
        var model = Self.model()
        _ = Self.press(.character("]"), on: &model)
        #expect(model.currentEvent?.kind == .beforeTimers)
        let first = model.cursor
        _ = Self.press(.character("]"), on: &model)
        #expect(model.currentEvent?.kind == .beforeTimers && model.cursor > first)
        _ = Self.press(.character("["), on: &model)
        #expect(model.cursor == first)
    }

    @Test("+ and - change the speed within its range")
    func speed() {
        var model = Self.model()
        let start = model.speedIndex
        _ = Self.press(.character("+"), on: &model)
        #expect(model.speedIndex == start + 1)
        for _ in 0..<20 { _ = Self.press(.character("-"), on: &model) }
        #expect(model.speedIndex == 0)
        for _ in 0..<20 { _ = Self.press(.character("+"), on: &model) }
        #expect(model.speedLabel == "real time")
    }

    @Test("g opens the go-to prompt; digits and Enter jump; Esc cancels")
    func goTo() {
        var model = Self.model()
        _ = Self.press(.character("g"), .character("1"), .character("2"), on: &model)
        #expect(model.overlay == .goTo("12"))
        _ = Self.press(.backspace, .character("5"), .enter, on: &model)
        #expect(model.cursor == 15 && model.overlay == .none)
        _ = Self.press(.character("g"), .character("9"), .escape, on: &model)
        #expect(model.cursor == 15 && model.overlay == .none)
    }

    @Test("Tab and Shift-Tab move the focus round the panels")
    func focus() {
        var model = Self.model()
        let start = model.focus
        _ = Self.press(.tab, on: &model)
        #expect(model.focus != start)
        _ = Self.press(.backTab, on: &model)
        #expect(model.focus == start)
    }

    @Test("arrows, j/k and page keys scroll the log, never below the newest line")
    func scrolling() {
        var model = Self.model()
        _ = Self.press(.up, .character("k"), .pageUp, .character("h"), on: &model)
        #expect(model.logScroll == 22)
        _ = Self.press(.down, .character("j"), .pageDown, .character("l"), .pageDown, on: &model)
        #expect(model.logScroll == 0)
    }

    @Test("v switches between Apple's documented steps and what CF really does")
    func cycleView() {
        var model = Self.model()
        #expect(model.cycleView == .implementation)
        _ = Self.press(.character("v"), on: &model)
        #expect(model.cycleView == .documented)
    }

    @Test("? opens the help, Esc closes it, Esc alone never quits")
    func helpAndEscape() {
        var model = Self.model()
        _ = Self.press(.character("?"), on: &model)
        #expect(model.overlay == .help)
        #expect(Self.press(.escape, on: &model).isEmpty)
        #expect(model.overlay == .none)
        #expect(Self.press(.escape, .escape, on: &model).isEmpty)
        #expect(!model.quitRequested)
    }

    @Test("q quits, also from the help and on a too-small screen")
    func quit() {
        var model = Self.model()
        #expect(Self.press(.character("q"), on: &model) == [.quit])
        var small = Self.model(width: 40, height: 10)
        #expect(small.isTooSmall)
        #expect(Self.press(.character("n"), on: &small).isEmpty && small.cursor == 0)
        #expect(Self.press(.character("q"), on: &small) == [.quit])
    }

    @Test("digits select items of the loop")
    func selection() {
        var model = Self.model()
        _ = Self.press(.character("3"), on: &model)
        #expect(model.selectedItem == 2 && model.items[2].name == "work")
        _ = Self.press(.character("9"), on: &model)
        #expect(model.selectedItem == 2 && model.flash?.text == "no item 9 (1-5)")
    }

    @Test("e and E select the next and previous item, round the list: any item, not only the first nine")
    func nextAndPreviousItem() {
        var model = Self.model()
        for key in ["a", "A", "O", "a", "A"] { _ = Self.press(.character(Character(key)), on: &model) }
        #expect(model.items.count == 10)
        for _ in 0..<9 { _ = Self.press(.character("e"), on: &model) }
        #expect(model.selectedItem == 9 && model.flash?.text == "selected 10 source5")
        _ = Self.press(.character("e"), on: &model)
        #expect(model.selectedItem == 0 && model.flash?.text == "selected 1 keepAlive")
        _ = Self.press(.character("E"), on: &model)
        #expect(model.selectedItem == 9)
        // The 10th item is the target of the item keys: r removes source5.
        _ = Self.press(.character("r"), on: &model)
        #expect(model.session.interventions.last?.label == "invalidate source5")
    }

    @Test("g outside the events shows the nearest and says so")
    func goToOutside() {
        var model = Self.model()
        _ = Self.press(.character("g"), .character("0"), .enter, on: &model)
        #expect(model.cursor == 1)
        #expect(model.flash?.text == "no event 0: events are numbered 1-\(model.trace.count); showing event 1")
        _ = Self.press(.character("g"), .character("-"), .character("5"), .enter, on: &model)
        #expect(model.flash?.text == "no event -5: events are numbered 1-\(model.trace.count); showing event 1")
        _ = Self.press(
            .character("g"), .character("9"), .character("9"), .character("9"), .character("9"), .character("9"),
            .character("9"), .enter, on: &model)
        #expect(model.cursor == model.trace.count && model.session.canExtend)
        #expect(model.flash?.text == "no event 999999: there are \(model.trace.count) events so far; showing the last")
        _ = Self.press(.character("g"), .character("2"), .enter, on: &model)
        #expect(model.cursor == 2 && model.flash?.text == nil)
    }

    @Test("[ with no earlier iteration stays where it is and says so")
    func noEarlierIteration() {
        var model = Self.model()
        _ = Self.press(.character("g"), .character("3"), .enter, .character("["), on: &model)
        #expect(model.cursor == 3 && model.flash?.text == "no earlier iteration: g 1 goes to the first event")
    }

    /// Plays to `milliseconds` of virtual time (the loop asleep), presses `keys`, and returns the trace from there.
    static func poke(at milliseconds: Int, _ keys: Key...) -> (AppModel, [LoopEvent]) {
        var model = Self.model()
        let time = LoopInstant.zero + .milliseconds(milliseconds)
        while model.cursor < model.trace.count && model.trace[model.cursor].time < time {
            _ = Self.press(.character("n"), on: &model)
        }
        model.playClock = time
        let before = model.cursor
        for key in keys { _ = updateInline(&model, .key(key)) }
        return (model, Array(model.trace[before...]))
    }

    @Test("s signals the selected source0 and wakes the loop: it runs at once")
    func signalAndWake() {
        let (model, after) = Self.poke(at: 150, .character("3"), .character("s"))
        #expect(model.session.interventions.map(\.label) == ["signal work + wake up"])
        let steps = after.prefix(12).map(\.step)
        #expect(steps.contains("signal work") && steps.contains("source0 work"))
    }

    @Test("S signals without a wake-up: nothing runs until the timer wakes the loop")
    func signalOnly() {
        let (_, after) = Self.poke(at: 150, .character("3"), .character("S"))
        let perform = after.first { $0.kind == .source0 }
        // The timer wakes it at 0.620 and fires; the source0 runs in the next iteration, one iteration cost later.
        #expect(perform?.time == LoopInstant.zero + .milliseconds(620) + VirtualWorld.defaultIterationCost)
    }

    @Test("o sends to the selected port; it wakes the loop by itself")
    func sendMessage() {
        let (_, after) = Self.poke(at: 150, .character("4"), .character("o"))
        #expect(after.first { $0.kind == .source1 }?.name == "net")
        #expect(after.first { $0.kind == .source1 }!.time < .zero + .milliseconds(200))
    }

    @Test("f fires the timer now")
    func fireTimer() {
        let (_, after) = Self.poke(at: 150, .character("2"), .character("f"))
        #expect(after.first { $0.kind == .timer }!.time < .zero + .milliseconds(200))
    }

    @Test("w wakes the loop for an empty cycle; x stops the run")
    func wakeAndStop() {
        let (_, woken) = Self.poke(at: 150, .character("w"))
        #expect(woken.first { $0.kind == .wake }?.detail == "wakeUp")
        let (_, stopped) = Self.poke(at: 150, .character("x"))
        #expect(stopped.contains { $0.kind == .result && $0.name == "stopped" })
    }

    @Test("b queues a block that waits for the next wake-up; m scrolls (a nested Tracking run); N nests a run")
    func blocksAndNestedRuns() {
        let (_, block) = Self.poke(at: 150, .character("b"))
        #expect(block.first { $0.kind == .block }!.time >= .zero + .milliseconds(600))
        let (_, scroll) = Self.poke(at: 150, .character("m"))
        #expect(scroll.contains { $0.kind == .runStart && $0.name == "Tracking" && $0.depth == 2 })
        let (_, nested) = Self.poke(at: 150, .character("N"))
        #expect(nested.contains { $0.kind == .runStart && $0.depth == 2 })
    }

    @Test("a, A and O add a timer, a source and an observer; r invalidates the selected item")
    func addAndRemove() {
        var (model, after) = Self.poke(at: 150, .character("a"))
        #expect(after.contains { $0.kind == .timer && $0.name == "timer1" })
        (model, after) = Self.poke(at: 150, .character("A"), .character("O"))
        #expect(model.items.map(\.name).suffix(2) == ["source1", "observer2"])
        #expect(after.contains { $0.kind == .observer && $0.name == "observer2" })
        (model, after) = Self.poke(at: 150, .character("2"), .character("r"))
        #expect(!after.contains { $0.kind == .timer })
    }

    @Test("playing advances by the speed; real time follows the virtual clock")
    func playback() {
        var model = Self.model()
        _ = updateInline(&model, .tick(seconds: 1))
        #expect(model.cursor == 4)
        while model.speedLabel != "real time" { _ = Self.press(.character("+"), on: &model) }
        _ = updateInline(&model, .tick(seconds: 0.5))
        #expect(model.now <= .zero + .milliseconds(500))
        #expect(model.trace[model.cursor].time > .zero + .milliseconds(500))
    }
}
