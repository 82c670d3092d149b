import LoopEngine

// The words of the side by side (`V`): its title, its rows and what the screen reader says.
// Steps are counted from 1, as the status bar counts them (`loopviz diff` numbers its rows from 0).

extension RunComparison.Other {
    /// What the shown run is, beside the second.
    var shownTitle: String {
        switch self {
        case .withoutPokes(let count): "with your \(LoopEvent.count(count, "poke"))"
        case .defaultSchedule(let shown): "schedule \(shown.id)"
        }
    }

    /// What the second run is.
    var secondTitle: String {
        switch self {
        case .withoutPokes(let count): count == 1 ? "without it" : "without them"
        case .defaultSchedule: "the default schedule"
        }
    }

    /// The two runs in one sentence.
    var sentence: String {
        switch self {
        case .withoutPokes(let count):
            "this run with your \(LoopEvent.count(count, "poke")) beside the same scenario without "
                + (count == 1 ? "it" : "them")
        case .defaultSchedule(let shown): "this run under schedule \(shown.id) beside the default schedule"
        }
    }
}

extension RunComparison {
    /// A run stopped at the event budget (`--max-events`).
    static let budgetWords = "the event budget stopped a run: later steps were not compared"

    /// Where the runs part, in a few words: the status bar's and the box's.
    var differenceWords: String {
        guard let firstDifference else { return "the same steps in both runs" }
        return "first difference at step \(firstDifference + 1)"
    }

    /// One side of a step: what it is, its thread and its time.
    static func words(_ event: LoopEvent?, of trace: LoopTrace) -> String {
        guard let event else { return "no step (the run has \(LoopEvent.count(trace.count, "step")))" }
        return "\(event.step) on \(event.loop) at \(event.time)"
    }

    /// Step `row` of both runs in words: the same step, the first difference, or a step after it.
    func rowWords(_ row: Int) -> String {
        let one = row < shown.count ? shown[row] : nil
        let two = row < second.count ? second[row] : nil
        let number = "step \(row + 1) of \(steps)"
        if let firstDifference, row >= firstDifference {
            let place = row == firstDifference ? "the first difference" : "after the first difference"
            return "\(number), \(place): \(other.shownTitle), \(Self.words(one, of: shown)); "
                + "\(other.secondTitle), \(Self.words(two, of: second))"
        }
        return "\(number), the same in both runs: \(Self.words(one, of: shown))"
    }

    /// What the screen reader says when the side by side opens: what is compared, and where the runs part.
    var openingWords: [String] {
        var lines = ["Side by side, synchronised by step: \(other.sentence)."]
        if let firstDifference {
            lines.append(
                "The first difference is at step \(firstDifference + 1): " + rowDifferenceWords(firstDifference) + ".")
        } else {
            lines.append("The two runs take the same steps (\(LoopEvent.count(steps, "step"))).")
        }
        if reachedEventLimit {
            lines.append(Self.budgetWords.prefix(1).uppercased() + Self.budgetWords.dropFirst() + ".")
        }
        lines.append("n and p move both runs a step, d goes to the first difference, Escape closes.")
        return lines
    }

    /// The two sides of a step that differs.
    private func rowDifferenceWords(_ row: Int) -> String {
        let one = row < shown.count ? shown[row] : nil
        let two = row < second.count ? second[row] : nil
        return
            "\(other.shownTitle), \(Self.words(one, of: shown)); \(other.secondTitle), \(Self.words(two, of: second))"
    }
}
