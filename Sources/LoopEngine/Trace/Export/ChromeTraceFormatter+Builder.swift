extension ChromeTraceFormatter {
    /// One trace event of the output, kept small while the whole trace is read (a slice learns its duration
    /// when it closes): its names and arguments are not stored but written from the trace events it refers to,
    /// so a trace at the event budget needs tens of bytes per record, not hundreds.
    struct Record {
        enum Content {
            case slice(SliceRole)
            case instant
            case flowStart(id: Int)
            case flowEnd(id: Int)
            /// Hand-over `index` (of the builder's hand-overs): a slice of no duration on the sending thread, where
            /// its flow starts.
            case handOver(Int)
            case handOverFlowStart(id: Int)
            /// Series `counter` of ``ChromeTraceFormatter/counterNames`` now at `value`.
            case counter(Int, value: Int)
        }

        var content: Content
        /// The trace event it comes from (a counter's: the event that changed it, or first showed its thread).
        var event: Int
        var tid: Int
        /// Nanoseconds since the clock's origin.
        var ts: Int64
        var dur: Int64 = 0
        /// The loop step that closed a slice, when it tells something about it (a sleep's wake, a run's result).
        var closer: Int?

        func json(_ events: LoopTrace, flowNames: [Int: String], handOvers: [HandOver]) -> String {
            let event = events[self.event]
            let (name, category) = Self.title(content, event, flowNames, handOvers)
            var members: [(String, String)] = [
                ("name", JSONText.quoted(name)), ("cat", JSONText.quoted(category)),
                ("ph", JSONText.quoted(phase)), ("ts", Self.microseconds(ts)),
            ]
            switch content {
            case .slice, .handOver: members.append(("dur", Self.microseconds(dur)))
            default: break
            }
            members += [("pid", "1"), ("tid", String(tid))]
            switch content {
            case .instant: members.append(("s", JSONText.quoted("t")))
            case .flowStart(let id), .handOverFlowStart(let id): members.append(("id", String(id)))
            case .flowEnd(let id): members += [("id", String(id)), ("bp", JSONText.quoted("e"))]
            case .slice, .counter, .handOver: break
            }
            let args: [(String, String)]
            if case .handOver(let index) = content {
                args = [
                    ("to", JSONText.quoted(handOvers[index].to)), ("what", JSONText.quoted(handOvers[index].words)),
                ]
            } else {
                args = arguments(event, closer.map { events[$0] })
            }
            if !args.isEmpty { members.append(("args", JSONText.object(args))) }
            return JSONText.object(members)
        }

        var phase: String {
            switch content {
            case .slice, .handOver: "X"
            case .instant: "i"
            case .flowStart, .handOverFlowStart: "s"
            case .flowEnd: "f"
            case .counter: "C"
            }
        }

        static func title(
            _ content: Content, _ event: LoopEvent, _ flowNames: [Int: String], _ handOvers: [HandOver]
        ) -> (String, String) {
            switch content {
            case .slice(.run): return ("run \(event.name ?? "?")", "run")
            case .slice(.iteration): return ("iteration \(event.iteration)", "iteration")
            case .slice(.callout):
                return (event.name.map { "\(event.kind.rawValue) \($0)" } ?? event.kind.rawValue, "callout")
            case .slice(.sleep): return ("sleep", "sleep")
            case .instant: return Builder.instant(for: event) ?? (event.kind.rawValue, "control")
            case .flowStart(let id), .flowEnd(let id), .handOverFlowStart(let id): return (flowNames[id] ?? "", "flow")
            case .handOver(let index): return (handOvers[index].title, "handOver")
            case .counter(let series, _): return (ChromeTraceFormatter.counterNames[series], "counter")
            }
        }

        /// The `args` object's members, already JSON, in the order the format documents.
        func arguments(_ event: LoopEvent, _ closer: LoopEvent?) -> [(String, String)] {
            switch content {
            case .slice(.run):
                var args: [(String, String)] = [("mode", JSONText.quoted(event.name)), ("depth", String(event.depth))]
                if let detail = event.detail { args.append(("call", JSONText.quoted(detail))) }
                if let closer { args.append(("result", JSONText.quoted(closer.name))) }
                return args
            case .slice(.iteration):
                return [("mode", JSONText.quoted(event.mode)), ("depth", String(event.depth))]
            case .slice(.callout):
                var args: [(String, String)] = [("kind", JSONText.quoted(event.kind.rawValue))]
                if let name = event.name { args.append(("item", JSONText.quoted(name))) }
                if let detail = event.detail { args.append(("detail", JSONText.quoted(detail))) }
                return args
            case .slice(.sleep):
                var args = event.detail.map { [("detail", JSONText.quoted($0))] } ?? []
                if let closer { args.append(("woken by", JSONText.quoted(closer.detail))) }
                return args
            case .instant:
                return event.detail.map { [("detail", JSONText.quoted($0))] } ?? []
            case .flowStart, .flowEnd, .handOver, .handOverFlowStart:
                return []
            case .counter(_, let value):
                return [(event.loop, String(value))]
            }
        }

        static func microseconds(_ nanoseconds: Int64) -> String {
            JSONText.decimal(nanoseconds, decimals: 3)
        }
    }

    enum SliceRole {
        case run, iteration, callout, sleep
    }

    struct OpenSlice {
        var record: Int
        var role: SliceRole
        var depth: Int
        var iteration: Int
    }

    /// What the builder knows about one loop thread while it reads the trace.
    struct ThreadState {
        var tid: Int
        var stack: [OpenSlice] = []
        /// The last iteration opened at each depth, so an exit observer does not reopen its iteration.
        var lastIteration: [Int: Int] = [:]
        var signalled: Set<String> = []
        var pendingMessages = 0
        var timerFires = 0
        /// False for a thread first seen handing work over: its counters start at its first event.
        var counting = true
    }

    /// Reads the trace once, in order, and produces the slices, instants, flows and counters.
    struct Builder {
        let events: LoopTrace
        var records: [Record] = []
        var threads: [String: ThreadState] = [:]
        var threadOrder: [String] = []
        let flows: FlowPlan
        let handOvers: [HandOver]

        init(events: LoopTrace, handOvers: [HandOver] = []) {
            self.events = events
            self.handOvers = events.isEmpty ? [] : handOvers
            self.flows = FlowPlan(events, handOvers: self.handOvers)
        }

        mutating func build() {
            var nextHandOver = 0
            for (index, event) in events.enumerated() {
                while nextHandOver < handOvers.count, handOvers[nextHandOver].position <= index {
                    readHandOver(nextHandOver, before: index)
                    nextHandOver += 1
                }
                read(event, at: index)
            }
            let end = events.isEmpty ? 0 : events.reduce(Int64.min) { max($0, $1.time.nanoseconds) }
            for name in threadOrder {
                while let open = threads[name]?.stack.popLast() { close(open, at: end) }
            }
        }

        private mutating func read(_ event: LoopEvent, at index: Int) {
            var thread = state(for: event.loop, at: index)
            let now = event.time.nanoseconds
            if event.kind.isLoopStep {
                while let top = thread.stack.last, Self.closes(event, top) {
                    thread.stack.removeLast()
                    close(top, at: now, by: index)
                }
                open(event, at: index, in: &thread)
            }
            if Self.instant(for: event) != nil {
                records.append(Record(content: .instant, event: index, tid: thread.tid, ts: now))
            }
            for id in flows.ends[index] ?? [] {
                records.append(Record(content: .flowEnd(id: id), event: index, tid: thread.tid, ts: now))
            }
            for id in flows.starts[index] ?? [] {
                records.append(Record(content: .flowStart(id: id), event: index, tid: thread.tid, ts: now))
            }
            count(event, at: index, in: &thread)
            threads[event.loop] = thread
        }

        /// A hand-over that starts a flow: its slice and the flow's start on the sending thread, placed before the
        /// event at `index` (records refer to an event; this one only for its place).
        private mutating func readHandOver(_ handOver: Int, before index: Int) {
            guard let id = flows.handOverStarts[handOver], let from = handOvers[handOver].from else { return }
            if threads[from] == nil {
                threadOrder.append(from)
                threads[from] = ThreadState(tid: threadOrder.count, counting: false)
            }
            guard let tid = threads[from]?.tid else { return }
            let ts = handOvers[handOver].time.nanoseconds
            records.append(Record(content: .handOver(handOver), event: index, tid: tid, ts: ts))
            records.append(Record(content: .handOverFlowStart(id: id), event: index, tid: tid, ts: ts))
        }

        /// The thread's state, taken out of ``threads`` until `read` puts it back (a copy left there would make
        /// every change to its stack copy the stack); the first sight of a thread assigns its track and starts its
        /// counters at zero.
        private mutating func state(for name: String, at index: Int) -> ThreadState {
            var thread: ThreadState
            if let existing = threads.removeValue(forKey: name) {
                guard !existing.counting else { return existing }
                thread = existing
                thread.counting = true
            } else {
                threadOrder.append(name)
                thread = ThreadState(tid: threadOrder.count)
            }
            for series in ChromeTraceFormatter.counterNames.indices {
                records.append(counterRecord(series, at: index, tid: thread.tid, value: 0))
            }
            return thread
        }

        // MARK: - Slices

        /// Whether the loop step `event` ends the open slice `slice`.
        static func closes(_ event: LoopEvent, _ slice: OpenSlice) -> Bool {
            if slice.depth != event.depth { return slice.depth > event.depth }
            switch slice.role {
            case .callout, .sleep:
                return true
            case .iteration:
                return event.kind == .exit || event.kind == .result || event.kind == .runStart
                    || event.iteration != slice.iteration
            case .run:
                return event.kind == .result || event.kind == .runStart
            }
        }

        private mutating func open(_ event: LoopEvent, at index: Int, in thread: inout ThreadState) {
            let depth = event.depth
            if event.kind == .runStart {
                thread.lastIteration[depth] = 0
                push(.run, event, at: index, in: &thread)
                return
            }
            if depth >= 1, event.iteration > thread.lastIteration[depth, default: 0], event.kind != .exit,
                event.kind != .result
            {
                thread.lastIteration[depth] = event.iteration
                push(.iteration, event, at: index, in: &thread)
            }
            if event.kind.isCallout {
                push(.callout, event, at: index, in: &thread)
            } else if event.kind == .sleep {
                push(.sleep, event, at: index, in: &thread)
            }
        }

        private mutating func push(
            _ role: SliceRole, _ event: LoopEvent, at index: Int, in thread: inout ThreadState
        ) {
            records.append(Record(content: .slice(role), event: index, tid: thread.tid, ts: event.time.nanoseconds))
            thread.stack.append(
                OpenSlice(record: records.count - 1, role: role, depth: event.depth, iteration: event.iteration))
        }

        /// Ends `slice` at `end`; `closer` is the loop step that ended it (none when the trace ended first).
        private mutating func close(_ slice: OpenSlice, at end: Int64, by closer: Int? = nil) {
            records[slice.record].dur = max(0, end - records[slice.record].ts)
            guard let closer else { return }
            let event = events[closer]
            if slice.role == .sleep, event.kind == .wake, event.depth == slice.depth {
                records[slice.record].closer = closer
            } else if slice.role == .run, event.kind == .result, event.depth == slice.depth {
                records[slice.record].closer = closer
            }
        }

        // MARK: - Instants

        static func instant(for event: LoopEvent) -> (name: String, category: String)? {
            let kind = event.kind
            if kind.isActivity { return (kind.rawValue, "activity") }
            switch kind {
            case .result: return ("result \(event.name ?? "?")", "result")
            case .wake: return ("wake", "wake")
            case .signal, .send, .wakeUp, .stop, .note, .schedule, .cancel, .invalidate:
                return (event.name.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue, "control")
            // What the program asked and was told: `query currentMode is Modal`.
            case .query: return (event.step, "query")
            default: return nil
            }
        }

        // MARK: - Counters

        private mutating func count(_ event: LoopEvent, at index: Int, in thread: inout ThreadState) {
            let before = (thread.signalled.count, thread.pendingMessages, thread.timerFires)
            switch event.kind {
            case .signal: if let name = event.name { thread.signalled.insert(name) }
            case .source0: if let name = event.name { thread.signalled.remove(name) }
            case .send: thread.pendingMessages += 1
            case .source1: thread.pendingMessages = max(0, thread.pendingMessages - event.messagesConsumed)
            case .timer: thread.timerFires += 1
            default: break
            }
            let after = (thread.signalled.count, thread.pendingMessages, thread.timerFires)
            if after.0 != before.0 { records.append(counterRecord(0, at: index, tid: thread.tid, value: after.0)) }
            if after.1 != before.1 { records.append(counterRecord(1, at: index, tid: thread.tid, value: after.1)) }
            if after.2 != before.2 { records.append(counterRecord(2, at: index, tid: thread.tid, value: after.2)) }
        }

        private func counterRecord(_ series: Int, at index: Int, tid: Int, value: Int) -> Record {
            Record(
                content: .counter(series, value: value), event: index, tid: tid, ts: events[index].time.nanoseconds)
        }
    }
}
