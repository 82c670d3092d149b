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
///
/// Adding a key is a compatible change; renaming, removing or reordering keys bumps ``version``.
public enum JSONLTraceFormatter {
    /// The value of the header's `format` key.
    public static let formatName = "loopviz-trace"
    /// The value of the header's `version` key.
    public static let version = 1

    /// The header line and one line per event, each ending in a newline.
    public static func format(
        _ events: some Collection<LoopEvent>, scenario: String, clock: TraceClock = .virtual
    ) -> String {
        var lines = [header(scenario: scenario, clock: clock, count: events.count)]
        lines.reserveCapacity(events.count + 1)
        for event in events { lines.append(line(event)) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The header object (without a newline).
    public static func header(scenario: String, clock: TraceClock, count: Int) -> String {
        JSONText.object([
            ("format", JSONText.quoted(formatName)), ("version", String(version)),
            ("scenario", JSONText.quoted(scenario)), ("clock", JSONText.quoted(clock.rawValue)),
            ("events", String(count)),
        ])
    }

    /// One event as a JSON object (without a newline).
    public static func line(_ event: LoopEvent) -> String {
        var members: [(String, String)] = [
            ("t", formatSeconds(event.time.nanoseconds)), ("thread", JSONText.quoted(event.loop)),
            ("depth", String(event.depth)), ("mode", JSONText.quoted(event.mode)),
            ("iteration", String(event.iteration)), ("kind", JSONText.quoted(event.kind.rawValue)),
            ("name", JSONText.quoted(event.name)),
        ]
        if event.kind == .result { members.append(("result", JSONText.quoted(event.name))) }
        members.append(("detail", JSONText.quoted(event.detail)))
        return JSONText.object(members)
    }
}
