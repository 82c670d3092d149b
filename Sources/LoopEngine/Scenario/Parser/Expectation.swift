/// What a lesson promises about its trace (an `expect` section).
///
/// `expect exactly` lists every observable step (the six activities, callouts, run starts and results, the Bool
/// `run(mode:before:)` returns, the answers of queries) in order;
/// `expect in order` lists some events (any kind) that must appear in that order, others may come between;
/// `expect` alone lists claims, each checked on the whole trace by itself: how many times something happens
/// (`timer tick 3 times`, `at most once`, `at least 2 times`; without a count, at least once) or that it never
/// does (`never source0 s`).
/// A line may give a time (`0.100 timer tick`) that must match to the digits written: `0.100` is any instant from
/// 0.100 s up to (not including) 0.101 s, so an event 1.5 µs later - the virtual clock's iteration cost - still
/// is at `0.100`, and `0.1000015` pins it to 100 ns; or a range (`between 2.0s and 2.5s`, `before 0.5s`,
/// `after 1s`). A line may give a thread (`worker: perform upload`) when several threads run, and the mode of
/// the innermost run (`timer tick in Tracking`).
public struct Expectation: Sendable, Equatable {
    package enum Mode: String, Sendable, Equatable {
        case exactly
        case inOrder = "in order"
        /// `expect` alone: each line a claim about the whole trace.
        case claims
    }

    /// Instants an event must lie in: from `start` (included) to `end` (excluded); nil is unbounded.
    package struct TimeRange: Sendable, Equatable {
        package var start: Duration?
        package var end: Duration?

        package init(from start: Duration? = nil, upTo end: Duration? = nil) {
            self.start = start
            self.end = end
        }

        package func contains(_ instant: LoopInstant) -> Bool {
            if let start, instant < .zero + start { return false }
            if let end, instant >= .zero + end { return false }
            return true
        }
    }

    /// How many times a claim's events happen.
    package enum Count: Sendable, Equatable, CustomStringConvertible {
        case exactly(Int)
        case atMost(Int)
        case atLeast(Int)

        package func holds(_ count: Int) -> Bool {
            switch self {
            case .exactly(let n): count == n
            case .atMost(let n): count <= n
            case .atLeast(let n): count >= n
            }
        }

        /// `never`, `once`, `3 times`, `at most once`, `at least 2 times`.
        package var description: String {
            func times(_ n: Int) -> String { n == 1 ? "once" : "\(n) times" }
            switch self {
            case .exactly(0): return "never"
            case .exactly(let n): return times(n)
            case .atMost(let n): return "at most \(times(n))"
            case .atLeast(let n): return "at least \(times(n))"
            }
        }
    }

    /// A query an expected step names: the question, and the answer unless any answer will do.
    package struct QueryPattern: Sendable, Equatable {
        package var question: LoopQuery
        package var answer: QueryAnswer?
        /// How precisely a date answer was written (as a step's time: `0.300` is 0.300 s up to 0.301 s).
        package var resolution: Duration

        package init(question: LoopQuery, answer: QueryAnswer? = nil, resolution: Duration = .nanoseconds(1)) {
            self.question = question
            self.answer = answer
            self.resolution = max(resolution, .nanoseconds(1))
        }

        package func matches(_ question: LoopQuery, _ answer: QueryAnswer) -> Bool {
            guard question == self.question else { return false }
            guard let expected = self.answer else { return true }
            if case .date(let wanted) = expected, case .date(let actual) = answer {
                return actual >= wanted && actual < wanted + resolution
            }
            return expected == answer
        }
    }

    /// One expected event.
    package struct Step: Sendable, Equatable, CustomStringConvertible {
        package var time: Duration?
        /// How precisely `time` was written (its last digit's value; 1 ns: exact): the step matches an event from
        /// `time` up to, not including, `time + resolution`.
        package var resolution: Duration
        /// `between … and …`, `before …`, `after …`: where the event must lie (instead of a `time`).
        package var range: TimeRange?
        package var thread: String?
        package var kind: LoopEvent.Kind
        package var name: String?
        /// `returned true|false`: the Bool a `run(mode:before:)` gave back (a `note` with that fact).
        package var returned: Bool?
        /// `query …`: the question and, with `is`, the answer.
        package var query: QueryPattern?
        /// `in MODE`: the mode of the innermost run when the event happened.
        package var mode: String?
        /// A claim's count (`expect` alone); nil: at least once.
        package var count: Count?
        /// Where it was written, for failure reports.
        package var line: Int

        package init(
            time: Duration? = nil, resolution: Duration = .nanoseconds(1), range: TimeRange? = nil,
            thread: String? = nil, kind: LoopEvent.Kind, name: String? = nil, returned: Bool? = nil,
            query: QueryPattern? = nil, mode: String? = nil, count: Count? = nil, line: Int
        ) {
            self.time = time
            self.resolution = max(resolution, .nanoseconds(1))
            self.range = range
            self.thread = thread
            self.kind = returned == nil ? (query == nil ? kind : .query) : .note
            self.name = name
            self.returned = returned
            self.query = query
            self.mode = mode
            self.count = count
            self.line = line
        }

        /// True when `event` is one this step names (its kind, and its name, thread, time, mode and answer when
        /// given).
        package func matches(_ event: LoopEvent) -> Bool {
            guard event.kind == kind, name == nil || event.name == name else { return false }
            if let returned, event.returnedValue != returned { return false }
            if let query {
                guard let (question, answer) = event.queryFact, query.matches(question, answer) else { return false }
            }
            if let thread, event.loop != thread { return false }
            if let time, event.time < .zero + time || event.time >= .zero + time + resolution { return false }
            if let range, !range.contains(event.time) { return false }
            if let mode, event.mode != mode { return false }
            return true
        }

        /// The event it names, without its count. Terminal-safe: the thread and names are text of the file.
        package var pattern: String {
            var parts: [String] = []
            if let time { parts.append((LoopInstant.zero + time).description) }
            if let thread { parts.append(TerminalSafeText.terminalSafe(thread) + ":") }
            if let returned {
                parts.append("returned \(returned)")
            } else if let query {
                var text = "query \(query.question.words)"
                if let answer = query.answer { text += " is \(query.question.words(for: answer))" }
                parts.append(TerminalSafeText.terminalSafe(text))
            } else {
                parts.append(kind.rawValue)
            }
            if let name { parts.append(TerminalSafeText.terminalSafe(name)) }
            if let mode { parts.append("in " + TerminalSafeText.terminalSafe(mode)) }
            if let range {
                switch (range.start, range.end) {
                case (let start?, let end?):
                    parts.append("between \(LoopInstant.zero + start) and \(LoopInstant.zero + end)")
                case (let start?, nil): parts.append("after \(LoopInstant.zero + start)")
                case (nil, let end?): parts.append("before \(LoopInstant.zero + end)")
                case (nil, nil): break
                }
            }
            return parts.joined(separator: " ")
        }

        /// As the line reads: `never source0 s`, `timer tick 3 times`.
        package var description: String {
            switch count {
            case nil: pattern
            case .exactly(0)?: "never \(pattern)"
            case let count?: "\(pattern) \(count)"
            }
        }
    }

