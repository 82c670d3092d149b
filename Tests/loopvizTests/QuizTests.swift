import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The quiz: choices made from the loop's typed state (pure), and the keys that ask, answer and score.
@Suite("the quiz asks what runs next and the real next step is always a choice")
struct QuizTests {
    static func lesson07() -> AppModel { ThreadPickerTests.lesson("07-source0-needs-a-wakeup.loop") }

    static func press(_ keys: Key..., on model: inout AppModel) {
        for key in keys { _ = updateInline(&model, .key(key)) }
    }

    /// The choices for the loop step after the first `cursor` events of `model`'s trace, as labels.
    static func choices(_ model: AppModel, after cursor: Int) -> (labels: [String], correct: String) {
        let thread = model.trace[cursor - 1].loop
        let current = model.trace[QuizChoices.lastStep(before: cursor, thread: thread, in: model.trace)!]
        let answer = QuizChoices.nextStep(from: cursor, thread: current.loop, in: model.trace)!
        let loop = model.session.snapshots(after: cursor).first { $0.thread == current.loop }!
        let made = QuizChoices.make(
            answer: model.trace[answer], after: current, loop: loop,
            thread: model.session.declaredThread(named: current.loop))
        return (made.choices.map(\.label), made.choices[made.correct].label)
    }

    @Test("the next step skips what is done to the loop (a signal, a wake-up request): it is the loop's own")
    func nextStepIsTheLoops() {
        let model = Self.lesson07()
        // Event 8 is the sleep at 0; then `signal render` (0.100, 0.150) and `wakeUp` (0.200) are outside events.
        #expect(model.trace[7].kind == .sleep)
        let next = QuizChoices.nextStep(from: 8, thread: "T", in: model.trace)
        #expect(next.map { model.trace[$0].kind } == .wake)
        #expect(next.map { model.trace[$0].time } == .zero + .milliseconds(200))
        #expect(QuizChoices.nextStep(from: model.trace.count, thread: "T", in: model.trace) == nil)
    }

    @Test("choices come from where the loop is in its turn and from its items' state, in the turn's order")
    func choicesFromState() {
        let model = Self.lesson07()
        // After the sleep with render signalled: the wake, afterWaiting (the mistake: a poll has none, a sleep
        // has) and the signalled source0.
        let asleep = Self.choices(model, after: 10)
        #expect(model.trace[9].kind == .signal)
        #expect(asleep.labels == ["source0 render", "wake", "afterWaiting"])
        #expect(asleep.correct == "wake")
        // After beforeSources with render signalled: the source0 (right), beforeWaiting and a poll.
        let index = (0..<model.trace.count).first { model.trace[$0].kind == .source0 }!
        let before = Self.choices(model, after: index)
        #expect(model.trace[index - 1].kind == .beforeSources)
        #expect(before.labels == ["source0 render", "beforeWaiting", "poll (a sleep that does not wait)"])
        #expect(before.correct == "source0 render")
        // After the source0: the poll is right, beforeWaiting and beforeTimers (and exit) are not.
        let after = Self.choices(model, after: index + 1)
        #expect(after.labels == ["beforeTimers", "beforeWaiting", "poll (a sleep that does not wait)", "exit"])
        #expect(after.correct == "poll (a sleep that does not wait)")
    }

