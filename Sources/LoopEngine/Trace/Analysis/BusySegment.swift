/// A stretch of time in which a loop did not sleep: from the end of a wait (`afterWaiting`) or a run's `entry` to
/// the loop's next sleep (`beforeWaiting`, with the observers of it) or the outermost run's `exit`. This is what a
/// hang monitor measures (Tencent Matrix's two observers; KSCrash's watchdog classes).
package struct BusySegment: Hashable, Sendable {
    /// How long a segment was, in KSCrash's classes.
    package enum Severity: Int, Hashable, Sendable, Comparable, CaseIterable {
        /// Shorter than a micro-hang: listed only when a threshold below 100 ms asks for it.
        case slow
        /// 100 ms up to 250 ms.
        case microHang
        /// 250 ms up to 500 ms.
        case hang
        /// 500 ms or more.
        case severe

        package init(_ length: Duration) {
            switch length {
            case .milliseconds(500)...: self = .severe
            case .milliseconds(250)...: self = .hang
            case .milliseconds(100)...: self = .microHang
            default: self = .slow
            }
        }

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    package var loop: String
    package var start: LoopInstant
    package var end: LoopInstant
    /// The mode and depth of the run the segment began in.
    package var mode: String?
    package var depth: Int
    /// The activity that began it: `afterWaiting` or `entry`.
    package var startedBy: LoopEvent.Kind
    /// The activity that ended it: `beforeWaiting` or `exit`; nil when the trace ends first.
    package var endedBy: LoopEvent.Kind?
    /// The program's marks inside it (`note` events with a ``LoopEvent/Mark`` fact), in order.
    package var marks: [LoopEvent]
    /// The index of the event that began it.
    package var startIndex: Int
    /// The index of the last event in it (of its loop): a step is inside the segment when its event lies between
    /// the two indices on that loop.
    package var endIndex: Int

    package var length: Duration { end - start }
    package var severity: Severity { Severity(length) }

    /// Every busy segment of every loop in `events`, in the order they began.
    package static func all(in events: some Collection<LoopEvent>) -> [BusySegment] {
        var finder = Finder(keepingAtLeast: .zero)
        for event in events { finder.add(event) }
        return finder.finish().kept
    }
}
