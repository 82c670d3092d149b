/// A `say` line with the claims indented under it: what its words state about the loop, each checked where the
/// line is shown. A top-level line is checked at its anchor's event; a `say` in a program or a callout at every
/// note it writes (it is shown there, each time it runs).
package struct SayClaims: Sendable, Equatable {
    /// Where the say's point of the trace is.
    package enum Anchor: Sendable, Equatable {
        /// A top-level line: the event its anchor names (as the UI shows it).
        case narration(Narration.Anchor)
        /// A `say` action: every `note` it writes, by its words (the note's `LoopEvent.Note.say` fact).
        case note(String)
    }

    package var anchor: Anchor
    /// The say's words, as written.
    package var text: String
    /// The line of the `say`.
    package var line: Int
    /// The claims under it, in the order written, each with its own line.
    package var claims: [NarrationClaim]

    package init(anchor: Anchor, text: String, line: Int, claims: [NarrationClaim]) {
        self.anchor = anchor
        self.text = text
        self.line = line
        self.claims = claims
    }
}
