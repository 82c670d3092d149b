import LoopEngine

/// Renders a trace as a Firefox Profiler profile (profiler.firefox.com, "Load a profile from file"): the
/// *processed* profile format, version ``processedProfileVersion``, as firefox-devtools/profiler defines it in
/// `src/types/profile.ts` and `src/types/markers.ts` (docs/recording.md cites the commit). The profiler upgrades an
/// older processed profile to its own version when it loads one, so a file of this version keeps opening.
///
/// What goes where, and why:
/// - One thread per loop thread, in order of first appearance (`tid` 1, 2, …; one process, `pid` "1").
/// - Markers, intervals in milliseconds since the clock's origin (exact to the nanosecond: six decimals):
///   - each **callout** of an engine trace (timer, source0, source1, perform, block, observer, mainQueue), from its
///     event to the loop's next step, and each **sleep** (`sleep` → `wake`): the same spans as the Chrome export's
///     slices (`ChromeTraceFormatter.slices`), in the categories Timers, Sources, Blocks, Observers, Main queue
///     and Sleep;
///   - each **phase** between two observer activities, named as `loopviz hangs` names it (`HangAnalysis.Phase`):
///     what a recording, which has only activities, can show;
///   - each **hang**: a busy segment at least `HangsCommand.defaultThreshold` long, with `hangs`' verdict and
///     the phase that held the time;
///   - each of the program's **marks** (`LoopRecorder.mark`, `begin`, `end`): an instant, named by its label.
/// - Samples: a recording's stack samples (`loopviz record --stacks`), each thread's, over shared stack, frame,
///   function and resource tables (``Samples``). An engine trace has none: the tables are present and empty, as
///   the format allows.
enum FirefoxProfileFormatter {
    /// `PROCESSED_PROFILE_VERSION` of firefox-devtools/profiler's `src/app-logic/constants.ts` this writes.
    static let processedProfileVersion = 70
    /// `GECKO_PROFILE_VERSION` of the same file, which the format keeps in `meta.version`.
    static let geckoProfileVersion = 36

    /// The whole profile as one JSON object; the markers of each thread one per line, so diffs stay readable.
    static func format(_ events: LoopTrace, scenario: String, clock: TraceClock) -> String {
        let markers = Markers(events)
        var strings = markers.strings
        let samples = Samples(events, threads: markers.threads, strings: &strings)
        var threads: [String] = []
        for (index, thread) in markers.threads.enumerated() {
            threads.append(
                threadJSON(
                    thread, tid: index + 1, markers: markers.byThread[index], strings: markers.strings,
                    samples: samples.samplesJSON(thread: index)))
        }
        let meta = JSONText.object([
            ("interval", "1"), ("startTime", "0"), ("processType", "0"),
            ("product", JSONText.quoted("loopviz: " + scenario)), ("stackwalk", "0"),
            ("version", String(geckoProfileVersion)), ("preprocessedProfileVersion", String(processedProfileVersion)),
            ("symbolicated", "true"), ("importedFrom", JSONText.quoted("loopviz (\(clock.rawValue) clock)")),
            ("categories", "[" + Category.allCases.map(\.json).joined(separator: ",") + "]"),
            ("markerSchema", "[" + MarkerType.allCases.map(\.schema).joined(separator: ",") + "]"),
        ])
        let stringArray = "[" + strings.values.map(JSONText.quoted).joined(separator: ",") + "]"
        let tables = samples.tables(category: Category.other.rawValue)
        return "{\"meta\":" + meta + ",\n\"libs\":[],\n\"shared\":" + sharedJSON(strings: stringArray, tables: tables)
            + ",\n\"threads\":[\n"
            + threads.joined(separator: ",\n") + "\n]}\n"
    }

    /// The tables every thread's samples refer to: `tables`' where there are samples, else empty.
    private static func sharedJSON(strings: String, tables: [String: String]) -> String {
        let empty = "[]"
        return JSONText.object([
            (
                "stackTable",
                tables["stackTable"]
                    ?? JSONText.object([("frame", empty), ("prefixOffset", empty), ("length", "0")])
            ),
            (
                "frameTable",
                tables["frameTable"]
                    ?? JSONText.object(
                        [
                            "address", "lib", "inlineDepth", "category", "subcategory", "func", "nativeSymbol",
                            "innerWindowID", "line", "column", "originalLocation",
                        ].map { ($0, empty) } + [("length", "0")])
            ),
            (
                "funcTable",
                tables["funcTable"]
                    ?? JSONText.object(
                        [
                            "name", "isJS", "relevantForJS", "resource", "source", "lineNumber", "columnNumber",
                            "originalLocation",
                        ].map { ($0, empty) } + [("length", "0")])
            ),
            (
                "resourceTable",
                tables["resourceTable"]
                    ?? JSONText.object(["name", "host", "type"].map { ($0, empty) } + [("length", "0")])
            ),
            (
                "nativeSymbols",
                JSONText.object(
                    ["libIndex", "address", "name", "functionSize"].map { ($0, empty) } + [("length", "0")])
            ),
            (
                "sources",
                JSONText.object(
                    ["id", "filename", "startLine", "startColumn", "sourceMapURL", "content"].map { ($0, empty) }
                        + [("length", "0")])
            ),
            ("stringArray", strings),
            (
                "sourceLocationTable",
                JSONText.object(["source", "line", "column"].map { ($0, empty) } + [("length", "0")])
            ),
        ])
    }

    private static func threadJSON(
        _ name: String, tid: Int, markers: [Marker], strings: StringTable, samples: String
    ) -> String {
        func column(_ values: (Marker) -> String) -> String {
            "[" + markers.map(values).joined(separator: ",") + "]"
        }
        let table = JSONText.object([
            ("data", "[\n" + markers.map(\.dataJSON).joined(separator: ",\n") + "\n]"),
            ("name", column { String(strings.index[$0.name] ?? 0) }),
            ("startTime", column { milliseconds($0.start) }),
            ("endTime", column { milliseconds($0.end) }),
            // `INSTANT` (0) or `INTERVAL` (1) of `src/app-logic/constants.ts`.
            ("phase", column { $0.isInstant ? "0" : "1" }),
            ("category", column { String($0.category.rawValue) }),
            ("length", String(markers.count)),
        ])
        return JSONText.object([
            ("processType", JSONText.quoted("default")), ("processStartupTime", "0"), ("processShutdownTime", "null"),
            ("registerTime", "0"), ("unregisterTime", "null"), ("pausedRanges", "[]"),
            ("name", JSONText.quoted(name)), ("isMainThread", "false"), ("pid", JSONText.quoted("1")),
            ("tid", String(tid)), ("samples", samples), ("markers", table),
        ])
    }

    /// Nanoseconds as milliseconds, exact: `1.5` for 1,500,000 ns.
    static func milliseconds(_ nanoseconds: Int64) -> String {
        JSONText.decimal(nanoseconds, decimals: 6)
    }
}
