import LoopEngine

/// Opens the summary when the cursor arrives at the last step of a lesson (from `before`: a step back and forth
/// shows it again; a key pressed while already there does not). A lesson's last step is the end of its run: the
/// trace ended and the clock cannot run further, and not because the event budget stopped it. A trace replay and
/// the real clock have no lesson end to check.
func showSummary(_ model: inout AppModel, arrivingFrom before: Int) {
    let session = model.session
    guard model.cursor != before, model.cursor == model.trace.count, !model.trace.isEmpty, model.overlay == .none,
        model.problem == nil, !session.isLive, !session.isReplay, !session.canExtend, !session.reachedEventBudget,
        !model.isTooSmall
    else { return }
    model.overlay = .summary(LessonSummary(model, tries: model.lessonTries))
}

/// The summary's keys: ↑↓ j k PgUp PgDn Home End scroll, Esc or Enter close, `q` quits; the lesson keys (`{` `}` `L` `R`)
/// act at once (the next lesson is one key away), and any other key closes the summary and does what it does.
func handleSummary(_ key: Key, _ summary: LessonSummary, _ model: inout AppModel) -> [Effect]? {
    var summary = summary
    switch key {
    case .up, .character("k"): summary.scroll = max(0, summary.scroll - 1)
    case .down, .character("j"): summary.scroll += 1
    case .pageUp, .character("h"): summary.scroll = max(0, summary.scroll - 10)
    case .pageDown, .character("l"), .character(" "): summary.scroll += 10
    case .home: summary.scroll = 0
    case .end: summary.scroll = Int.max / 2
    case .escape, .enter:
        model.overlay = .none
        return []
    case _ where model.keys.isKey(key, for: .quit, in: model.view): return quitFromOverlay(&model)
    default:
        model.overlay = .none
        return nil
    }
    // Kept within the lines, as render lays them out.
    let layout = SummaryLayout(
        summary, width: model.width, height: model.height, glyphs: Glyphs(theme: model.theme), keys: model.keys)
    summary.scroll = layout.firstLine(summary.scroll)
    model.overlay = .summary(summary)
    return []
}

extension AppModel {
    /// The "Try" suggestions of the lesson shown, from its card.
    var lessonTries: [String] { LessonCardParts(session.script.card, language: language).tries }
}
