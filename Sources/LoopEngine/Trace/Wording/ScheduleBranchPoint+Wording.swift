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
        case .limitPassed(let loop): "CF's clock had passed \(loop)'s run limit (the run polls)"
        case .limitAhead(let loop):
            "CF's clock, in whole microseconds, was still before \(loop)'s run limit (the run waits up to a microsecond)"
        case .wakeOnTime(let loop):
            "\(loop)'s wake for its timers came at the deadline (a timer due microseconds later waits for the next pass)"
        case .wakeLate(let loop):
            "\(loop)'s wake for its timers came tens of microseconds late (a timer due that soon fires in the same pass)"
        }
    }

    /// What happened when this option was taken: `thread worker went first`, or a clock's reading as it is.
    package var outcomeWords: String { isOrdering ? words + " went first" : words }
}

extension ScheduleBranchPoint {
    /// `at 1.0000ms, branch point 3: thread worker went first (the default: the outside event for main)`.
    package var words: String {
        let head = "at \(time), branch point \(index): \(options[chosen].outcomeWords)"
        return chosen == 0 ? head : head + " (the default: \(options[0].words))"
    }

    /// `at 1.0000ms, branch point 3: thread main went first; thread worker could have gone first instead`: the
    /// choice made and every one not made (the default among them is named so); for a clock's reading, `…: CF's
    /// clock had passed T's run limit (the run polls); or else CF's clock, …`.
    package var choiceWords: String {
        let others = options.indices.filter { $0 != chosen }.map {
            options[$0].words + ($0 == 0 ? " (the default)" : "")
        }
        let head = "at \(time), branch point \(index): \(options[chosen].outcomeWords); "
        guard options[chosen].isOrdering else { return head + "or else \(others.joined(separator: ", or else "))" }
        return head + "\(others.joined(separator: " or ")) could have gone first instead"
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
