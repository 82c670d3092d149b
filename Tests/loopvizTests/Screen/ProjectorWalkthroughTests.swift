import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The findings of the new-user walk-through (docs/audits): what a student sees at 80×24 and 132×43 agrees with
/// the run, reaches its last line and keeps its instruction.
@Suite("the screen on a projector: what it says agrees with the run and can be read to its end")
struct ProjectorWalkthroughTests {
    static func timelineRow(_ model: AppModel, thread: String = "worker") -> String {
        render(model).lines.first { $0.hasPrefix(thread.padded(10)) } ?? ""
    }

    static func axisRow(_ model: AppModel, thread: String = "worker") -> String {
        let lines = render(model).lines
        guard let row = lines.firstIndex(where: { $0.hasPrefix(thread.padded(10)) }) else { return "" }
        return lines[row + 1]
    }

    @Test("the timeline draws the sleep up to the wake, then the port that woke the loop (step 60 at 132×43)")
    func sleepUpToTheWake() {
        let model = RenderTests.model(width: 132, height: 43, step: 60)
        // 20 ms a column: at 1.6 s (column 80) the afterWaiting observer's o, the timer's t one column late, the
        // observers of 1.62 s after it; event 55 sleeps at 1.62 s, event 57 wakes at 2.4 s for the port (column
        // 120, the last): asleep in every column between, then the port's p.
        let shown = model.trace.prefix(60)
        let sleep = shown.lastIndex { $0.kind == .sleep && $0.loop == "worker" }!
        let wake = shown.lastIndex { $0.kind == .wake && $0.loop == "worker" }!
        #expect(sleep == 54 && wake == 56 && model.trace[wake].time.description == "2.400")
        let row = Self.timelineRow(model)
        #expect(row.hasSuffix("oto" + String(repeating: "┄", count: 37) + "p"), "\(row)")
        #expect(!row.contains("━━"), "no second of the sleep is drawn awake: \(row)")
    }

    @Test("the callout at the current step is drawn in the last column, at any step (83 and 84 at 110×34)")
    func currentCalloutIsDrawn() {
        for step in [83, 84] {
            let model = RenderTests.model(width: 110, height: 34, step: step)
            let last = model.trace[step - 1]
            let row = Self.timelineRow(model)
            let window = TimelineWindow(end: model.now, columns: 110 - 11)
            #expect(window.column(of: last.time.nanoseconds) <= 98)
            #expect(row.contains("t"), "\(step): \(row)")
        }
        // Past the widest window (80×24, step 200): the window follows the step and its last second is asleep.
        let late = RenderTests.model(width: 80, height: 24, step: 200)
        let row = Self.timelineRow(late)
        #expect(!row.contains("━"), "\(row)")
    }

    @Test("the time axis is linear: round tick labels at their own columns, over the columns of the marks")
    func linearAxis() {
        let window = TimelineWindow(end: LoopInstant(nanoseconds: 1_340_003_000), columns: 69)
        #expect(window.bucket == 30_000_000 && window.start == 0)
        #expect(window.ticks.map(\.column) == [0, 10, 20, 30, 40, 50, 60])
        #expect(window.ticks.map(\.label) == ["0s", "0.3s", "0.6s", "0.9s", "1.2s", "1.5s", "1.8s"])
        let late = TimelineWindow(end: LoopInstant(nanoseconds: 13_600_000_000), columns: 69)
        #expect(late.bucket == 50_000_000 && late.column(of: 13_600_000_000) == 68)
        #expect(late.start == 10_200_000_000 && late.ticks.first?.column == 6 && late.ticks.first?.label == "10.5s")
        #expect(TimelineWindow.label(2_250_000_000) == "2.25s" && TimelineWindow.label(12_000_000_000) == "12s")
        let model = RenderTests.model(width: 80, height: 24, step: 40)
        #expect(Self.axisRow(model) == "          0s        0.3s      0.6s      0.9s      1.2s      1.5s      1.8s")
    }

