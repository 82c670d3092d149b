import LoopEngine

extension FirefoxProfileFormatter {
    /// One marker of a thread: an interval with its name, category and payload (`data`, already JSON members).
    struct Marker {
        var name: String
        var start: Int64
        var end: Int64
        var category: Category
        var type: MarkerType
        var fields: [(String, String)]
        /// True for a point in time (`INSTANT`, phase 0: its end is its start), else an interval (phase 1).
        var isInstant = false

        var dataJSON: String { JSONText.object([("type", JSONText.quoted(type.rawValue))] + fields) }
    }

    /// The profile's strings (`shared.stringArray`): each marker name once, in order of first use.
    struct StringTable {
        var values: [String] = []
        var index: [String: Int] = [:]

        mutating func add(_ text: String) {
            guard index[text] == nil else { return }
            index[text] = values.count
            values.append(text)
        }
    }

    /// Every marker of a trace, per thread, each thread's in order of start (ties in the order they were made).
    struct Markers {
        private(set) var threads: [String] = []
        private(set) var byThread: [[Marker]] = []
        private(set) var strings = StringTable()
        private var threadIndex: [String: Int] = [:]

        init(_ events: LoopTrace) {
            for event in events where threadIndex[event.loop] == nil {
                threadIndex[event.loop] = threads.count
                threads.append(event.loop)
                byThread.append([])
            }
            addSlices(events)
            addPhases(events)
            addHangs(events)
            addMarks(events)
            for index in byThread.indices {
                let markers = byThread[index]
                byThread[index] = markers.indices.sorted { (markers[$0].start, $0) < (markers[$1].start, $1) }
                    .map { markers[$0] }
                for marker in byThread[index] { strings.add(marker.name) }
            }
        }

        private mutating func add(_ marker: Marker, on thread: String) {
            guard let index = threadIndex[thread] else { return }
            byThread[index].append(marker)
        }

        /// Callouts and sleeps: the Chrome export's slices.
        private mutating func addSlices(_ events: LoopTrace) {
            for slice in ChromeTraceFormatter.slices(events) {
                let event = events[slice.event]
                let end = slice.start + slice.duration
                switch slice.role {
                case .callout:
                    // LoopRecorder's own observer is how a recording sees an activity, not the program's work.
                    let isRecorder = event.kind == .observer && event.name == HangAnalysis.recorderObserver
                    guard !isRecorder, let category = Category(callout: event.kind) else { continue }
                    var fields = [("kind", JSONText.quoted(event.kind.rawValue))]
                    if let item = event.name { fields.append(("item", JSONText.quoted(item))) }
                    if let mode = event.mode { fields.append(("mode", JSONText.quoted(mode))) }
                    if let detail = event.detail { fields.append(("detail", JSONText.quoted(detail))) }
                    let name = event.name.map { "\(event.kind.rawValue) \($0)" } ?? event.kind.rawValue
                    add(
                        Marker(
                            name: name, start: slice.start, end: end, category: category, type: .callout,
                            fields: fields), on: event.loop)
                case .sleep:
                    var fields: [(String, String)] = []
                    if let detail = event.detail { fields.append(("detail", JSONText.quoted(detail))) }
                    add(
                        Marker(
                            name: "sleep", start: slice.start, end: end, category: .sleep, type: .sleep, fields: fields),
                        on: event.loop)
                case .run, .iteration:
                    continue
                }
            }
        }

