/// The words of branch points and of where two outcomes part: `loopviz explore`, `check`'s claims over every
/// schedule and `diff` take them from here.
extension ScheduleBranchPoint.Option {
    /// `thread worker`, or `the outside event for main` (an `at` line).
    package var words: String {
        switch self {
        case .thread(let name): "thread \(name)"
        case .outsideEvent(let target) where target.isEmpty: "an outside event"
        case .outsideEvent(let target): "the outside event for \(target)"
        case .hop(let job): "the rest of \(job) (back from the global executor)"
        case .queued(let job): "\(job) (queued on the main queue)"
        case .mainQueueLook(let loop): "\(loop)'s look at the main queue"
        }
    }
}

extension ScheduleBranchPoint {
    /// `at 1.0000ms, branch point 3: thread worker went first (the default: the outside event for main)`.
    package var words: String {
        let taken = options[chosen].words
        let head = "at \(time), branch point \(index): \(taken) went first"
        return chosen == 0 ? head : head + " (the default: \(options[0].words))"
    }

    /// `at 1.0000ms, branch point 3: thread main went first; thread worker could have gone first instead`: the
    /// choice made and every one not made (the default among them is named so).
    package var choiceWords: String {
        let others = options.indices.filter { $0 != chosen }.map {
            options[$0].words + ($0 == 0 ? " (the default)" : "")
        }
        return "at \(time), branch point \(index): \(options[chosen].words) went first; "
            + "\(others.joined(separator: " or ")) could have gone first instead"
    }
}

extension ObservableOutcome.Divergence {
    /// `thread main, step 7: the default has timer t, this one returned true` (`nothing` past a thread's end).
    package var words: String {
        let mine = this.map(\.step) ?? "nothing"
        let theirs = other.map(\.step) ?? "nothing"
        return "thread \(thread), step \(step): the default has \(theirs), this one \(mine)"
    }
}
