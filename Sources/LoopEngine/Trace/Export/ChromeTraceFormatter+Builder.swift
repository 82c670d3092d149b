extension ChromeTraceFormatter {
    /// One trace event of the output, kept mutable until the whole trace is read (a slice learns its duration
    /// when it closes).
    struct Record {
        enum Phase: String {
            case complete = "X"
            case instant = "i"
            case counter = "C"
            case flowStart = "s"
            case flowEnd = "f"
        }

        var phase: Phase
        var name: String
        var category: String
        var tid: Int
        /// Nanoseconds since the clock's origin.
        var ts: Int64
        var dur: Int64 = 0
        var flowID = 0
        /// Argument values, already JSON.
        var args: [(String, String)] = []

        var json: String {
            var members: [(String, String)] = [
                ("name", JSONText.quoted(name)), ("cat", JSONText.quoted(category)),
                ("ph", JSONText.quoted(phase.rawValue)), ("ts", Self.microseconds(ts)),
            ]
            if phase == .complete { members.append(("dur", Self.microseconds(dur))) }
            members += [("pid", "1"), ("tid", String(tid))]
            switch phase {
            case .instant: members.append(("s", JSONText.quoted("t")))
            case .flowStart: members.append(("id", String(flowID)))
            case .flowEnd: members += [("id", String(flowID)), ("bp", JSONText.quoted("e"))]
            case .complete, .counter: break
            }
            if !args.isEmpty { members.append(("args", JSONText.object(args))) }
            return JSONText.object(members)
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
    }

    /// Reads the trace once, in order, and produces the slices, instants, flows and counters.
    struct Builder {
        let events: [LoopEvent]
        var records: [Record] = []
        var threads: [String: ThreadState] = [:]
        var threadOrder: [String] = []
        let flows: FlowPlan

        init(events: [LoopEvent]) {
            self.events = events
            self.flows = FlowPlan(events)
        }

        mutating func build() {
            for (index, event) in events.enumerated() { read(event, at: index) }
            let end = events.map(\.time.nanoseconds).max() ?? 0
            for name in threadOrder {
                while let open = threads[name]?.stack.popLast() { close(open, at: end) }
            }
        }

        private mutating func read(_ event: LoopEvent, at index: Int) {
            var thread = state(for: event.loop, at: event.time.nanoseconds)
            let now = event.time.nanoseconds
            if event.kind.isLoopStep {
                while let top = thread.stack.last, Self.closes(event, top) {
                    thread.stack.removeLast()
                    close(top, at: now, by: event)
                }
                open(event, in: &thread)
            }
            if let instant = Self.instant(for: event) {
                var record = Record(
                    phase: .instant, name: instant.name, category: instant.category, tid: thread.tid, ts: now)
                if let detail = event.detail { record.args = [("detail", JSONText.quoted(detail))] }
                records.append(record)
            }
            for id in flows.ends[index] ?? [] {
                records.append(
                    Record(
                        phase: .flowEnd, name: flows.names[id] ?? "", category: "flow", tid: thread.tid, ts: now,
                        flowID: id))
            }
            for id in flows.starts[index] ?? [] {
                records.append(
                    Record(
                        phase: .flowStart, name: flows.names[id] ?? "", category: "flow", tid: thread.tid, ts: now,
                        flowID: id))
            }
            count(event, in: &thread)
            threads[event.loop] = thread
        }

        /// The thread's state; the first sight of a thread assigns its track and starts its counters at zero.
        private mutating func state(for name: String, at now: Int64) -> ThreadState {
            if let existing = threads[name] { return existing }
            threadOrder.append(name)
            let thread = ThreadState(tid: threadOrder.count)
            for counter in ChromeTraceFormatter.counterNames {
                records.append(counterRecord(counter, thread: name, tid: thread.tid, at: now, value: 0))
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

        private mutating func open(_ event: LoopEvent, in thread: inout ThreadState) {
            let depth = event.depth
            if event.kind == .runStart {
                thread.lastIteration[depth] = 0
                var args: [(String, String)] = [("mode", JSONText.quoted(event.name)), ("depth", String(depth))]
                if let detail = event.detail { args.append(("call", JSONText.quoted(detail))) }
                push(.run, "run \(event.name ?? "?")", "run", event, args, in: &thread)
                return
            }
            if depth >= 1, event.iteration > thread.lastIteration[depth, default: 0], event.kind != .exit,
                event.kind != .result
            {
                thread.lastIteration[depth] = event.iteration
                let args = [("mode", JSONText.quoted(event.mode)), ("depth", String(depth))]
                push(.iteration, "iteration \(event.iteration)", "iteration", event, args, in: &thread)
            }
            if event.kind.isCallout {
                var args: [(String, String)] = [("kind", JSONText.quoted(event.kind.rawValue))]
                if let name = event.name { args.append(("item", JSONText.quoted(name))) }
                if let detail = event.detail { args.append(("detail", JSONText.quoted(detail))) }
                let title = event.name.map { "\(event.kind.rawValue) \($0)" } ?? event.kind.rawValue
                push(.callout, title, "callout", event, args, in: &thread)
            } else if event.kind == .sleep {
                let args = event.detail.map { [("detail", JSONText.quoted($0))] } ?? []
                push(.sleep, "sleep", "sleep", event, args, in: &thread)
            }
        }

        private mutating func push(
            _ role: SliceRole, _ name: String, _ category: String, _ event: LoopEvent, _ args: [(String, String)],
            in thread: inout ThreadState
        ) {
            records.append(
                Record(
                    phase: .complete, name: name, category: category, tid: thread.tid, ts: event.time.nanoseconds,
                    args: args))
            thread.stack.append(
                OpenSlice(record: records.count - 1, role: role, depth: event.depth, iteration: event.iteration))
        }

        private mutating func close(_ slice: OpenSlice, at end: Int64, by event: LoopEvent? = nil) {
            records[slice.record].dur = max(0, end - records[slice.record].ts)
            guard let event else { return }
            if slice.role == .sleep, event.kind == .wake, event.depth == slice.depth {
                records[slice.record].args.append(("woken by", JSONText.quoted(event.detail)))
            } else if slice.role == .run, event.kind == .result, event.depth == slice.depth {
                records[slice.record].args.append(("result", JSONText.quoted(event.name)))
            }
        }

        // MARK: - Instants

        static func instant(for event: LoopEvent) -> (name: String, category: String)? {
            let kind = event.kind
            if kind.isActivity { return (kind.rawValue, "activity") }
            switch kind {
            case .result: return ("result \(event.name ?? "?")", "result")
            case .wake: return ("wake", "wake")
            case .signal, .send, .wakeUp, .stop, .note, .schedule, .cancel:
                return (event.name.map { "\(kind.rawValue) \($0)" } ?? kind.rawValue, "control")
            default: return nil
            }
        }

        // MARK: - Counters

        private mutating func count(_ event: LoopEvent, in thread: inout ThreadState) {
            let now = event.time.nanoseconds
            let before = (thread.signalled.count, thread.pendingMessages, thread.timerFires)
            switch event.kind {
            case .signal: if let name = event.name { thread.signalled.insert(name) }
            case .source0: if let name = event.name { thread.signalled.remove(name) }
            case .send: thread.pendingMessages += 1
            case .source1: thread.pendingMessages = max(0, thread.pendingMessages - Self.messages(event.detail))
            case .timer: thread.timerFires += 1
            default: break
            }
            let names = ChromeTraceFormatter.counterNames
            if thread.signalled.count != before.0 {
                records.append(
                    counterRecord(names[0], thread: event.loop, tid: thread.tid, at: now, value: thread.signalled.count)
                )
            }
            if thread.pendingMessages != before.1 {
                records.append(
                    counterRecord(names[1], thread: event.loop, tid: thread.tid, at: now, value: thread.pendingMessages)
                )
            }
            if thread.timerFires != before.2 {
                records.append(
                    counterRecord(names[2], thread: event.loop, tid: thread.tid, at: now, value: thread.timerFires))
            }
        }

        /// Messages a source1 perform consumed: its detail reads `N messages`; none means one.
        static func messages(_ detail: String?) -> Int {
            guard let detail, let number = detail.split(separator: " ").first, let count = Int(number) else {
                return 1
            }
            return count
        }

        private func counterRecord(_ name: String, thread: String, tid: Int, at now: Int64, value: Int) -> Record {
            Record(phase: .counter, name: name, category: "counter", tid: tid, ts: now, args: [(thread, String(value))])
        }
    }
}
