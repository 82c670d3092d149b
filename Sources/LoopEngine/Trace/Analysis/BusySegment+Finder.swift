extension BusySegment {
    /// Finds the busy segments of a trace one event at a time, so a recording of hours is read without keeping its
    /// events: only the open segments (one or two a loop) and the segments at least `keepingAtLeast` long are
    /// held; the others are counted.
    package struct Finder {
        /// What a whole trace's segments come to.
        package struct Summary {
            /// The segments at least the length asked for, in the order they began.
            package var kept: [BusySegment]
            /// How many segments there were, kept or not.
            package var count: Int
            /// The longest segment's length; nil when there is none.
            package var longest: Duration?
        }

        private let shortest: Duration
        private var open: [String: BusySegment] = [:]
        /// A segment whose `beforeWaiting` was seen: the observers of it and the `sleep` still belong to it.
        private var closing: [String: BusySegment] = [:]
        private var kept: [BusySegment] = []
        private var count = 0
        private var longest: Duration?
        private var index = 0

        /// A finder that keeps the segments at least `shortest` long (`.zero`: every one).
        package init(keepingAtLeast shortest: Duration) { self.shortest = shortest }

        /// The trace's next event.
        package mutating func add(_ event: LoopEvent) {
            defer { index += 1 }
            let loop = event.loop
            // Most events meet no closing segment: the dictionary is empty and not hashed.
            if !closing.isEmpty, var segment = closing[loop] {
                // A note (a mark, a stack sample) while the observers of beforeWaiting or exit still run: they are
                // not done yet.
                if event.kind == .note { return }
                if event.kind == .observer, event.fact == .activity(.beforeWaiting) || event.fact == .activity(.exit) {
                    segment.end = event.time
                    segment.endIndex = index
                    closing[loop] = segment
                    return
                }
                if event.kind == .sleep {
                    segment.end = event.time
                    segment.endIndex = index
                }
                done(segment)
                closing[loop] = nil
                if event.kind == .sleep { return }
            }
            switch event.kind {
            case .afterWaiting, .entry:
                guard open[loop] == nil else { break }
                open[loop] = BusySegment(
                    loop: loop, start: event.time, end: event.time, mode: event.mode, depth: event.depth,
                    startedBy: event.kind, endedBy: nil, marks: [], startIndex: index, endIndex: index)
            case .beforeWaiting, .exit:
                guard var segment = open[loop], event.kind == .beforeWaiting || event.depth <= 1 else { break }
                segment.end = event.time
                segment.endIndex = index
                segment.endedBy = event.kind
                closing[loop] = segment
                open[loop] = nil
            case .note:
                guard case .mark = event.fact, open[loop] != nil else { break }
                open[loop]?.marks.append(event)
            default:
                break
            }
            if let slot = open.index(forKey: loop) {
                open.values[slot].end = event.time
                open.values[slot].endIndex = index
            }
        }

        /// ``add(_:)`` of the event at `index` of the trace. The events of each loop come in order; of a loop's
        /// events that can only move its open segment's end, the last before the next one given is enough
        /// (``BusySegment/all(in:)-(LoopTrace)``).
        package mutating func add(_ event: LoopEvent, at index: Int) {
            self.index = index
            add(event)
        }

        /// The segments, once every event is added: those still open end with the trace.
        package mutating func finish() -> Summary {
            for segment in closing.values { done(segment) }
            for segment in open.values { done(segment) }
            closing = [:]
            open = [:]
            kept.sort { ($0.start, $0.startIndex) < ($1.start, $1.startIndex) }
            return Summary(kept: kept, count: count, longest: longest)
        }

        private mutating func done(_ segment: BusySegment) {
            count += 1
            let length = segment.length
            if longest.map({ length > $0 }) ?? true { longest = length }
            if length >= shortest { kept.append(segment) }
        }
    }
}
