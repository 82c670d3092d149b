import LoopEngine

/// The lesson card: shown when a lesson opens, closed by any key, opened again with `i`.
extension AppModel {
    /// This model with its lesson's card open, as a lesson opens: unchanged when the lesson has no card (a file
    /// without a header comment, a recorded trace).
    func openingCard() -> AppModel {
        var model = self
        if lessonCard(model) != nil {
            model.overlay = .card
            model.cardScroll = 0
        }
        return model
    }
}

/// `i`: the card again, or why there is none.
func showCard(_ model: inout AppModel) {
    if lessonCard(model) != nil {
        model.overlay = .card
        model.cardScroll = 0
    } else {
        model.flash =
            model.session.isReplay
            ? "a recorded trace has no lesson card" : "this lesson has no card: its file starts with no # comment"
    }
}

/// A key while the card is open: `q` quits as everywhere; on a card taller than the screen ↓ j PgDn and ↑ k PgUp
/// scroll it; the lesson keys (`{` `}` `L` `R`) and `?` close it and do what they say at once (one press moves one
/// lesson); any other key only closes the card (a key pressed to get rid of it must not also step or poke the run).
/// Returns nil when the key is to act after closing.
func closeCard(_ key: Key, _ model: inout AppModel) -> [Effect]? {
    if let layout = model.cardLayout, let rows = layout.visibleRows {
        let step: Int? =
            switch key {
            case .down, .character("j"): 1
            case .up, .character("k"): -1
            case .pageDown, .character("l"): rows - 1
            case .pageUp, .character("h"): 1 - rows
            case .home: -layout.lines.count
            case .end: layout.lines.count
            default: nil
            }
        if let step {
            model.cardScroll = layout.firstLine(layout.firstLine(model.cardScroll) + step)
            return []
        }
    }
    model.overlay = .none
    model.cardScroll = 0
    switch model.keys.command(for: key, in: model.view) {
    case .quit:
        model.quitRequested = true
        return [.quit]
    case .previousLesson, .nextLesson, .openPicker, .reloadLesson, .help:
        return nil
    default:
        return []
    }
}
