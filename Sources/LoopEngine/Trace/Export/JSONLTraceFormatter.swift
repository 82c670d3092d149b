/// Renders a trace as JSON Lines: the stable, machine-readable contract for tools (diffing, plotting, `jq`).
///
/// The first line is a header, then one object per event, keys always in this order:
///
///     {"format":"loopviz-trace","version":1,"scenario":"demo","clock":"virtual","events":2}
///     {"t":0.000,"thread":"T","depth":1,"mode":"default","iteration":0,"kind":"runStart","name":"default",...}
///     {"t":0.200,"thread":"T",...,"kind":"result","name":"timedOut","result":"timedOut","detail":null}
///
/// - `t`: seconds since the clock's origin, a plain JSON number (at least millisecond digits, at most nine
///   decimals, never an exponent) so the nanosecond value survives a round trip.
/// - `thread`, `depth`, `mode` (string or `null` outside any run), `iteration`.
/// - `kind`: a ``LoopEvent/Kind`` raw value.
/// - `name`: the item, the mode of a `runStart`, or the result of a `result`; `null` when there is none.
/// - `result`: present on `result` events only (the same result name), so a tool need not know that `name`
///   doubles as the result there.
/// - `detail`: human-oriented extra facts, or `null`. Tools should not parse it.
/// - `fact`: the same facts as values (``FactToken``), present when the event has a fact: what
///   ``JSONLTraceReader`` reads back.
///
/// Adding a key is a compatible change; renaming, removing or reordering keys bumps ``version``.
package enum JSONLTraceFormatter {
    /// The value of the header's `format` key.
    package static let formatName = "loopviz-trace"
    /// The value of the header's `version` key.
    package static let version = 1

    /// The header line and one line per event, each ending in a newline.
    package static func format(
        _ events: some Collection<LoopEvent>, scenario: String, clock: TraceClock = .virtual
    ) -> String {
        var lines = [header(scenario: scenario, clock: clock, count: events.count)]
        lines.reserveCapacity(events.count + 1)
        for event in events { lines.append(line(event)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The header object (without a newline).
    package static func header(scenario: String, clock: TraceClock, count: Int) -> String {
        JSONText.object([
            ("format", JSONText.quoted(formatName)), ("version", String(version)),
            ("scenario", JSONText.quoted(scenario)), ("clock", JSONText.quoted(clock.rawValue)),
            ("events", String(count)),
        ])
    }

    /// One event as a JSON object (without a newline).
    package static func line(_ event: LoopEvent) -> String {
        var bytes: [UInt8] = []
        appendLine(event, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``line(_:)`` as UTF-8 appended to `bytes`, without a newline: a million lines are written by
    /// `run --trace jsonl`, and bytes are several times cheaper to build than strings.
    package static func appendLine(_ event: LoopEvent, to bytes: inout [UInt8]) {
        func literal(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
        literal("{\"t\":")
        LoopEngine.appendSeconds(event.time.nanoseconds, to: &bytes)
        literal(",\"thread\":")
        JSONText.appendQuoted(event.loop, to: &bytes)
        literal(",\"depth\":")
        appendInteger(event.depth, to: &bytes)
        literal(",\"mode\":")
        JSONText.appendQuoted(event.mode, to: &bytes)
        literal(",\"iteration\":")
        appendInteger(event.iteration, to: &bytes)
        literal(",\"kind\":")
        JSONText.appendQuoted(event.kind.rawValue, to: &bytes)
        literal(",\"name\":")
        JSONText.appendQuoted(event.name, to: &bytes)
        if event.kind == .result {
            literal(",\"result\":")
            JSONText.appendQuoted(event.name, to: &bytes)
        }
        literal(",\"detail\":")
        JSONText.appendQuoted(event.detail, to: &bytes)
        if let fact = event.fact {
            literal(",\"fact\":")
            appendTokens(fact.tokens, to: &bytes)
        }
        literal("}")
    }

    /// Tokens as a JSON array.
    static func appendTokens(_ tokens: [FactToken], to bytes: inout [UInt8]) {
        bytes.append(0x5B)
        for (index, token) in tokens.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            switch token {
            case .text(let text): JSONText.appendQuoted(text, to: &bytes)
            case .number(let number): appendInteger(Int(number), to: &bytes)
            case .flag(let flag): bytes.append(contentsOf: Array((flag ? "true" : "false").utf8))
            case .none: bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
            }
        }
        bytes.append(0x5D)
    }

    /// A decimal integer, its digits written straight into `bytes` (no string made for it).
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var magnitude = value.magnitude
            var start = 24
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: 48 + magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<24]))
        }
    }
}
