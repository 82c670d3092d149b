/// What the header line of a JSONL trace says.
package struct JSONLTraceHeader: Hashable, Sendable {
    /// Where a recorded trace comes from (the header's `recorded` object, written by LoopRecorder).
    package struct Recording: Hashable, Sendable {
        package var process: String
        package var pid: Int
        package var thread: String
        package init(process: String, pid: Int, thread: String) {
            self.process = process
            self.pid = pid
            self.thread = thread
        }
    }

    package var scenario: String
    package var clock: TraceClock
    /// The number of events the writer promised; nil when it could not say (a recording that was cut short).
    package var events: Int?
    package var recording: Recording?

    package init(scenario: String, clock: TraceClock, events: Int?, recording: Recording? = nil) {
        self.scenario = scenario
        self.clock = clock
        self.events = events
        self.recording = recording
    }
}

/// A trace read from a JSONL file: its header, its events, and what the reader forgave (a cut-short last line).
package struct JSONLTrace: Sendable {
    package var header: JSONLTraceHeader
    package var events: LoopTrace
    package var warnings: [JSONLTraceReader.Failure]
}

/// Reads version 1 of the JSONL trace format (``JSONLTraceFormatter``, LoopRecorder) back into typed events: the
/// `fact` key becomes the event's fact, the `detail` words are not read. Lines come one at a time, so a caller
/// can read a file in chunks; every line and the number of events are bounded.
package struct JSONLTraceReader: Sendable {
    /// A line the reader refuses, with its 1-based line number and, for a JSON syntax error, the byte column.
    package struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        package var line: Int
        package var column: Int?
        package var message: String
        package init(line: Int, column: Int?, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
        /// `LINE:COLUMN: message` or `LINE: message`, for a caller to put after the file's name.
        package var description: String {
            column.map { "\(line):\($0): \(message)" } ?? "\(line): \(message)"
        }
    }

    /// The longest line read: a name or a note of a trace is short; a longer line is not a trace.
    package static let maximumLineLength = 1 << 16

    private let maximumEvents: Int
    /// The header, once its line is read.
    package private(set) var header: JSONLTraceHeader?
    private var events = LoopTrace()
    /// The events read, kept or not.
    private var eventCount = 0
    /// What was forgiven so far (a last line cut short).
    package private(set) var warnings: [Failure] = []
    private var scanner = JSONLEventScanner()
    /// The number of the last line given.
    package private(set) var lineNumber = 0

    /// Whether lines of the writers' own shape are read straight from their bytes (tests compare with false).
    private let scansPlainLines: Bool

    /// A reader that refuses more than `maximumEvents` events (the commands' event budget); `scansPlainLines`
    /// false parses every line as JSON, as a test's reference.
    package init(maximumEvents: Int, scansPlainLines: Bool = true) {
        self.maximumEvents = maximumEvents
        self.scansPlainLines = scansPlainLines
    }

    /// A reader of the lines after line `line` of a file whose header another reader read: what a replay of a long
    /// file uses to read a window of its events (its line numbers are the file's; its budget counts what it reads).
    package init(header: JSONLTraceHeader, afterLine line: Int, maximumEvents: Int = .max) {
        self.init(maximumEvents: maximumEvents)
        self.header = header
        lineNumber = line
    }

    /// Reads a whole file's bytes.
    package static func read(_ bytes: some Collection<UInt8>, maximumEvents: Int) throws(Failure) -> JSONLTrace {
        var reader = JSONLTraceReader(maximumEvents: maximumEvents)
        var rest = bytes[...]
        while let newline = rest.firstIndex(of: 0x0A) {
            try reader.read(line: rest[..<newline])
            rest = rest[rest.index(after: newline)...]
        }
        if !rest.isEmpty { try reader.readUnterminated(line: rest) }
        return try reader.finish()
    }

    /// Reads the next line (without its newline) into the trace.
    package mutating func read(line: some Collection<UInt8>) throws(Failure) {
        if let event = try next(line: line) { events.append(event) }
    }

    /// Reads a last line that has no newline into the trace: a writer that was stopped mid-line leaves one, so a
    /// line that does not parse is forgiven with a warning.
    package mutating func readUnterminated(line: some Collection<UInt8>) throws(Failure) {
        if let event = try nextUnterminated(line: line) { events.append(event) }
    }

    /// The event of the next line (without its newline), not kept: nil for the header. A reader given its lines
    /// this way finishes with no events, and holds nothing per event.
    package mutating func next(line: some Collection<UInt8>) throws(Failure) -> LoopEvent? {
        lineNumber += 1
        guard line.count <= Self.maximumLineLength else { throw Self.tooLong(line: lineNumber) }
        // Nearly every event line has the writers' own shape: read straight from its bytes. Any other line (spaces,
        // escapes, other keys, an error) is parsed as JSON and read from its value, with the same result.
        if header != nil, scansPlainLines,
            let scanned = line.withContiguousStorageIfAvailable({ bytes in
                var trimmed = bytes
                if trimmed.last == 0x0D { trimmed = UnsafeBufferPointer(rebasing: trimmed.dropLast()) }
                return scanner.event(trimmed)
            }), let event = scanned
        {
            try checkBudget()
            eventCount += 1
            return event
        }
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        let value: JSONValue
        do throws(JSONLineParser.Failure) {
            value = try JSONLineParser.parse(bytes)
        } catch {
            throw Failure(line: lineNumber, column: error.column, message: error.message)
        }
        if header == nil {
            header = try readHeader(value)
            return nil
        }
        try checkBudget()
        let event = try readEvent(value)
        eventCount += 1
        return event
    }

    private func checkBudget() throws(Failure) {
        guard eventCount < maximumEvents else {
            throw Self.overBudget(line: lineNumber, maximumEvents: maximumEvents, promised: header?.events)
        }
    }

    /// The event of a last line that has no newline, not kept (see ``readUnterminated(line:)``).
    package mutating func nextUnterminated(line: some Collection<UInt8>) throws(Failure) -> LoopEvent? {
        do {
            return try next(line: line)
        } catch  where header != nil && error.line == lineNumber {
            warnings.append(
                Failure(
                    line: lineNumber, column: nil,
                    message: "the last line is cut short (no newline at its end) and is left out: \(error.message)"))
            return nil
        }
    }

    /// The trace, once every line is read.
    package func finish() throws(Failure) -> JSONLTrace {
        guard let header else { throw Failure(line: max(lineNumber, 1), column: nil, message: "no header line") }
        let warnings = try Self.checkPromise(of: header, count: eventCount, warnings: self.warnings)
        return JSONLTrace(header: header, events: events, warnings: warnings)
    }

    /// The warnings of a file of `count` events once its header's promise is checked: a count other than the
    /// promised one is an error, or a warning more when the file already has one (its last line was cut short).
    package static func checkPromise(
        of header: JSONLTraceHeader, count: Int, warnings: [Failure]
    ) throws(Failure) -> [Failure] {
        guard let promised = header.events, promised != count else { return warnings }
        let failure = Failure(
            line: 1, column: nil, message: "the header promises \(promised) events, the file has \(count)")
        guard !warnings.isEmpty else { throw failure }
        return warnings + [failure]
    }

    /// The error of a line longer than a reader takes, at line `line`.
    package static func tooLong(line: Int) -> Failure {
        Failure(line: line, column: nil, message: "longer than \(maximumLineLength) bytes")
    }

    /// The error of a file with more events than `maximumEvents`, at the line of the first one too many; with the
    /// count its header promises, when that is more (what a larger budget would have to allow).
    package static func overBudget(line: Int, maximumEvents: Int, promised: Int? = nil) -> Failure {
        let more = promised.map { $0 > maximumEvents ? "; the header promises \($0)" : "" } ?? ""
        return Failure(line: line, column: nil, message: "more than \(maximumEvents) events (the event budget\(more))")
    }

    private func fail(_ message: String) -> Failure { Failure(line: lineNumber, column: nil, message: message) }

    private func readHeader(_ value: JSONValue) throws(Failure) -> JSONLTraceHeader {
        guard case .object = value, value["format"] == .string(JSONLTraceFormatter.formatName) else {
            throw fail("not a loopviz trace: the first line must say \"format\":\"\(JSONLTraceFormatter.formatName)\"")
        }
        guard case .number(let version)? = value["version"], version == String(JSONLTraceFormatter.version) else {
            throw fail("this loopviz reads version \(JSONLTraceFormatter.version) of the trace format")
        }
        guard case .string(let scenario)? = value["scenario"] else { throw fail("the header has no \"scenario\"") }
        guard case .string(let clockName)? = value["clock"], let clock = TraceClock(rawValue: clockName) else {
            throw fail("the header's \"clock\" must be \"virtual\" or \"real\"")
        }
        var count: Int?
        switch value["events"] {
        case .number(let text)?:
            guard let number = Int(text), number >= 0 else { throw fail("the header's \"events\" is not a count") }
            count = number
        case .null?, nil: count = nil
        default: throw fail("the header's \"events\" is not a count")
        }
        var recording: JSONLTraceHeader.Recording?
        if let recorded = value["recorded"] {
            guard case .string(let process)? = recorded["process"], case .number(let pid)? = recorded["pid"],
                let pid = Int(pid), case .string(let thread)? = recorded["thread"]
            else { throw fail("the header's \"recorded\" needs \"process\", \"pid\" and \"thread\"") }
            recording = .init(process: process, pid: pid, thread: thread)
        }
        return JSONLTraceHeader(scenario: scenario, clock: clock, events: count, recording: recording)
    }

    private func readEvent(_ value: JSONValue) throws(Failure) -> LoopEvent {
        guard case .object = value else { throw fail("an event must be a JSON object") }
        guard case .number(let seconds)? = value["t"], let time = Self.nanoseconds(seconds) else {
            throw fail("\"t\" must be seconds, a whole number of nanoseconds (at most nine decimals)")
        }
        guard case .string(let loop)? = value["thread"] else { throw fail("\"thread\" must be a string") }
        let depth = try count(value, "depth", limit: RunLoopCore.maximumNestingDepth)
        let iteration = try count(value, "iteration", limit: Int(Int32.max))
        guard case .string(let kindName)? = value["kind"], let kind = LoopEvent.Kind(rawValue: kindName) else {
            throw fail("\"kind\" must be one of the event kinds (runStart, entry, timer, ...)")
        }
        let mode = try optionalString(value, "mode")
        let name = try optionalString(value, "name")
        var fact: LoopEvent.Fact?
        if let tokens = value["fact"] {
            guard case .array(let items) = tokens, let read = LoopEvent.Fact(tokens: try Self.tokens(items, fail))
            else {
                throw fail("\"fact\" is not a fact this loopviz knows")
            }
            fact = read
        }
        return LoopEvent(
            time: LoopInstant(nanoseconds: time), loop: loop, depth: depth, mode: mode, iteration: iteration,
            kind: kind, name: name, fact: fact)
    }

    private func count(_ value: JSONValue, _ key: String, limit: Int) throws(Failure) -> Int {
        guard case .number(let text)? = value[key], let number = Int(text), number >= 0, number <= limit else {
            throw fail("\"\(key)\" must be a whole number from 0 to \(limit)")
        }
        return number
    }

    private func optionalString(_ value: JSONValue, _ key: String) throws(Failure) -> String? {
        switch value[key] {
        case .string(let text)?: return text
        case .null?: return nil
        default: throw fail("\"\(key)\" must be a string or null")
        }
    }

    private static func tokens(_ items: [JSONValue], _ fail: (String) -> Failure) throws(Failure) -> [FactToken] {
        var tokens: [FactToken] = []
        for item in items {
            switch item {
            case .string(let text): tokens.append(.text(text))
            case .number(let text):
                guard let number = Int64(text) else { throw fail("\"fact\" holds a number that is not whole") }
                tokens.append(.number(number))
            case .bool(let flag): tokens.append(.flag(flag))
            case .null: tokens.append(.none)
            case .array, .object: throw fail("\"fact\" must be a flat list")
            }
        }
        return tokens
    }

    /// `1.2500015` (or `1.2500015e0`, `1e-06`: other tools write exponents) as nanoseconds, exactly; nil for a
    /// time that is not a whole number of nanoseconds, or an overflow.
    static func nanoseconds(_ text: String) -> Int64? {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        var exponent = 0
        if let mark = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            var written = rest[rest.index(after: mark)...]
            if written.first == "+" { written = written.dropFirst() }
            // Past 10^±40 no exact time fits in 64 bits (but 0): a bound, so no loop runs long.
            guard let value = Int(written), value.magnitude <= 40 else { return nil }
            exponent = value
            rest = rest[..<mark]
        }
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let decimals = parts.count == 2 ? parts[1].count : 0
        // The digits as one whole number of 10^(exponent - decimals) seconds, leading zeros dropped.
        let digits = (parts[0] + (parts.count == 2 ? parts[1] : "")).drop { $0 == "0" }
        guard digits.count <= 18, var value = Int64(digits.isEmpty ? "0" : String(digits)) else { return nil }
        let power = exponent - decimals + 9
        if power >= 0 {
            for _ in 0..<power where value != 0 {
                let (next, overflow) = value.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                value = next
            }
        } else {
            for _ in 0..<(-power) where value != 0 {
                guard value.isMultiple(of: 10) else { return nil }
                value /= 10
            }
        }
        return negative ? -value : value
    }
}
