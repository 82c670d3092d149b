/// Renders a trace in the Chrome Trace Event format, the JSON that ui.perfetto.dev ("Open trace file") and
/// `chrome://tracing` read, so a run can be explored on a zoomable timeline.
///
/// What goes where, and why:
/// - One process, `loopviz`, and one track (`tid`) per loop thread, named by a `thread_name` metadata event.
/// - Timestamps (`ts`, `dur`) are microseconds with up to three decimals: exact to the nanosecond, never an
///   exponent. Events are written in time order (ties in trace order) so that Perfetto's importer, which
///   keeps ties in file order, always sees a parent slice before its children.
/// - Complete slices (`"ph":"X"`) nest: a **run** (`runStart` → `result`) contains its **iterations**
///   (first event of iteration N → first event of N + 1, or the run's `exit`), which contain the **callouts**
///   (source0, source1, timer, block, observer, mainQueue) and **sleeps** (`sleep` → `wake`). A callout lasts
///   from its event until the next *loop step* on its thread (an activity, callout, sleep, wake, runStart or
///   result) at the same or a lower depth; the steps of a nested run are deeper, so a nested run sits inside
///   the callout that started it. Signals, sends, wake-ups, stops and notes are not loop steps: they may come
///   from the running callout itself and must not cut it short. Entry and exit observers belong to the run,
///   not to an iteration. Slices still open when the trace ends (a halted run) end with the last event.
/// - The six activities, `result`, `wake` and the control events (signal, send, wakeUp, stop, note,
///   schedule, cancel) are thread-scoped instants (`"ph":"i","s":"t"`).
/// - Flows (`"ph":"s"` → `"ph":"f"`, `"bp":"e"`, one integer `id` each) draw causality the trace proves:
///   each `signal NAME` → the next `source0 NAME` perform on that thread; each wake-up that was not ignored
///   → the next wake caused by the wake-up port (`wake` with detail `wakeUp`); each port `send NAME` → the
///   next wake caused by that port (`wake` with detail `port NAME…`). A wake that names another cause is not
///   claimed; a cause never followed by its effect gets no flow at all.
/// - Hand-overs (`HandOver`, when the run knows them: the virtual clock's) draw the arrow across threads: work
///   one thread hands to another's loop starts a `handOver` flow on the sending thread, from a slice of no
///   duration there (`perform upload1 → worker`, category `handOver`, which a flow start binds to), to the
///   callout it causes on the other thread: a perform to its `perform` callout, a signal to the source's next
///   `source0`, a send to the `source1` that consumes its message, a block to its `block`, a main-queue job to
///   its `mainQueue` callout (each matched by loop and name, first come first served). A flow `s` binds to the
///   slice open on its track, an `f` with `bp:e` to the enclosing one: Perfetto's JSON importer reads both.
/// - Counters (`"ph":"C"`, one series per thread) show what the trace can measure:
///   - `signalled sources`: distinct version-0 sources signalled and not performed since (a signal cleared by
///     invalidation is not an event, so such a source stays counted);
///   - `pending port messages`: sends not yet consumed by a source1 perform (its detail `N messages` says
///     how many it consumed, no detail means one);
///   - `timer fires`: timer callouts so far. Armed timers cannot be counted from a trace — creating,
///     invalidating and re-arming a timer are not events, and a one-shot fire looks like a repeating one —
///     so the track shows the fires themselves.
package enum ChromeTraceFormatter {
    /// The single process every loop thread belongs to.
    package static let processName = "loopviz"
    /// The counter tracks, in the order they are first written.
    package static let counterNames = ["signalled sources", "pending port messages", "timer fires"]

    /// The whole trace as one JSON object, one trace event per line so that diffs stay readable.
    package static func format(
        _ events: some Collection<LoopEvent>, scenario: String, clock: TraceClock = .virtual,
        handOvers: [HandOver] = []
    ) -> String {
        var out = ""
        write(events, scenario: scenario, clock: clock, handOvers: handOvers) { out += $0 }
        return out
    }

    /// The output of ``format(_:scenario:clock:)`` in pieces of a line or less, handed to `output` as they are
    /// made: a trace at the event budget (a million events) makes about 300 MB of JSON, which a command writes
    /// out as it goes instead of holding it. The records wait in a compact form and are sorted by index.
    package static func write(
        _ events: some Collection<LoopEvent>, scenario: String, clock: TraceClock = .virtual,
        handOvers: [HandOver] = [], to output: (String) -> Void
    ) {
        // The records refer to events by index: a trace already compact is read in place.
        let events = events as? LoopTrace ?? LoopTrace(events)
        var builder = Builder(events: events, handOvers: handOvers)
        builder.build()
        output("{\"traceEvents\":[\n")
        var first = true
        func add(_ line: String) {
            output(first ? line : ",\n" + line)
            first = false
        }
        add(
            JSONText.object([
                ("name", JSONText.quoted("process_name")), ("ph", JSONText.quoted("M")), ("pid", "1"),
                ("args", JSONText.object([("name", JSONText.quoted(processName))])),
            ]))
        for (index, thread) in builder.threadOrder.enumerated() {
            add(
                JSONText.object([
                    ("name", JSONText.quoted("thread_name")), ("ph", JSONText.quoted("M")), ("pid", "1"),
                    ("tid", String(index + 1)), ("args", JSONText.object([("name", JSONText.quoted(thread))])),
                ]))
        }
        // A stable sort by time: records were produced in trace order, parents before children.
        let records = builder.records
        let order = records.indices.sorted { (records[$0].ts, $0) < (records[$1].ts, $1) }
        for index in order {
            add(records[index].json(events, flowNames: builder.flows.names, handOvers: builder.handOvers))
        }
        let other = JSONText.object([
            ("scenario", JSONText.quoted(scenario)), ("clock", JSONText.quoted(clock.rawValue)),
            ("events", String(events.count)),
        ])
        output("\n],\n\"displayTimeUnit\":\"ms\",\"otherData\":" + other + "}\n")
    }
}
