import LoopEngine

/// The quiz: `G` turns it on (at the lesson's `ask` lines, or before every step) and off; a question stops
/// playback and takes the keys until the student picks a choice (the reveal moves to the real next step and its
/// Why) and closes it.

/// `G`: off → at the lesson's `ask` lines (when it has any) → before every step → off.
func toggleQuiz(_ model: inout AppModel) {
    guard !model.session.isLive || model.session.isReplay else {
        model.flash = StatusMessage(
            "the quiz needs the virtual clock's replay", detail: "a real-clock run does not wait for answers")
        return
    }
    let hasAsks = !model.session.script.questions.isEmpty
    switch model.classroom.quizMode {
    case .off: model.classroom.quizMode = hasAsks ? .askPoints : .everyStep
    case .askPoints: model.classroom.quizMode = .everyStep
    case .everyStep: model.classroom.quizMode = .off
    }
    model.classroom.asked = []
    let again = model.keys.word(for: .toggleQuiz)
    model.flash =
        switch model.classroom.quizMode {
        case .off: "quiz off"
        case .askPoints:
            "quiz: at the lesson's \(countedNoun(model.session.script.questions.count, "question")) (\(again) again: every step)"
        case .everyStep: "quiz: predict every step of the loop (\(again) again: off)"
        }
}

/// The keys of an open question: 1-4 pick, Esc skips; after the reveal Enter, Space, n or Esc go on; ↓ j ↑ k PgDn
/// PgUp scroll a box taller than the screen.
func handleQuizKey(_ key: Key, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    guard var question = model.classroom.question else { return [] }
    if model.keys.isKey(key, for: .quit, in: model.view) {
        model.quitRequested = true
        return [.quit]
    }
    if model.keys.isKey(key, for: .toggleQuiz, in: model.view) {
        model.classroom.question = nil
        toggleQuiz(&model)
        if model.classroom.quizMode != .off { model.classroom.quizMode = .off; model.flash = "quiz off" }
        return []
    }
    // A box taller than the screen scrolls, before and after the answer.
    let layout = QuizLayout(model, question, Glyphs(theme: model.theme))
    if let rows = layout.visibleRows {
        let step: Int? =
            switch key {
            case .down, .character("j"): 1
            case .up, .character("k"): -1
            case .pageDown: rows - 1
            case .pageUp: 1 - rows
            default: nil
            }
        if let step {
            question.scroll = layout.firstLine(layout.firstLine(question.scroll) + step)
            model.classroom.question = question
            return []
        }
    }
    guard question.picked == nil else {
        switch key {
        case .enter, .character(" "), .character("n"), .escape, .right:
            model.classroom.question = nil
            if question.resumes { model.isPaused = false }
        default: break
        }
        return []
    }
    switch key {
    case .escape:
        model.classroom.question = nil
        model.flash = "question skipped"
    case .character(let character):
        guard let digit = character.wholeNumberValue, (1...question.choices.count).contains(digit) else { break }
        question.picked = digit - 1
        var score = model.classroom.scores[model.fileName] ?? Classroom.Score()
        score.asked += 1
        if digit - 1 == question.correct { score.right += 1 }
        model.classroom.scores[model.fileName] = score
        model.classroom.question = question
        // The reveal: the real next step on screen, with its Why.
        try move(&model, to: question.answer + 1)
    default: break
    }
    return []
}

/// Asks `prompt` about the loop step that follows the first `cursor` events (on the thread of the last of them),
/// with the lesson's choices `given`; false when that thread takes no further step.
@discardableResult
func ask(
    _ prompt: String, at cursor: Int, given: [Expectation.Step] = [], resumes: Bool, _ model: inout AppModel
) throws(NeedsLongerTrace) -> Bool {
    let last = cursor > 0 && cursor <= model.trace.count ? model.trace[cursor - 1] : nil
    let thread = last?.loop ?? model.loopThread
    // Where the loop is in its turn: its last step (the event shown may be one done to it, a signal).
    let current = QuizChoices.lastStep(before: cursor, thread: thread, in: model.trace).map { model.trace[$0] }
    let answer = QuizChoices.nextStep(from: cursor, thread: thread, in: model.trace)
    if answer == nil && model.session.canExtend { throw NeedsLongerTrace() }
    guard let answer else { return false }
    let loop = model.session.snapshots(after: cursor).first { $0.thread == thread } ?? LoopSnapshot(thread: thread)
    let made = QuizChoices.make(
        answer: model.trace[answer], after: current, loop: loop, thread: model.session.declaredThread(named: thread),
        given: given)
    model.cursor = cursor
    model.isPaused = true
    model.classroom.playUntil = nil
    model.classroom.question = QuizQuestion(
        prompt: prompt, askedAt: cursor, answer: answer, choices: made.choices, correct: made.correct,
        replacedLessonChoice: made.replaced, resumes: resumes)
    return true
}

/// After each message (no question open before it): the cursor moved forward over a question point of the quiz,
/// so it stops there and asks.
func settleQuiz(_ model: inout AppModel, cursorBefore before: Int, wasPlaying: Bool) throws(NeedsLongerTrace) {
    guard model.classroom.question == nil, model.cursor > before else { return }
    switch model.classroom.quizMode {
    case .off:
        return
    case .askPoints:
        let questions = model.session.script.questions
        let forgotten = model.session.forgottenEvents
        let due = model.session.questionAnchors.indices.enumerated().compactMap { line, index -> (Int, Int)? in
            guard let index, !model.classroom.asked.contains(line), index - forgotten >= before,
                index - forgotten < model.cursor
            else { return nil }
            return (line, index - forgotten)
        }.min { $0.1 < $1.1 }
        guard let (line, index) = due else { return }
        model.classroom.asked.insert(line)
        try ask(
            questions[line].prompt, at: index + 1, given: questions[line].choices, resumes: wasPlaying, &model)
    case .everyStep:
        try ask("What does the loop do next?", at: before, resumes: wasPlaying, &model)
    }
}