    @Test("at step 0 the Why's first instruction matches the status bar: playing, Space pauses; paused, it plays")
    func firstInstructionAgrees() {
        var model = UpdateTests.model()
        model = model.openingCard()
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.playback == .playing && model.cursor == 0)
        #expect(
            whyText(model, explaining: nil)
                == "Nothing has happened yet: playing (Space pauses), n to step, ? for every key.")
        _ = UpdateTests.press(.character(" "), on: &model)
        #expect(model.playback == .paused)
        #expect(
            whyText(model, explaining: nil)
                == "Nothing has happened yet: press Space to play, n to step, ? for every key.")
    }

    @Test(
        "the status words: PLAYING, PAUSED, REWOUND behind the furthest step, END at the last, LIVE only on real threads"
    )
    func statusWords() {
        var model = UpdateTests.model()
        #expect(model.playback == .playing)
        _ = UpdateTests.press(.character("n"), .character("n"), .character("p"), .character(" "), on: &model)
        #expect(model.cursor == 1 && model.furthest == 2 && model.playback == .rewound)
        #expect(LiveUpdateTests.model().playback == .live)
        var ended = LessonCardUITests.model(LessonCardUITests.lesson("07-source0-needs-a-wakeup.loop"))
        ended.isPaused = false
        ended.cursor = ended.trace.count
        #expect(ended.playback == .ended && !ended.session.canExtend)
        let help = helpLines(.loop, Glyphs(theme: .init())).map(\.0)
        for word in ["PLAYING", "PAUSED", "REWOUND", "LIVE", "END", "REC", "12/37+", "t=1.5s"] {
            #expect(help.contains { $0.hasPrefix("  " + word + " ") }, "\(word)")
        }
        #expect(help.contains("          are the iteration cost (docs/limits.md)"))
    }

    @Test("a status message keeps its instruction at 80 columns: the reason is the part cut, at a word")
    func statusMessageKeepsItsInstruction() {
        let message = StatusMessage(
            "s needs a version-0 source: select 3 first", detail: "item 2 tick is a timer")
        #expect(message.text == "s needs a version-0 source: select 3 first (item 2 tick is a timer)")
        #expect(message.fitted(60, ellipsis: "…") == "s needs a version-0 source: select 3 first (item 2 tick is…)")
        #expect(message.fitted(50, ellipsis: "…") == "s needs a version-0 source: select 3 first")
        var model = PokeTests.lesson(at: 41)
        _ = updateInline(&model, .resize(width: 80, height: 24))
        PokeTests.type("2s", &model)
        let bar = render(model).lines.last!
        #expect(bar == " PAUSED  s needs a version-0 source: select 3 first (item 2 tick is a timer)")
    }

    @Test("a lesson card taller than 80×24 scrolls to its last line, saying what lies below and where it is")
    func cardScrolls() {
        var model = LessonCardUITests.model(LessonCardUITests.lesson("18-upload-pool.loop")).openingCard()
        let layout = model.cardLayout!
        let rows = layout.visibleRows!
        #expect(layout.lines.count > rows)
        var text = RenderTests.text(model)
        #expect(
            text.contains(
                "↓ \(layout.lines.count - rows) more below: j or PgDn  (lines 1-\(rows) of \(layout.lines.count))"))
        for _ in 0..<layout.lines.count { _ = UpdateTests.press(.character("j"), on: &model) }
        #expect(model.overlay == .card && model.cardScroll == layout.lines.count - rows)
        text = RenderTests.text(model)
        let lastLine = layout.lines.last!.text
        #expect(text.contains(lastLine), "the card's last line is reachable")
        #expect(
            text.contains("end: ↑ k or PgUp back  (lines \(layout.lines.count - rows + 1)-\(layout.lines.count) of"))
        Snapshot.assertMatches(text, "Screens/card-18-80x24-end.screen", target: "loopvizTests")
        _ = UpdateTests.press(.pageUp, .character("k"), on: &model)
        #expect(model.cardScroll == max(0, layout.lines.count - rows - (rows - 1) - 1))
        _ = UpdateTests.press(.character("x"), on: &model)
        #expect(model.overlay == .none && model.session.interventions.isEmpty, "any other key only closes it")
    }

    @Test("{ and } on an open card move one lesson with one press; ? opens the help")
    func lessonKeysOnACard() {
        var model = LibraryFixture.model(current: 1).openingCard()
        model.overlay = .card
        #expect(UpdateTests.press(.character("}"), on: &model) == [.openLesson(model.library.request(2))])
        model.overlay = .card
        #expect(UpdateTests.press(.character("{"), on: &model) == [.openLesson(model.library.request(0))])
        model.overlay = .card
        _ = UpdateTests.press(.character("?"), on: &model)
        #expect(model.overlay == .help)
    }

    @Test("a stop issued before a nested run marks the outer run only: the nested run's own flag stays clear")
    func stopFlagPerRun() throws {
        let source = """
            thread T
              port keepAlive in default
              timer late at 10ms in default
                stop
                run default for 100ms
              run default for 300ms
            """
        let script = try ScenarioParser.parse(source, file: "nested-stop.loop")
        var model = AppModel(session: Session(script: script), fileName: "nested-stop.loop")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        model.isPaused = true
        let nested = model.trace.firstIndex { $0.kind == .runStart && $0.depth == 2 }!
        model.cursor = nested + 2
        let loop = model.session.snapshots(after: model.cursor).first { $0.thread == "T" }!
        #expect(loop.runs.map(\.stopPending) == [true, false] && !loop.pendingStop)
        let lines = render(model).lines
        #expect(lines[2].contains("mode default (stop ●) > default"), "\(lines[2])")
        #expect(lines[5].contains("depth 2  pending stop ○  pending wake-up ○"), "\(lines[5])")
        let results = model.trace.filter { $0.kind == .result }.map { $0.name ?? "" }
        #expect(results == ["timedOut", "stopped"])
        Snapshot.assertMatches(RenderTests.text(model), "Screens/nested-stop-80x24.screen", target: "loopvizTests")
        _ = updateInline(&model, .resize(width: 132, height: 43))
        Snapshot.assertMatches(RenderTests.text(model), "Screens/nested-stop-132x43.screen", target: "loopvizTests")
    }

    @Test("an item invalidated with r is no longer listed as in its mode")
    func invalidatedItem() {
        var model = PokeTests.lesson(at: 50)
        PokeTests.type("EEr", &model)
        #expect(model.session.interventions.map(\.label) == ["invalidate net"])
        _ = UpdateTests.press(.character("n"), on: &model)
        let lines = render(model).lines
        #expect(
            lines.contains { $0.contains("4 [invalidated] port net  no message") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("the items panel names the keys that select (e, E, 1-9), and a recording says it lists none")
    func itemHints() throws {
        let model = RenderTests.model(width: 80, height: 24, step: 40)
        #expect(render(model).lines[6].contains("items (e, E or 1-9 select)"))
        guard case .success(var replay) = UICommand.loadModel(RecordingTests.fixture.path) else {
            Issue.record("the recording does not load")
            return
        }
        _ = updateInline(&replay, .resize(width: 100, height: 30))
        replay.isPaused = true
        replay.cursor = 40
        let lines = render(replay).lines
        #expect(lines.contains { $0.contains("items (a recording lists no items)") })
        #expect(lines.last?.hasPrefix(" PAUSED  recording, read-only") == true, "\(lines.last ?? "")")
    }

    @Test("--clock real waits behind its card: the threads start when it closes, and R starts them again")
    func liveWaitsForItsCard() {
        let script = try! ScenarioParser.parse(DefaultLesson.text, file: DefaultLesson.fileName)
        var model = AppModel(session: Session(liveScript: script), fileName: DefaultLesson.fileName).openingCard()
        #expect(updateInline(&model, .resize(width: 80, height: 24)).isEmpty && !model.liveStarted)
        #expect(UpdateTests.press(.escape, on: &model) == [.startLive] && model.liveStarted)
        _ = updateInline(
            &model, .live(events: LiveUpdateTests.events([.entry, .beforeTimers]), dropped: 0, ended: false))
        #expect(model.trace.count == 2)
        #expect(UpdateTests.press(.character("R"), on: &model) == [.startLive])
        #expect(model.trace.isEmpty && model.cursor == 0)
        #expect(model.flash?.text == "started again on real threads from the start (R)")
        #expect(UpdateTests.press(.character("}"), on: &model).isEmpty)
        #expect(model.flash?.essential == "other lessons need the virtual clock")
    }

    @Test("an open quiz question hides the Why and the narration, which would give the answer away")
    func quizHidesTheWhy() throws {
        var model = QuizTests.lesson07()
        _ = UpdateTests.press(.character("G"), on: &model)
        #expect(model.flash?.text == "quiz: at the lesson's 2 questions (G again: every step)")
        while model.classroom.question == nil && model.cursor < model.trace.count {
            _ = UpdateTests.press(.character("n"), on: &model)
        }
        #expect(model.classroom.question != nil)
        #expect(currentNarration(model) == nil)
        #expect(
            whyText(model, explaining: model.cursor - 1)
                == "The Why of this step comes back once you answer the question (1-3): it would give the answer away.")
        // One question is one question.
        let one = try ScenarioParser.parse(
            "thread T\n  port K in default\n  run default for 100ms\nask \"what next?\" after entry\n", file: "a.loop")
        var single = AppModel(session: Session(script: one), fileName: "a.loop")
        _ = UpdateTests.press(.character("G"), on: &single)
        #expect(single.flash?.text == "quiz: at the lesson's 1 question (G again: every step)")
    }

    @Test("the picker does not repeat a title as what the lesson teaches")
    func pickerSkipsARepeatedTitle() {
        var model = LibraryFixture.model()
        model.library.entries[1].title = "One item, two loops"
        model.library.entries[1].teaches = "One item, two loops."
        model.overlay = .picker(LessonPicker())
        let lines = render(model).lines
        let row = lines.firstIndex { $0.contains("02  One item, two loops") }!
        #expect(!lines[row + 1].contains("One item"), "\(lines[row + 1])")
        #expect(lines.contains { $0.contains("A timer fires once, then the run times out") })
    }

    @Test("loopviz-demo --help prints its usage and writes no file named --help")
    func demoHelp() throws {
        let demo = LoopvizProcess.executable.deletingLastPathComponent().appendingPathComponent("loopviz-demo")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-help-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = demo
        process.arguments = ["--help"]
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && output.hasPrefix("usage: loopviz-demo OUT.jsonl\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}

extension ProjectorWalkthroughTests {
    @Test("a quiz box taller than the screen scrolls to its last line (the score and how to go on)")
    func quizScrolls() {
        var model = ThreadPickerTests.lesson("07-source0-needs-a-wakeup.loop", width: 80, height: 24)
        QuizTests.press(.character("G"), .character("d"), on: &model)
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        QuizTests.press(.character("3"), on: &model)
        // Shorter than the box's 13 lines (the size a terminal has while it is being resized).
        _ = updateInline(&model, .resize(width: 80, height: 14))
        let glyphs = Glyphs(theme: model.theme)
        var layout = QuizLayout(model, model.classroom.question!, glyphs)
        #expect(layout.lines.count == 13 && layout.visibleRows == 9)
        for _ in 0..<20 { QuizTests.press(.character("j"), on: &model) }
        #expect(model.classroom.question?.scroll == 4 && model.classroom.question?.picked == 2)
        layout = QuizLayout(model, model.classroom.question!, glyphs)
        let shown = layout.lines.dropFirst(layout.firstLine(4)).prefix(9).map(\.0)
        #expect(shown.last == "score 0/1 in this lesson   Enter go on")
        QuizTests.press(.pageUp, on: &model)
        #expect(model.classroom.question?.scroll == 0)
        QuizTests.press(.character("n"), on: &model)
        #expect(model.classroom.question == nil)
    }

    @Test("loopviz --help's usage line names --record")
    func usageNamesRecord() throws {
        let result = try LoopvizProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("[--lang en|zh]\n               [--record FILE.cast]\n"))
    }
}

extension ProjectorWalkthroughTests {
    @Test(
        "a source the scenario invalidates is marked invalidated from its invalidate event on, one it removes removed")
    func removedSource() throws {
        func model(_ action: String) throws -> AppModel {
            let source = """
                thread T
                  port keepAlive in default
                  source0 work in default
                  timer t at 50ms in default
                    \(action)
                  run default for 100ms
                """
            let script = try ScenarioParser.parse(source, file: "removed.loop")
            var model = AppModel(session: Session(script: script), fileName: "removed.loop")
            _ = updateInline(&model, .resize(width: 80, height: 24))
            model.isPaused = true
            return model
        }
        var invalidated = try model("invalidate work")
        let invalidate = invalidated.trace.firstIndex { $0.kind == .invalidate && $0.name == "work" }!
        invalidated.cursor = invalidate
        #expect(
            render(invalidated).lines[8].hasSuffix(" 2 source0 work order 0  not signalled"),
            "\(render(invalidated).lines[8])")
        invalidated.cursor = invalidate + 1
        #expect(
            render(invalidated).lines[8].hasSuffix(" 2 [invalidated] source0 work order 0  not…"),
            "\(render(invalidated).lines[8])")
        var removed = try model("remove work from default")
        let cancel = removed.trace.firstIndex { $0.kind == .cancel && $0.name == "work" }!
        removed.cursor = cancel + 1
        #expect(
            render(removed).lines[8].hasSuffix(" 2 [removed] source0 work order 0  not…"), "\(render(removed).lines[8])"
        )
    }
}

