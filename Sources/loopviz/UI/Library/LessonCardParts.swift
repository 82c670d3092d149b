import LoopEngine

/// What the picker and the summary take from a lesson's card (its header comment): the one line it teaches,
/// its topics and its "Try" suggestions.
struct LessonCardParts: Equatable {
    var teaches: String?
    var topics: [String] = []
    var tries: [String] = []

    /// The parts of the card at the top of `text` (a lesson's source).
    init(_ text: String) {
        // Filled from `LessonCard` once it is on main.
        _ = text
    }
}
