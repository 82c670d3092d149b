// The status bar's words for `V` (the side by side).

extension StatusMessage {
    /// `V` with no poke and the default schedule: there is no second run to show.
    static let versusNothing = StatusMessage(
        "nothing to compare: poke the run, or open another outcome with X, then V",
        detail: "V shows this run beside the same one without your pokes, or beside the default schedule")

    /// `V` on real threads.
    static let versusLive = StatusMessage(
        "real threads: nothing to compare", detail: "V compares runs on the virtual clock")

    /// `V` on a recorded trace.
    static let versusReplay = StatusMessage(
        "a recorded trace: nothing to compare", detail: "V runs the scenario again, which a trace file does not hold")

    /// `d` in a side by side whose runs agree.
    static let versusNoDifference = StatusMessage("the two runs take the same steps: no difference to go to")

    /// The side by side opened: where the runs part, and how to print the same comparison headless (pokes have no
    /// headless form: each is tied to the step it was made after, which a `.loop` file cannot say).
    static func versusOpened(_ comparison: RunComparison, headless: String?) -> StatusMessage {
        let difference =
            comparison.firstDifference == nil
            ? comparison.differenceWords : comparison.differenceWords + ": d goes to it"
        if let headless { return StatusMessage("headless: \(headless)", detail: difference) }
        return StatusMessage(
            difference, detail: "no headless form: a poke is tied to a step, which a .loop file cannot say")
    }
}
