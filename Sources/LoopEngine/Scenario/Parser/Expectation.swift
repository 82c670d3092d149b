/// What a lesson promises about its trace (an `expect` section).
///
/// `expect exactly` lists every observable step (the six activities, callouts, run starts and results, the Bool
/// `run(mode:before:)` returns) in order;
/// `expect in order` lists some events (any kind) that must appear in that order, others may come between.
/// A line may give a time (`0.100 timer tick`) that must match to the digits written: `0.100` is any instant from
/// 0.100 s up to (not including) 0.101 s, so an event 1.5 µs later - the virtual clock's iteration cost - still
/// is at `0.100`, and `0.1000015` pins it to 100 ns. A line may give a thread (`worker: perform upload`) when
/// several threads run.
public struct Expectation: Sendable, Equatable {
    public enum Mode: String, Sendable, Equatable {
        case exactly
        case inOrder = "in order"
    }

    /// One expected event.
    public struct Step: Sendable, Equatable, CustomStringConvertible {
        public var time: Duration?
        /// How precisely `time` was written (its last digit's value; 1 ns: exact): the step matches an event from
        /// `time` up to, not including, `time + resolution`.
        public var resolution: Duration
        public var thread: String?
        public var kind: LoopEvent.Kind
        public var name: String?
        /// `returned true|false`: the Bool a `run(mode:before:)` gave back (a `note` with that fact).
        public var returned: Bool?
        /// Where it was written, for failure reports.
        public var line: Int

        public init(
            time: Duration? = nil, resolution: Duration = .nanoseconds(1), thread: String? = nil, kind: LoopEvent.Kind,
            name: String? = nil, returned: Bool? = nil, line: Int
        ) {
            self.time = time
            self.resolution = max(resolution, .nanoseconds(1))
            self.thread = thread
            self.kind = returned == nil ? kind : .note
            self.name = name
            self.returned = returned
            self.line = line
        }

        /// True when `event` is one this step names (its kind, and its name, thread and time when given).
        public func matches(_ event: LoopEvent) -> Bool {
            guard event.kind == kind, name == nil || event.name == name else { return false }
            if let returned, event.returnedValue != returned { return false }
            if let thread, event.loop != thread { return false }
            if let time, event.time < .zero + time || event.time >= .zero + time + resolution { return false }
            return true
        }

        /// Terminal-safe: the thread and name are text of the scenario file.
        public var description: String {
            var parts: [String] = []
            if let time { parts.append((LoopInstant.zero + time).description) }
            if let thread { parts.append(TerminalSafeText.terminalSafe(thread) + ":") }
            parts.append(returned.map { "returned \($0)" } ?? kind.rawValue)
            if let name { parts.append(TerminalSafeText.terminalSafe(name)) }
            return parts.joined(separator: " ")
        }
    }

    public var mode: Mode
    public var steps: [Step]
    /// The line of the `expect` keyword.
    public var line: Int

    public init(mode: Mode, steps: [Step], line: Int) {
        self.mode = mode
        self.steps = steps
        self.line = line
    }

    /// Where a promise broke: the step (an index into ``steps``; `steps.count` when `expect exactly` saw more
    /// events than it lists), and the readable report with a diff that `check` prints.
    public struct Failure: Sendable, Equatable {
        public var step: Int
        public var report: String
    }

    /// Checks `events`; nil when the promise holds, otherwise a readable report with a diff.
    public func check(_ events: some RandomAccessCollection<LoopEvent>) -> String? {
        failure(in: events)?.report
    }

    /// Checks `events`: nil when the promise holds, otherwise the first step that broke it. The steps before it
    /// held; those after it are not judged (each is looked for after the one before).
    public func failure(in events: some RandomAccessCollection<LoopEvent>) -> Failure? {
        switch mode {
        case .exactly: checkExactly(events)
        case .inOrder: checkInOrder(events)
        }
    }

    /// The steps `expect exactly` compares: what an observer of the real CFRunLoop could see.
    public static func isObservable(_ event: LoopEvent) -> Bool {
        event.kind.isActivity || event.kind.isCallout || event.kind == .runStart || event.kind == .result
            || event.returnedValue != nil
    }

    /// One event of a failure report, terminal-safe (its thread and name come from the scenario file).
    private func render(_ event: LoopEvent, withThread: Bool) -> String {
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
            for context in from..<index { report += "    \(render(actual[context], withThread: withThread))\n" }
            report += "  - " + (expected.map { "\($0)   (line \($0.line))" } ?? "(nothing more expected)") + "\n"
            report += "  + " + (event.map { render($0, withThread: withThread) } ?? "(the trace ended)") + "\n"
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
                    report += "  + nearest: \(render(near, withThread: true))\n"
                }
                return Failure(step: index, report: report)
            }
            position = found + 1
        }
        return nil
    }
}
