import LoopEngine

/// The quiz box on a screen: its rectangle and, when its lines are taller than the screen, how many rows show
/// them (the row under them says what lies below).
struct QuizLayout {
    var rect: Rect
    var lines: [(String, Screen.Style)]
    var visibleRows: Int?

    init(_ model: AppModel, _ question: QuizQuestion, _ glyphs: Glyphs) {
        lines = quizLines(model, question, glyphs)
        let width = min(model.width - 4, 90)
        let height = min(model.height - 2, lines.count + 2)
        rect = Rect(x: (model.width - width) / 2, y: max(1, (model.height - height) / 2), width: width, height: height)
        visibleRows = lines.count > height - 2 ? max(1, height - 3) : nil
    }

    /// The first line shown for a requested scroll position.
    func firstLine(_ scroll: Int) -> Int {
        guard let visibleRows else { return 0 }
        return ScrollIndicator.clamp(scroll, rows: visibleRows, total: lines.count)
    }
}

/// A quiz question: a box over the middle of the screen with the question and its numbered choices; once
/// answered, which one was right, the real step's Why and the lesson's score. A box taller than the screen scrolls.
func drawQuiz(_ model: AppModel, _ question: QuizQuestion, _ screen: inout Screen, _ glyphs: Glyphs) {
    let layout = QuizLayout(model, question, glyphs)
    let rect = layout.rect
    screen.fill(rect, style: .plain)
    box(rect, &screen, glyphs)
    let inner = rect.inner
    let first = layout.firstLine(question.scroll)
    let rows = layout.visibleRows ?? inner.height
    for (row, line) in layout.lines.dropFirst(first).prefix(rows).enumerated() {
        screen.put(line.0, x: inner.x + 1, y: inner.y + row, style: line.1, limit: inner.width - 2)
    }
    if let visibleRows = layout.visibleRows {
        let where_ = ScrollIndicator.text(first: first, shown: visibleRows, total: layout.lines.count, glyphs: glyphs)
        screen.put(
            TextFit.fit(where_, width: inner.width - 2, ellipsis: glyphs.ellipsis), x: inner.x + 1,
            y: inner.y + visibleRows, style: glyphs.header)
    }
}

/// The lines of the quiz box, wrapped to its width (the box is at most 90 columns wide, 4 narrower than the
/// screen).
func quizLines(_ model: AppModel, _ question: QuizQuestion, _ glyphs: Glyphs) -> [(String, Screen.Style)] {
    let width = min(model.width - 4, 90) - 4
    let thread = model.trace[question.answer].loop
    var lines: [(String, Screen.Style)] = []
    let prompt = TerminalSafeText.terminalSafe(question.prompt)
    lines += wrap("Predict the next step of thread \(TerminalSafeText.terminalSafe(thread)): \(prompt)", width: width)
        .map { ($0, glyphs.header) }
    lines.append(("", .plain))
    let right = glyphs.theme.unicode ? "✓" : "+"
    let wrong = glyphs.theme.unicode ? "✗" : "x"
    for (index, choice) in question.choices.enumerated() {
        var marker = " "
        var style = Screen.Style.plain
        if let picked = question.picked {
            if index == question.correct {
                marker = right
                style = glyphs.callout
            } else if index == picked {
                marker = wrong
                style = glyphs.warning
            }
        }
        let text = "\(marker) \(index + 1)  \(choice.label)"
        lines.append((TextFit.fit(text, width: width, ellipsis: glyphs.ellipsis), style))
    }
    lines.append(("", .plain))
    guard let picked = question.picked else {
        let off = model.keys.word(for: .toggleQuiz, in: model.view)
        lines.append(("1-\(question.choices.count) answer   Esc skip   \(off) quiz off", glyphs.dimmed))
        return lines
    }
    let event = model.trace[question.answer]
    let verdict = picked == question.correct ? "Right" : "Not quite"
    lines += wrap(
        "\(verdict): step \(question.answer + 1) is \(question.choices[question.correct].label) at t=\(event.time)s.",
        width: width
    ).map { ($0, glyphs.header) }
    if question.replacedLessonChoice {
        lines += wrap(
            "(The lesson's choices did not hold this step: after pokes the run differs from the lesson's.)",
            width: width
        ).map { ($0, glyphs.dimmed) }
    }
    lines += wrap(
        Explanation.text(for: question.answer, in: model.trace, knowing: model.session.knowledge), width: width
    ).map { ($0, .plain) }
    lines.append(("", .plain))
    let score = model.classroom.scores[model.fileName] ?? Classroom.Score()
    lines.append(("score \(score.right)/\(score.asked) in this lesson   Enter go on", glyphs.dimmed))
    return lines
}
