/// The totals of a trace that the aggregate views and `loopviz stats` show: per item (callouts), per observer
/// activity, and histograms of iteration and sleep lengths. Made in one pass by ``Builder``, holding only a
/// bounded number of items and one open state per thread and depth, so a trace of 10⁷ events costs no more memory
/// than one of a hundred.
package struct TraceStats: Hashable, Sendable {
    /// The callouts of one item on one thread.
    package struct Item: Hashable, Sendable {
        package var loop: String
        /// The callout kind (`timer`, `source0`, `observer`, …).
        package var kind: LoopEvent.Kind
        /// The item's name; nil for an unnamed block.
        package var name: String?
        package var calls = 0
        /// The sum of the callouts' lengths: each lasts until its loop's next step at its depth or shallower (an
        /// activity, a sleep or wake, a result, another callout), so a nested run inside it counts.
        package var total: Duration = .zero
        package var longest: Duration = .zero
        /// The modes it was called in, in the order first seen; at most ``maximumModes``.
        package var modes: [String] = []
        /// The index of its first callout in the trace.
        package var firstIndex: Int

        package init(
            loop: String, kind: LoopEvent.Kind, name: String?, calls: Int = 0, total: Duration = .zero,
            longest: Duration = .zero, modes: [String] = [], firstIndex: Int
        ) {
            self.loop = loop
            self.kind = kind
            self.name = name
            self.calls = calls
            self.total = total
            self.longest = longest
            self.modes = modes
            self.firstIndex = firstIndex
        }
    }

    /// How often one observer activity was reached, and the time between two reaches on the same thread.
    package struct Activity: Hashable, Sendable {
        package var kind: LoopEvent.Kind
        package var count = 0
        /// How many gaps were measured (a thread's first reach has none).
        package var gaps = 0
        package var totalGap: Duration = .zero
        package var longestGap: Duration = .zero
        package var firstIndex: Int?

        /// The mean time between two reaches on one thread; nil with fewer than two.
        package var meanGap: Duration? { gaps == 0 ? nil : totalGap / gaps }
    }

    /// Lengths counted into ``Bucket``s.
    package struct Histogram: Hashable, Sendable {
        package var counts = [Int](repeating: 0, count: Bucket.allCases.count)
        /// The index of the event that began the first length of each bucket.
        package var firstIndex = [Int?](repeating: nil, count: Bucket.allCases.count)
        package var longest: Duration = .zero

        package var total: Int { counts.reduce(0, +) }

        mutating func add(_ length: Duration, startIndex: Int) {
            let bucket = Bucket(length).rawValue
            counts[bucket] += 1
            if firstIndex[bucket] == nil { firstIndex[bucket] = startIndex }
            longest = max(longest, length)
        }
    }

    /// Fixed, decade-wide buckets: the virtual clock gives many lengths of exactly zero.
    package enum Bucket: Int, Hashable, Sendable, CaseIterable {
        case zero, belowMillisecond, milliseconds1, milliseconds10, milliseconds100, seconds1, seconds10

        package init(_ length: Duration) {
            switch length {
            case ...Duration.zero: self = .zero
            case ..<Duration.milliseconds(1): self = .belowMillisecond
            case ..<Duration.milliseconds(10): self = .milliseconds1
            case ..<Duration.milliseconds(100): self = .milliseconds10
            case ..<Duration.seconds(1): self = .milliseconds100
            case ..<Duration.seconds(10): self = .seconds1
            default: self = .seconds10
            }
        }
    }

    /// At most this many items are kept; the calls of items past them are counted in ``otherCalls``.
    package static let maximumItems = 10_000
    /// At most this many modes are kept per item.
    package static let maximumModes = 8
    /// At most this many threads (and depths) are followed at once; events of others count only as events.
    package static let maximumOpenStates = 4_096

    package var events = 0
    /// Items in the order of their first callout.
    package var items: [Item] = []
    /// Callouts of items past ``maximumItems``.
    package var otherCalls = 0
    /// The six activities, in order (`entry` … `exit`).
    package var activities: [Activity] = LoopEvent.Kind.activities.map { Activity(kind: $0) }
    /// How long each iteration took: from its first event to its last on its thread at its depth.
    package var iterations = Histogram()
    /// How long each sleep lasted: from `sleep` to the thread's next `wake`.
    package var sleeps = Histogram()

    /// The totals of `events`.
    package static func of(_ events: some Sequence<LoopEvent>) -> TraceStats {
        var builder = Builder()
        for event in events { builder.add(event) }
        return builder.finish()
    }
}
