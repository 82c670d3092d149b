import LoopEngine
import Testing

@testable import loopviz

/// The lesson keys and states, through `update` alone: `L` and the picker, `{` `}`, `R`, a lesson that does not
/// open, and what the runtime answers (``AppMessage/lessonOpened(_:)``) given without reading a file.
@Suite("the lesson keys: picker, previous and next, reload")
struct LibraryUpdateTests {
    typealias F = LibraryFixture

    @Test("L opens the picker at the lesson shown; Esc and L close it")
    func pickerOpensAndCloses() {
        var model = F.model(current: 1)
        #expect(F.press(.character("L"), on: &model).isEmpty)
        #expect(model.overlay == .picker(LessonPicker(row: 1)))
        _ = F.press(.escape, on: &model)
        #expect(model.overlay == .none)
        _ = F.press(.character("L"), .character("L"), on: &model)
        #expect(model.overlay == .none)
    }

    @Test("the picker's arrows, j k, PgUp PgDn, Home End move within the list")
    func pickerMoves() {
        var model = F.model()
        _ = F.press(.character("L"), .down, .down, .down, on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 2)))
        _ = F.press(.character("k"), on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 1)))
        _ = F.press(.home, on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 0)))
        _ = F.press(.pageDown, on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 2)))
        _ = F.press(.pageUp, .character("j"), on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 1)))
        _ = F.press(.end, .up, .up, .up, on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 0)))
    }

    @Test("Enter asks the runtime to open the highlighted lesson, from its first step")
    func pickerOpens() {
        var model = F.model()
        let effects = F.press(.character("L"), .down, .enter, on: &model)
        #expect(effects == [.openLesson(LessonRequest(index: 1, path: "lessons/02-source.loop", keepStep: nil))])
        #expect(model.overlay == .none)
    }

    @Test("/ filters by title, number or topic; Backspace widens, Esc clears the filter, then closes")
    func pickerFilters() {
        var model = F.model()
        _ = F.press(.character("L"), .character("/"), on: &model)
        _ = F.type("source", on: &model)
        #expect(model.overlay == .picker(LessonPicker(filter: "source", typing: true, row: 0)))
        #expect(model.library.matching("source") == [1])
        // Typing, j and q are letters of the filter, not moves or quit.
        _ = F.type("jq", on: &model)
        #expect(model.overlay == .picker(LessonPicker(filter: "sourcejq", typing: true, row: 0)))
        #expect(!model.quitRequested)
        _ = F.press(.backspace, .backspace, on: &model)
        #expect(F.press(.enter, on: &model) == [.openLesson(LessonRequest(index: 1, path: "lessons/02-source.loop"))])
        _ = F.press(.character("L"), .character("/"), on: &model)
        _ = F.type("3", on: &model)
        #expect(model.library.matching("3") == [2])
        _ = F.press(.escape, on: &model)
        #expect(model.overlay == .picker(LessonPicker()))
        _ = F.press(.escape, on: &model)
        #expect(model.overlay == .none)
        #expect(model.library.matching("TIMERS") == [0])
        #expect(model.library.matching("03") == [2] && model.library.matching("7").isEmpty)
    }

    @Test("Enter when nothing matches says so and opens nothing")
    func pickerNoMatch() {
        var model = F.model()
        _ = F.press(.character("L"), .character("/"), on: &model)
        _ = F.type("zzz", on: &model)
        #expect(F.press(.enter, on: &model).isEmpty)
        #expect(model.flash?.text == "no lesson matches \u{201C}zzz\u{201D}: Backspace or Esc widens the list")
        #expect(model.overlay == .picker(LessonPicker(filter: "zzz", typing: true, row: 0)))
    }

    @Test("} and { ask for the next and previous lesson; at the ends they say so")
    func previousAndNext() {
        var model = F.model(current: 1)
        #expect(
            F.press(.character("}"), on: &model) == [
                .openLesson(LessonRequest(index: 2, path: "lessons/03-broken.loop"))
            ])
        #expect(
            F.press(.character("{"), on: &model) == [
                .openLesson(LessonRequest(index: 0, path: "lessons/01-one-timer.loop"))
            ])
        var first = F.model(current: 0)
        #expect(F.press(.character("{"), on: &first).isEmpty)
        #expect(first.flash?.text == "this is the first lesson; L lists them all")
        var last = F.model(F.plain, current: 2)
        #expect(F.press(.character("}"), on: &last).isEmpty)
        #expect(last.flash?.text == "this is the last lesson (3 of 3); L lists them all")
    }

    @Test("a lesson opened replaces the one shown, keeping the size, theme and speed; the status bar names it")
    func lessonOpens() {
        var model = F.model(width: 132, height: 43)
        model.theme.unicode = false
        _ = F.press(.character("+"), .character("n"), .character("n"), on: &model)
        let speed = model.speedIndex
        let effects = F.press(.character("}"), on: &model)
        guard case .openLesson(let request)? = effects.first else {
            Issue.record("no request: \(effects)")
            return
        }
        _ = updateInline(&model, .lessonOpened(F.opened(request, F.plain)))
        #expect(model.fileName == "lessons/02-source.loop")
        #expect(model.session.script.scenario.name == "A source0 and a port")
        #expect(model.cursor == 0 && model.library.current == 1)
        #expect(model.width == 132 && model.height == 43 && !model.theme.unicode && model.speedIndex == speed)
        #expect(model.flash?.text == "lesson 02 (2 of 3): A source0 and a port")
    }

    @Test("a lesson opened keeps presenter mode, the quiz's mode and its scores, and drops the lesson left's question")
    func classroomCarriesOver() {
        var model = F.model(current: 1)
        model.classroom.presenter.isOn = true
        model.classroom.quizMode = .everyStep
        model.classroom.scores["lessons/02-source.loop"] = Classroom.Score(right: 1, asked: 2)
        model.classroom.asked = [0]
        model.classroom.playUntil = 5
        _ = updateInline(
            &model, .lessonOpened(F.opened(LessonRequest(index: 0, path: "lessons/01-one-timer.loop"), F.oneTimer)))
        #expect(model.classroom.presenter.isOn && model.classroom.quizMode == .everyStep)
        #expect(model.classroom.scores["lessons/02-source.loop"] == Classroom.Score(right: 1, asked: 2))
        #expect(model.classroom.question == nil && model.classroom.asked.isEmpty && model.classroom.playUntil == nil)
    }

    @Test("a lesson opened afresh opens on its card; one read again with R goes on without it")
    func cardOnOpen() {
        var model = F.model(current: 1)
        _ = updateInline(
            &model, .lessonOpened(F.opened(LessonRequest(index: 0, path: "lessons/01-one-timer.loop"), F.oneTimer)))
        #expect(model.overlay == .card)
        _ = F.press(.escape, .character(" "), .character("n"), on: &model)
        _ = updateInline(
            &model,
            .lessonOpened(F.opened(LessonRequest(index: 0, path: "lessons/01-one-timer.loop", keepStep: 1), F.oneTimer))
        )
        #expect(model.overlay == .none && model.cursor == 1)
    }

    @Test("R reads the file again at the step shown, clamped to the events it now has, and drops the pokes")
    func reloadKeepsTheStep() {
        var model = F.model()
        _ = F.press(.character(" "), .character("g"), .character("9"), .enter, on: &model)
        #expect(
            F.press(.character("R"), on: &model) == [
                .openLesson(LessonRequest(index: 0, path: "lessons/01-one-timer.loop", keepStep: 9))
            ])
        _ = updateInline(
            &model,
            .lessonOpened(F.opened(LessonRequest(index: 0, path: "lessons/01-one-timer.loop", keepStep: 9), F.oneTimer))
        )
        #expect(model.cursor == 9 && model.isPaused)
        #expect(model.flash?.text == "read again at step 9")
        // A poke, then the file shrinks to fewer events than the step shown.
        _ = F.press(.character("w"), on: &model)
        #expect(model.session.interventions.count == 1)
        let request = LessonRequest(index: 0, path: "lessons/01-one-timer.loop", keepStep: 40)
        _ = updateInline(&model, .lessonOpened(F.opened(request, F.plain)))
        #expect(model.cursor == model.trace.count && model.session.interventions.isEmpty)
        #expect(
            model.flash?.text
                == "read again: the last step is shown; your 1 poke was left out (it now has \(model.trace.count) events, step 40 was shown)"
        )
    }

    @Test(
        "a lesson that does not parse shows its diagnostics; other keys say how to go on; R after the fix keeps the step"
    )
    func problemState() {
        var model = F.model()
        _ = F.press(.character("g"), .character("5"), .enter, on: &model)
        let request = LessonRequest(index: 0, path: "lessons/01-one-timer.loop", keepStep: 5)
        _ = updateInline(&model, .lessonOpened(F.opened(request, "scenario \"x\"\nthread T\n  bogus 1\n")))
        #expect(model.problem?.path == "lessons/01-one-timer.loop")
        #expect(model.problem?.lines.first?.hasPrefix("lessons/01-one-timer.loop:3:3: error:") == true)
        #expect(model.problem?.keepStep == 5)
        #expect(model.flash?.text == "lesson 1 of 3 does not open: fix the file and press R")
        #expect(F.press(.character("n"), on: &model).isEmpty)
        #expect(model.flash?.text == LessonProblem.hint())
        // R asks again for the step kept from the version that parsed.
        #expect(F.press(.character("R"), on: &model) == [.openLesson(request)])
        _ = updateInline(&model, .lessonOpened(F.opened(request, F.oneTimer)))
        #expect(model.problem == nil && model.cursor == 5)
        // q still quits from a lesson that does not open.
        _ = updateInline(&model, .lessonOpened(F.opened(request, "nonsense")))
        #expect(F.press(.character("q"), on: &model) == [.quit])
    }

    @Test("from a lesson that does not open, { } and L still go to another lesson")
    func problemAllowsTheLessonKeys() {
        var model = F.model(current: 1)
        _ = updateInline(&model, .lessonOpened(F.opened(LessonRequest(index: 2, path: "lessons/03-broken.loop"), "?")))
        #expect(model.problem != nil && model.library.current == 2)
        #expect(
            F.press(.character("{"), on: &model) == [
                .openLesson(LessonRequest(index: 1, path: "lessons/02-source.loop"))
            ])
        _ = F.press(.character("L"), on: &model)
        #expect(model.overlay == .picker(LessonPicker(row: 2)))
        // R for a lesson that never opened starts it from its first step.
        _ = F.press(.escape, on: &model)
        #expect(
            F.press(.character("R"), on: &model) == [
                .openLesson(LessonRequest(index: 2, path: "lessons/03-broken.loop"))
            ])
    }

    @Test("without a library (the built-in lesson) the lesson keys say how to get one")
    func noLibrary() {
        var model = UpdateTests.model()
        #expect(F.press(.character("}"), on: &model).isEmpty)
        #expect(model.flash?.text == LessonLibrary.noLibraryMessage)
        #expect(F.press(.character("R"), on: &model).isEmpty)
        #expect(model.flash?.text == "the built-in lesson has no file to read again")
        _ = F.press(.character("L"), on: &model)
        #expect(model.overlay == .picker(LessonPicker()))
        #expect(F.press(.enter, on: &model).isEmpty)
    }

    @Test("on the real clock the lesson keys refuse other lessons, and R runs this one again from its start")
    func realClockRefuses() {
        let script = try! ScenarioParser.parse(F.plain, file: "x.loop")
        var model = AppModel(session: Session(liveScript: script), fileName: "x.loop")
        model.library = LessonLibrary(entries: F.entries, current: 0)
        // No card: the real threads start at the first message.
        #expect(updateInline(&model, .resize(width: 80, height: 24)) == [.startLive])
        for key in ["L", "{", "}"] {
            #expect(F.press(.character(Character(key)), on: &model).isEmpty)
            #expect(
                model.flash?.text
                    == "other lessons need the virtual clock (R starts this one again; quit and run loopviz FILE)")
            #expect(model.overlay == .none)
        }
        #expect(F.press(.character("R"), on: &model) == [.startLive])
        #expect(model.flash?.text == "started again on real threads from the start (R)" && model.trace.isEmpty)
    }
}
