import LoopEngine

extension TimelineRows.Row {
    /// Follows a recording's activities, for a trace without run starts, results, sleeps or wakes (an observer
    /// sees none of them): a run is open from its `entry` to its `exit` (by depth), the loop awake from `entry`
    /// or `afterWaiting` and asleep after `beforeWaiting`. An event's kind and depth are all it reads.
    mutating func follow(activity kind: LoopEvent.Kind, depth: Int) {
        switch kind {
        case .entry:
            runs = max(runs, depth)
            asleep = false
        case .exit: runs = min(runs, max(0, depth - 1))
        case .afterWaiting: asleep = false
        case .beforeWaiting: asleep = true
        default: break
        }
    }

    /// Whether a recording's loop was asleep just before the event at `index`: after its latest `beforeWaiting`
    /// unless an `afterWaiting` or `entry` came later. Looks back at most ``activityLookBack`` events (nil when
    /// none of them is the loop's activity).
    static func asleep(before index: Int, on loop: String, in trace: LoopTrace) -> Bool? {
        var position = min(index, trace.count)
        let floor = max(0, position - activityLookBack)
        while position > floor {
            position -= 1
            let event = trace[position]
            guard event.loop == loop else { continue }
            switch event.kind {
            case .beforeWaiting: return true
            case .afterWaiting, .entry, .exit: return false
            default: continue
            }
        }
        return nil
    }

    /// How far back a window's first row state is looked for in a recording: a bounded scan per new window.
    static let activityLookBack = 10_000
}