        /// The stretches between observer activities, named by the phase `loopviz hangs` names
        /// (`HangAnalysis.phase(after:following:depth:)`); one open per run depth of each loop.
        private mutating func addPhases(_ events: LoopTrace) {
            var open: [String: [OpenPhase]] = [:]
            var last: [String: Int64] = [:]
            for event in events {
                let loop = event.loop
                let now = event.time.nanoseconds
                last[loop] = now
                var stack = open[loop] ?? []
                let next = Self.phaseChange(at: event)
                // A shallower event ends the deeper runs' phases; a phase change ends the phases at its depth too.
                while let top = stack.last,
                    top.depth > event.depth || (top.depth == event.depth && (next != nil || Self.endsExit(top, event)))
                {
                    stack.removeLast()
                    addPhase(top, end: now, endedBy: event, on: loop)
                }
                if let next {
                    stack.append(
                        OpenPhase(
                            phase: next, start: now, depth: event.depth, mode: event.mode,
                            openedByBeforeSources: event.kind == .beforeSources))
                }
                open[loop] = stack
            }
            for (loop, stack) in open {
                for phase in stack.reversed() {
                    addPhase(phase, end: last[loop] ?? phase.start, endedBy: nil, on: loop)
                }
            }
        }

        /// The phase `event` starts, if it starts one (a poll's `sleep` does not: the loop does not sleep).
        private static func phaseChange(at event: LoopEvent) -> HangAnalysis.Phase? {
            if event.kind == .sleep, event.fact == .wait(.poll) { return nil }
            return HangAnalysis.phase(after: event, following: [], depth: event.depth)
        }

        /// An `exit` observers' phase ends at its run's result, or at the last observer of `exit` in a recording.
        private static func endsExit(_ open: OpenPhase, _ event: LoopEvent) -> Bool {
            guard open.phase == .exitObservers else { return false }
            return event.kind == .result
                || (event.kind == .observer && event.fact == .activity(.exit)
                    && event.name == HangAnalysis.recorderObserver)
        }

        private mutating func addPhase(_ open: OpenPhase, end: Int64, endedBy event: LoopEvent?, on loop: String) {
            var phase = open.phase
            // After beforeSources, whether the loop went on to wait: its next activity at this depth says it.
            if open.openedByBeforeSources {
                let waited = event.map { $0.kind == .beforeWaiting && $0.depth == open.depth } ?? false
                phase = waited ? .sourcesAndBlocks : .polledWork
            }
            var fields = [
                ("phase", JSONText.quoted(HangReport.description(phase))), ("depth", String(open.depth)),
            ]
            if let mode = open.mode { fields.append(("mode", JSONText.quoted(mode))) }
            add(
                Marker(
                    name: HangReport.name(phase), start: open.start, end: max(open.start, end),
                    category: Category(phase: phase), type: .phase, fields: fields), on: loop)
        }

        /// The program's marks (`LoopRecorder.mark`, `begin`, `end`): points in time, named by their label.
        private mutating func addMarks(_ events: LoopTrace) {
            for event in events where event.kind == .note {
                guard case .mark(let mark) = event.fact else { continue }
                let now = event.time.nanoseconds
                add(
                    Marker(
                        name: event.name ?? "mark", start: now, end: now, category: .other, type: .mark,
                        fields: [("mark", JSONText.quoted(mark.rawValue))], isInstant: true), on: event.loop)
            }
        }

        /// Busy segments as long as a hang by `loopviz hangs`' default threshold, with its verdict.
        private mutating func addHangs(_ events: LoopTrace) {
            var finder = BusySegment.Finder(keepingAtLeast: HangsCommand.defaultThreshold)
            for event in events { finder.add(event) }
            for segment in finder.finish().kept {
                let analysis = HangAnalysis(segment, in: events)
                var fields = [
                    ("verdict", JSONText.quoted(HangReport.verdict(analysis))),
                    ("length", JSONText.quoted(LoopEvent.seconds(segment.length))),
                ]
                if let held = analysis.heldBy {
                    fields.append(("heldBy", JSONText.quoted(HangReport.description(held))))
                }
                add(
                    Marker(
                        name: "hang", start: segment.start.nanoseconds, end: segment.end.nanoseconds, category: .hang,
                        type: .hang, fields: fields), on: segment.loop)
            }
        }
    }

    struct OpenPhase {
        var phase: HangAnalysis.Phase
        var start: Int64
        var depth: Int
        var mode: String?
        var openedByBeforeSources: Bool
    }
}
