import LoopEngine

/// `H`: the aggregate views. The totals are made once, when the overlay opens (one pass over the trace
/// computed), never per frame; the title says how many events they count.
struct StatsOverlay: Equatable {
    var stats: TraceStats
    var table: TraceStats.Table = .items
    /// The row highlighted in the table shown.
    var row = 0

    init(_ trace: some Sequence<LoopEvent>) {
        stats = TraceStats.of(trace)
    }

    /// How many rows the table shown has.
    var rowCount: Int { stats.rows(table).count }

    /// Where Enter on `row` of `table` goes: a filter of the events behind it and the first of them, or only the
    /// first event (a histogram's bar, which no filter can name).
    enum Target: Equatable {
        case filter(EventFilter, first: Int)
        case event(Int, what: String)
        case none(String)
    }

    func target(row: Int) -> Target {
        switch table {
        case .items:
            guard row < stats.items.count else { return .none("no callout") }
            let item = stats.items[row]
            var typed = "thread:\(item.loop) kind:\(item.kind.rawValue)"
            if let name = item.name { typed += " item:\(name)" }
            let filter = EventFilter(
                typed: typed, threads: [item.loop], kinds: [item.kind], items: item.name.map { [$0] } ?? [])
            return .filter(filter, first: item.firstIndex)
        case .activities:
            let activity = stats.activities[row]
            guard let first = activity.firstIndex else { return .none("\(activity.kind.rawValue) never happened") }
            let filter = EventFilter(typed: "kind:\(activity.kind.rawValue)", kinds: [activity.kind])
            return .filter(filter, first: first)
        case .iterations:
            let buckets = TraceStats.Bucket.allCases.count
            let sleeps = row >= buckets
            let bucket = TraceStats.Bucket.allCases[row % buckets]
            let histogram = sleeps ? stats.sleeps : stats.iterations
            let what = "\(sleeps ? "sleep" : "iteration") of \(TraceStats.label(bucket))"
            guard let first = histogram.firstIndex[bucket.rawValue] else { return .none("no \(what)") }
            return .event(first, what: "the first \(what)")
        }
    }
}