    @Test("every loop step of every lesson with ask lines is one of its own choices, among 3 or 4")
    func rightAnswerAlwaysOffered() {
        for name in [
            "02-port-keeps-thread-alive.loop", "07-source0-needs-a-wakeup.loop", "09-return-after-source-handled.loop",
            "10-stop-lost-to-handled-source.loop", "14-timer-and-tracking-mode.loop", "15-late-repeating-timer.loop",
        ] {
            let model = ThreadPickerTests.lesson(name)
            for cursor in 1..<model.trace.count {
                let thread = model.trace[cursor - 1].loop
                guard let last = QuizChoices.lastStep(before: cursor, thread: thread, in: model.trace) else { continue }
                let current = model.trace[last]
                guard let answer = QuizChoices.nextStep(from: cursor, thread: current.loop, in: model.trace)
                else { continue }
                let loop = model.session.snapshots(after: cursor).first { $0.thread == current.loop }!
                let made = QuizChoices.make(
                    answer: model.trace[answer], after: current, loop: loop,
                    thread: model.session.declaredThread(named: current.loop))
                #expect((3...4).contains(made.choices.count), "\(name) step \(cursor)")
                #expect(made.choices[made.correct].matches(model.trace[answer]), "\(name) step \(cursor)")
                #expect(
                    made.choices.filter { $0.matches(model.trace[answer]) }.count == 1, "\(name) step \(cursor)")
            }
        }
    }

    @Test("every ask line of the lessons is reached, and its thread has a next step to predict")
    func everyAskIsAsked() throws {
        var asked = 0
        for name in [
            "02-port-keeps-thread-alive.loop", "07-source0-needs-a-wakeup.loop", "09-return-after-source-handled.loop",
            "10-stop-lost-to-handled-source.loop", "14-timer-and-tracking-mode.loop", "15-late-repeating-timer.loop",
        ] {
            let model = ThreadPickerTests.lesson(name)
            #expect(!model.session.script.questions.isEmpty, "\(name) has no ask line")
            for (line, index) in model.session.questionAnchors.indices.enumerated() {
                let prompt = model.session.script.questions[line].prompt
                guard let index else {
                    Issue.record("\(name): '\(prompt)' is never asked")
                    continue
                }
                var quizzed = model
                #expect(try ask(prompt, at: index + 1, resumes: false, &quizzed), "\(name): '\(prompt)'")
                asked += 1
            }
        }
        #expect(asked == 9)
    }

    @Test("a lesson's own choices are kept in its order; when the run differs, the real step replaces the last")
    func lessonChoices() {
        let event = LoopEvent(
            time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .source0, name: "render")
        let given = [
            Expectation.Step(kind: .sleep, line: 1), Expectation.Step(kind: .source0, name: "render", line: 1),
            Expectation.Step(kind: .wake, line: 1),
        ]
        let kept = QuizChoices.make(
            answer: event, after: nil, loop: LoopSnapshot(thread: "T"), thread: nil, given: given)
        #expect(
            kept.choices.map(\.label) == ["sleep", "source0 render", "wake"] && kept.correct == 1 && !kept.replaced)
        let other = LoopEvent(time: .zero, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .timer, name: "t")
        let replaced = QuizChoices.make(
            answer: other, after: nil, loop: LoopSnapshot(thread: "T"), thread: nil, given: given + given)
        #expect(replaced.choices.map(\.label) == ["sleep", "source0 render", "wake", "timer t"])
        #expect(replaced.correct == 3 && replaced.replaced)
    }

    @Test("G at the lesson's ask points: playing stops at one, a digit answers, the reveal shows the real step")
    func askPoints() {
        var model = Self.lesson07()
        Self.press(.character("G"), on: &model)
        #expect(model.classroom.quizMode == .askPoints)
        model.isPaused = false
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        // The first ask is `at 100ms`: the first event at 0.100 is `signal render`, the 9th.
        let question = model.classroom.question
        #expect(model.cursor == 9 && model.isPaused)
        #expect(question?.prompt == "render is signalled, but nobody woke the loop: what runs next?")
        #expect(question?.choices.map(\.label) == ["source0 render", "wake", "beforeSources"])
        #expect(question?.correct == 1 && question?.resumes == true)
        // Playback waits for the answer.
        _ = updateInline(&model, .tick(seconds: 5))
        #expect(model.cursor == 9)
        Self.press(.character("1"), on: &model)
        #expect(model.classroom.question?.picked == 0)
        #expect(model.currentEvent?.kind == .wake && model.cursor == 12)
        #expect(model.classroom.scores[model.fileName] == Classroom.Score(right: 0, asked: 1))
        Self.press(.enter, on: &model)
        #expect(model.classroom.question == nil && !model.isPaused)
        // On to the second ask (after 0.200 afterWaiting): answered right.
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        #expect(model.classroom.question?.prompt == "The loop woke up and render is signalled: what comes first?")
        let correct = model.classroom.question!.correct
        Self.press(.character(Character(String(correct + 1))), on: &model)
        #expect(model.currentEvent?.kind == .beforeTimers)
        #expect(model.classroom.scores[model.fileName] == Classroom.Score(right: 1, asked: 2))
        // Stepping back and forth does not ask again.
        Self.press(.enter, .character("g"), .character("1"), .enter, on: &model)
        for _ in 0..<30 { Self.press(.character("n"), on: &model) }
        #expect(model.classroom.question == nil)
    }

    @Test("G twice: every step asks; Esc skips a question without scoring; G a third time turns it off")
    func everyStep() {
        var model = Self.lesson07()
        Self.press(.character("G"), .character("G"), on: &model)
        #expect(model.classroom.quizMode == .everyStep)
        Self.press(.character("n"), on: &model)
        // Before the first event: the run starts.
        #expect(
            model.cursor == 0
                && model.classroom.question?.choices[model.classroom.question!.correct].label == "runStart default")
        Self.press(.escape, on: &model)
        #expect(model.classroom.question == nil && model.cursor == 0 && model.classroom.scores.isEmpty)
        Self.press(.character("n"), on: &model)
        let question = model.classroom.question!
        Self.press(.character(Character(String(question.correct + 1))), .enter, on: &model)
        #expect(model.cursor == question.answer + 1)
        #expect(model.classroom.scores[model.fileName] == Classroom.Score(right: 1, asked: 1))
        Self.press(.character("G"), .character("n"), on: &model)
        #expect(
            model.classroom.quizMode == .off && model.classroom.question == nil && model.cursor == question.answer + 2)
    }

    @Test("a question at 80×24 and 132×43, asked and revealed", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = ThreadPickerTests.lesson("07-source0-needs-a-wakeup.loop", width: size.0, height: size.1)
        Self.press(.character("G"), .character("d"), on: &model)
        for _ in 0..<40 { _ = updateInline(&model, .tick(seconds: 0.25)) }
        let asked = render(model).lines
        #expect(asked.count == size.1 && asked.allSatisfy { $0.count <= size.0 })
        Snapshot.assertMatches(
            asked.joined(separator: "\n") + "\n", "Screens/quiz-\(size.0)x\(size.1)-asked.screen",
            target: "loopvizTests")
        Self.press(.character("3"), on: &model)
        let revealed = render(model).lines
        Snapshot.assertMatches(
            revealed.joined(separator: "\n") + "\n", "Screens/quiz-\(size.0)x\(size.1)-revealed.screen",
            target: "loopvizTests")
    }
}
