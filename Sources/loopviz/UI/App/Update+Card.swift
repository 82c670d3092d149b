import LoopEngine

/// The lesson card: shown when a lesson opens, closed by any key, opened again with `i`.
extension AppModel {
    /// This model with its lesson's card open, as a lesson opens: unchanged when the lesson has no card (a file
    /// without a header comment, a recorded trace).
    func openingCard() -> AppModel {
        var model = self
        if lessonCard(model) != nil { model.overlay = .card }
        return model
    }
}

/// `i`: the card again, or why there is none.
func showCard(_ model: inout AppModel) {
    if lessonCard(model) != nil {
        model.overlay = .card
    } else {
        model.flash =
            model.session.isReplay
            ? "a recorded trace has no lesson card" : "this lesson has no card: its file starts with no # comment"
    }
}

/// A key while the card is open: `q` quits as everywhere; any other key only closes the card (a key pressed to
/// get rid of it must not also step or poke the run).
func closeCard(_ key: Key, _ model: inout AppModel) -> [Effect] {
    model.overlay = .none
    if key == .character("q") {
        model.quitRequested = true
        return [.quit]
    }
    return []
}