    package var mode: Mode
    package var steps: [Step]
    /// `expect in every schedule`: claims that must hold in every schedule the virtual world can take at its
    /// branch points (`check` explores them; docs/races.md), not only in the default one.
    package var everySchedule = false
    /// The line of the `expect` keyword.
    public var line: Int

    package init(mode: Mode, steps: [Step], line: Int) {
        self.mode = mode
        self.steps = steps
        self.line = line
    }

    /// Where a promise broke: the step (an index into ``steps``; `steps.count` when `expect exactly` saw more
    /// events than it lists), and the readable report with a diff that `check` prints.
    package struct Failure: Sendable, Equatable {
        /// The first step that broke the promise.
        package var step: Int
        package var report: String
        /// Every step that broke it. Claims are judged one by one, so each failing claim is here; in a list
        /// (`in order`, `exactly`) only `step`, as each line is looked for after the one before.
        package var failedSteps: [Int]

        package init(step: Int, report: String, failedSteps: [Int]? = nil) {
            self.step = step
            self.report = report
            self.failedSteps = failedSteps ?? [step]
        }
    }

    /// Checks `events`; nil when the promise holds, otherwise a readable report with a diff.
    public func check(_ events: some RandomAccessCollection<LoopEvent>) -> String? {
        failure(in: events)?.report
    }

    /// Checks `events`: nil when the promise holds, otherwise the first step that broke it. In a list the steps
    /// before it held and those after it are not judged (each is looked for after the one before); claims are
    /// each judged alone (``Failure/failedSteps``).
    package func failure(in events: some RandomAccessCollection<LoopEvent>) -> Failure? {
        switch mode {
        case .exactly: checkExactly(events)
        case .inOrder: checkInOrder(events)
        case .claims: checkClaims(events)
        }
    }

    /// The steps `expect exactly` compares: what an observer of the real CFRunLoop could see, and what the
    /// program itself saw (the Bool a run returned, a query's answer).
    static func isObservable(_ event: LoopEvent) -> Bool {
        event.kind.isActivity || event.kind.isCallout || event.kind == .runStart || event.kind == .result
            || event.kind == .query || event.returnedValue != nil
    }

    /// One event of a failure report, terminal-safe (its thread and name come from the scenario file).
    static func render(_ event: LoopEvent, withThread: Bool) -> String {
        let loop = TerminalSafeText.terminalSafe(event.loop)
        return (withThread ? "\(event.time) \(loop): " : "\(event.time) ") + TerminalSafeText.terminalSafe(event.step)
    }

    private func checkExactly(_ events: some RandomAccessCollection<LoopEvent>) -> Failure? {
        let actual = events.filter(Self.isObservable)
        let withThread = Set(actual.map(\.loop)).count > 1
        for index in 0..<max(actual.count, steps.count) {
            let expected = index < steps.count ? steps[index] : nil
            let event = index < actual.count ? actual[index] : nil
            if let expected, let event, expected.matches(event) { continue }
            var report = "expect exactly (line \(line)): step \(index + 1) differs\n"
            let from = max(0, index - 3)
            for context in from..<index { report += "    \(Self.render(actual[context], withThread: withThread))\n" }
            report += "  - " + (expected.map { "\($0)   (line \($0.line))" } ?? "(nothing more expected)") + "\n"
            report += "  + " + (event.map { Self.render($0, withThread: withThread) } ?? "(the trace ended)") + "\n"
            return Failure(step: index, report: report)
        }
        return nil
    }

    private func checkInOrder(_ trace: some RandomAccessCollection<LoopEvent>) -> Failure? {
        // Only the events a step can match are looked at (each promise names a kind).
        let kinds = Set(steps.map(\.kind))
        let events = trace.filter { kinds.contains($0.kind) }
        var position = 0
        for (index, step) in steps.enumerated() {
            guard let found = events[position...].firstIndex(where: step.matches) else {
                var report = "expect in order (line \(line)): step \(index + 1) never happened"
                report += index > 0 ? " after step \(index)\n" : "\n"
                report += "  - \(step)   (line \(step.line))\n"
                if let near = events[position...].first(where: { $0.kind == step.kind && $0.name == step.name }) {
                    report += "  + nearest: \(Self.render(near, withThread: true))\n"
                }
                return Failure(step: index, report: report)
            }
            position = found + 1
        }
        return nil
    }
}
