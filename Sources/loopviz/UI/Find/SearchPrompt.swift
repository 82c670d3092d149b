/// The `/` prompt: what is typed so far, and why the last Enter did not make it a filter.
struct SearchPrompt: Equatable {
    var typed = ""
    var problem: EventFilter.Problem?

    /// A query longer than this is not taken (the prompt is one line).
    static let maximumLength = 200
}
