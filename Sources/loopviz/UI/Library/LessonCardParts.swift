import LoopEngine

/// What the picker and the summary take from a lesson's card (``LessonCard``, its header comment): the one line
/// it teaches, its topics and its "Try" suggestions.
struct LessonCardParts: Equatable {
    var teaches: String?
    var topics: [String] = []
    var tries: [String] = []

    /// The parts of `card`, in `language` (falling back to English part by part).
    init(_ card: LessonCard, language: Language = .en) {
        let words = card.words(in: language)
        teaches = words.firstSentence
        topics = card.topics.map(\.rawValue)
        tries = words.tryThis.map { [$0] } ?? []
    }

    /// The parts of the card at the top of a lesson's source.
    init(source: String) {
        self.init(LessonCard(source: source))
    }
}
