/// What a program can see of one run: each thread's own observable steps (`TraceComparison/isObservable(_:ignoringRunBoundaries:includingSayNotes:sourceCallouts:)`),
/// without times. Two schedules that give equal outcomes are one outcome to a program, however their threads
/// interleaved: `loopviz explore` groups runs by it.
package struct ObservableOutcome: Hashable, Sendable {
    /// One thread's steps.
    package struct Thread: Sendable {
        package let name: String
        /// The observable events, in order (kept whole, for their words and times).
        package let events: [LoopEvent]
    }

    /// What makes two steps the same step: kind and name, and what the program reads (a run's Bool, a query's
    /// answer, a `say`); never the time.
    struct Step: Hashable, Sendable {
        let kind: LoopEvent.Kind
        let name: String?
        let fact: LoopEvent.Fact?

        init(_ event: LoopEvent) {
            kind = event.kind
            name = event.name
            switch event.fact {
            case .returned?, .query?, .note(.say)?: fact = event.fact
            default: fact = nil
            }
        }
    }

    /// The threads in declaration order, then those that appeared later (detached threads, workers).
    package let threads: [Thread]
    private let key: [[Step]]

    /// The outcome of `events`, threads in the order of `declared`, then the others as they first appear.
    /// `ignoringRunBoundaries`: without run starts and results (the real CFRunLoop's trace has none of a thread's
    /// own runs, which only the program sees).
    package init(_ events: some Sequence<LoopEvent>, declared: [String], ignoringRunBoundaries: Bool = false) {
        var names = declared
        var byThread: [String: [LoopEvent]] = [:]
        for event in events
        where TraceComparison.isObservable(event, ignoringRunBoundaries: ignoringRunBoundaries) {
            if byThread[event.loop] == nil, !names.contains(event.loop) { names.append(event.loop) }
            byThread[event.loop, default: []].append(event)
        }
        threads = names.map { Thread(name: $0, events: byThread[$0] ?? []) }
        key = threads.map { $0.events.map(Step.init) }
    }

    /// True when two events are the same step of the same thread at the same depth, whatever their times.
    package static func sameStep(_ a: LoopEvent, _ b: LoopEvent) -> Bool {
        a.loop == b.loop && a.depth == b.depth && Step(a) == Step(b)
    }

    package static func == (a: ObservableOutcome, b: ObservableOutcome) -> Bool {
        a.threads.map(\.name) == b.threads.map(\.name) && a.key == b.key
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(threads.map(\.name))
        hasher.combine(key)
    }

    /// Where two outcomes first part: a thread and its step index, with each side's step there (nil past the end).
    package struct Divergence: Sendable {
        package let thread: String
        package let step: Int
        package let this: LoopEvent?
        package let other: LoopEvent?
    }

    /// The first step, thread by thread in this outcome's order, where this outcome and `other` differ; nil
    /// when they are equal.
    package func firstDivergence(from other: ObservableOutcome) -> Divergence? {
        var names = threads.map(\.name)
        for thread in other.threads where !names.contains(thread.name) { names.append(thread.name) }
        for name in names {
            let mine = threads.first { $0.name == name }?.events ?? []
            let theirs = other.threads.first { $0.name == name }?.events ?? []
            for index in 0..<max(mine.count, theirs.count) {
                let left = index < mine.count ? mine[index] : nil
                let right = index < theirs.count ? theirs[index] : nil
                if left.map(Step.init) != right.map(Step.init) {
                    return Divergence(thread: name, step: index, this: left, other: right)
                }
            }
        }
        return nil
    }
}