extension ProjectorWalkthroughTests {
    @Test("letters that share a column are drawn in the order they happened, up to two columns late, never lost")
    func lettersInOrder() {
        // 30 ms a column at 80×24: at 1.3 s the wake-up's w, the afterWaiting observer's o, then the source0's s.
        let model = RenderTests.model(width: 80, height: 24, step: 40)
        #expect(Self.timelineRow(model).hasSuffix("ot" + String(repeating: "┄", count: 21) + "wos"))
    }
}

extension ProjectorWalkthroughTests {
    @Test("an item added with a key is drawn as in the mode it was added to, from the step after the poke")
    func addedItemIsInItsMode() {
        var model = PokeTests.lesson(at: 41)
        _ = updateInline(&model, .resize(width: 80, height: 24))
        PokeTests.type("a", &model)
        #expect(model.session.interventions.map(\.label) == ["add timer1 (every 500 ms) to default"])
        func row(_ model: AppModel) -> (text: String, dim: Bool)? {
            let screen = render(model)
            guard let y = screen.lines.firstIndex(where: { $0.contains("timer timer1") }) else { return nil }
            let x = screen.lines[y].range(of: "timer timer1").map {
                screen.lines[y].distance(from: screen.lines[y].startIndex, to: $0.lowerBound)
            }!
            return (screen.lines[y], screen[x, y].style.dim)
        }
        #expect(row(model)?.dim == true, "not yet added at the step of the poke")
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(row(model)?.dim == false, "\(row(model)?.text ?? "-")")
    }
}

extension ProjectorWalkthroughTests {
    @Test("on the real clock, what a key cannot do says what it needs first and why after")
    func realClockRefusals() {
        var model = LiveUpdateTests.model()
        _ = UpdateTests.press(.character("a"), on: &model)
        #expect(
            model.flash
                == StatusMessage(
                    "adding items needs the virtual clock", detail: "the real threads' items were made at the start"))
        _ = UpdateTests.press(.character("G"), on: &model)
        #expect(
            model.flash
                == StatusMessage(
                    "the quiz needs the virtual clock's replay", detail: "a real-clock run does not wait for answers"))
        #expect(model.flash?.fitted(50, ellipsis: "…") == "the quiz needs the virtual clock's replay")
    }
}
