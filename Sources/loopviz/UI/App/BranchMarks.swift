import LoopEngine

/// The events of a trace whose place depends on a schedule choice: each branch point of the run
/// (`ScheduleBranchPoint`) marks the first event recorded after it, the first one the other option could have
/// changed. Typed data, kept with the trace, so the event log, the Why pane and the timeline all read one fact.
struct BranchMarks: Equatable {
    /// The branch points, by the index of the event each marks (several choices can precede one event).
    private(set) var byEvent: [Int: [ScheduleBranchPoint]] = [:]
    /// Every branch point of the run, in order (what a schedule's choices are indexed by).
    private(set) var points: [ScheduleBranchPoint] = []
    /// The run met more branch points than are recorded (`Schedule.maximumBranchPoints`): later ones are unmarked.
    private(set) var cut = false
    /// The marked events' indexes, ascending: a window's marks are a binary search away (a frame asks for them).
    private var ordered: [Int] = []

    init() {}

    /// The marks of a run of `events` events with these branch points; a choice after the last event marks none.
    init(_ points: [ScheduleBranchPoint], cut: Bool, events: Int) {
        self.points = points
        self.cut = cut
        for point in points where point.eventCount < events {
            byEvent[point.eventCount, default: []].append(point)
        }
        ordered = byEvent.keys.sorted()
    }

    /// The choices that precede the event at `index` (empty when its place depends on none).
    func points(at index: Int) -> [ScheduleBranchPoint] { byEvent[index] ?? [] }

    /// True when no event follows a schedule choice (a run without races: nothing to mark).
    var isEmpty: Bool { byEvent.isEmpty }

    /// True when the event at `index` follows a schedule choice.
    func isMarked(_ index: Int) -> Bool { byEvent[index] != nil }

    /// The marked event indexes in `range`, in order (for a panel drawing a window of the trace).
    func marked(in range: Range<Int>) -> [Int] {
        Array(ordered[first(atOrAfter: range.lowerBound)..<first(atOrAfter: range.upperBound)])
    }

    /// The position in ``ordered`` of the first marked event at `index` or later.
    private func first(atOrAfter index: Int) -> Int {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if ordered[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
