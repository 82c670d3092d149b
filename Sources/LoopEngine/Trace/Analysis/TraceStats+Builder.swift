extension TraceStats {
    /// Adds events one at a time (a trace streamed from a file, or the UI's trace as it grows): O(1) work per
    /// event, memory bounded by ``TraceStats/maximumItems`` and ``TraceStats/maximumOpenStates``.
    package struct Builder: Sendable {
        private struct ItemKey: Hashable, Sendable {
            var loop: String
            var kind: LoopEvent.Kind
            var name: String?
        }

        private struct OpenIteration: Sendable {
            var iteration: Int
            var start: LoopInstant
            var last: LoopInstant
            var startIndex: Int
        }

        private struct Depth: Hashable, Sendable {
            var loop: String
            var depth: Int
        }

        private var stats = TraceStats()
        private var itemIndex: [ItemKey: Int] = [:]
        private struct OpenCallout: Sendable {
            var item: Int
            var start: LoopInstant
            var depth: Int
        }

        /// Per thread: the callouts not yet returned, innermost last (a callout that runs a nested run holds its
        /// loop for the whole nested run, whose own callouts are deeper).
        private var openCallouts: [String: [OpenCallout]] = [:]
        private var openSleeps: [String: (start: LoopInstant, index: Int)] = [:]
        private var openIterations: [Depth: OpenIteration] = [:]
        /// Per thread: when each activity was last reached.
        private var lastActivity: [String: [LoopInstant?]] = [:]

        package init() {}

        /// How many events have been added.
        package var count: Int { stats.events }

        package mutating func add(_ event: LoopEvent) {
            let index = stats.events
            stats.events += 1
            if Self.endsCallouts(event.kind), var open = openCallouts[event.loop] {
                while let last = open.last, last.depth >= event.depth {
                    let length = max(.zero, event.time - last.start)
                    stats.items[last.item].total += length
                    stats.items[last.item].longest = max(stats.items[last.item].longest, length)
                    open.removeLast()
                }
                openCallouts[event.loop] = open.isEmpty ? nil : open
            }
            if event.kind.isCallout { addCallout(event, index: index) }
            if let activity = LoopEvent.Kind.activities.firstIndex(of: event.kind) {
                addActivity(activity, event, index: index)
            }
            switch event.kind {
            case .sleep:
                if openSleeps[event.loop] != nil || openSleeps.count < TraceStats.maximumOpenStates {
                    openSleeps[event.loop] = (event.time, index)
                }
            case .wake:
                if let sleep = openSleeps.removeValue(forKey: event.loop) {
                    stats.sleeps.add(max(.zero, event.time - sleep.start), startIndex: sleep.index)
                }
            default: break
            }
            addToIteration(event, index: index)
        }

        private mutating func addCallout(_ event: LoopEvent, index: Int) {
            let key = ItemKey(loop: event.loop, kind: event.kind, name: event.name)
            let item: Int
            if let known = itemIndex[key] {
                item = known
            } else if stats.items.count < TraceStats.maximumItems {
                item = stats.items.count
                itemIndex[key] = item
                stats.items.append(Item(loop: event.loop, kind: event.kind, name: event.name, firstIndex: index))
            } else {
                stats.otherCalls += 1
                return
            }
            stats.items[item].calls += 1
            if let mode = event.mode, !stats.items[item].modes.contains(mode),
                stats.items[item].modes.count < TraceStats.maximumModes
            {
                stats.items[item].modes.append(mode)
            }
            let callout = OpenCallout(item: item, start: event.time, depth: event.depth)
            if var open = openCallouts[event.loop] {
                if open.count < TraceStats.maximumOpenStates { open.append(callout) }
                openCallouts[event.loop] = open
            } else if openCallouts.count < TraceStats.maximumOpenStates {
                openCallouts[event.loop] = [callout]
            }
        }

        /// The loop's own steps end the callouts at their depth or deeper: the loop is past them. What a callout
        /// does while it runs (a say, a signal, a send, a wake-up, a query, a block queued…) does not.
        private static func endsCallouts(_ kind: LoopEvent.Kind) -> Bool {
            switch kind {
            case .runStart, .entry, .beforeTimers, .beforeSources, .beforeWaiting, .afterWaiting, .exit, .sleep,
                .wake, .result:
                true
            default: kind.isCallout
            }
        }

        private mutating func addActivity(_ activity: Int, _ event: LoopEvent, index: Int) {
            stats.activities[activity].count += 1
            if stats.activities[activity].firstIndex == nil { stats.activities[activity].firstIndex = index }
            guard lastActivity[event.loop] != nil || lastActivity.count < TraceStats.maximumOpenStates else { return }
            var last = lastActivity[event.loop] ?? [LoopInstant?](repeating: nil, count: 6)
            if let previous = last[activity] {
                let gap = max(.zero, event.time - previous)
                stats.activities[activity].gaps += 1
                stats.activities[activity].totalGap += gap
                stats.activities[activity].longestGap = max(stats.activities[activity].longestGap, gap)
            }
            last[activity] = event.time
            lastActivity[event.loop] = last
        }

        /// An iteration of a run is its events at its depth with one iteration number; it ends at the next
        /// number, or at the run's `exit`.
        private mutating func addToIteration(_ event: LoopEvent, index: Int) {
            guard event.depth >= 1, event.iteration >= 1 else { return }
            let key = Depth(loop: event.loop, depth: event.depth)
            if let open = openIterations[key], open.iteration != event.iteration {
                stats.iterations.add(open.last - open.start, startIndex: open.startIndex)
                openIterations[key] = nil
            }
            if var open = openIterations[key] {
                open.last = event.time
                openIterations[key] = open
            } else if openIterations.count < TraceStats.maximumOpenStates {
                openIterations[key] = OpenIteration(
                    iteration: event.iteration, start: event.time, last: event.time, startIndex: index)
            }
            if event.kind == .exit, let open = openIterations.removeValue(forKey: key) {
                stats.iterations.add(open.last - open.start, startIndex: open.startIndex)
            }
        }

        /// The totals so far: iterations still open count as they stand; callouts still open end at their start
        /// and sleeps still open are not counted (the trace ended inside them). Does not change the builder.
        package func finish() -> TraceStats {
            var done = stats
            for open in openIterations.values.sorted(by: { $0.startIndex < $1.startIndex }) {
                done.iterations.add(open.last - open.start, startIndex: open.startIndex)
            }
            return done
        }
    }
}
