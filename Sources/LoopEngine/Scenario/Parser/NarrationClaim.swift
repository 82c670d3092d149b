/// A claim a `say` line rests on (`claims next result handledSource`, indented under it): an `expect` line checked
/// at the say's point of the trace, so that narration which states what the loop does is checked by
/// `loopviz check` as the lesson's `expect` sections are. The line is written, parsed and matched as an `expect`
/// line is (the same `Expectation.Step`); only where in the trace it looks is new.
package struct NarrationClaim: Sendable, Equatable, CustomStringConvertible {
    /// Which part of the trace the claim looks at, seen from the say's event (its anchor).
    package enum Reach: String, Sendable, Equatable, CaseIterable {
        /// `claims next …`: the first event after the anchor's that has the line's kind (and its thread, when the
        /// line names one) is one the line matches - "this happens next".
        case next
        /// `claims later …`: a claim (a count, or `never`) on the events after the anchor's - "this happens from
        /// here on".
        case later
        /// `claims earlier …`: a claim on the events up to the anchor's, included - "this has happened" (the
        /// line is shown from its event on, so that event is on screen with it).
        case earlier
    }

    package var reach: Reach
    /// The event it names, written as an `expect` line; with `later` and `earlier` also a count (nil: at least
    /// once, `.exactly(0)`: `never`).
    package var step: Expectation.Step

    package init(_ reach: Reach, _ step: Expectation.Step) {
        self.reach = reach
        self.step = step
    }

    /// As the line reads, after `claims`: `next result handledSource`, `later never timer tick`.
    package var description: String { "\(reach.rawValue) \(step)" }
}
