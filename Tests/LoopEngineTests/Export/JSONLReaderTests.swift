import LoopEngine
import Testing

@Suite("reading JSONL traces")
struct JSONLReaderTests {
    static func read(_ text: String, maximumEvents: Int = 1000) throws(JSONLTraceReader.Failure) -> JSONLTrace {
        try JSONLTraceReader.read(Array(text.utf8), maximumEvents: maximumEvents)
    }

    /// An event of every kind without a fact, one for every fact of the wording table, and names that need
    /// escapes.
    static var everyEvent: [LoopEvent] {
        var events = LoopEvent.Kind.allCases.enumerated().map { index, kind in
            LoopEvent(
                time: .zero + .nanoseconds(Int64(index) * 1_500), loop: "T", depth: index % 3,
                mode: index % 3 == 0 ? nil : "default", iteration: index, kind: kind,
                name: index % 2 == 0 ? nil : "item \(index)")
        }
        for (kind, fact, _) in EventWordingTests.table {
            events.append(EventWordingTests.event(kind, fact))
        }
        events.append(
            LoopEvent(
                time: .zero + .seconds(12_345) + .nanoseconds(7), loop: "thread \"q\"\\", depth: 256, mode: "modé\u{1}",
                iteration: 9, kind: .note, name: "\u{202E}emoji 🎉\n", fact: .note(.say("tab\there \u{7F}"))))
        return events
    }

    @Test("every kind and every fact written by the formatter reads back equal")
    func roundTrip() throws {
        let events = Self.everyEvent
        let trace = try Self.read(JSONLTraceFormatter.format(events, scenario: "every", clock: .real))
        #expect(Array(trace.events) == events)
        #expect(trace.header == JSONLTraceHeader(scenario: "every", clock: .real, events: events.count))
        #expect(trace.warnings.isEmpty)
    }

    @Test("a late fire or a sleep written before they had a cause or a ready port reads as unknown, not guessed")
    func factsOfAnOlderTrace() throws {
        let text = """
            {"format":"loopviz-trace","version":1,"scenario":"old","clock":"virtual","events":2}
            {"t":0.1,"thread":"T","depth":1,"mode":"default","iteration":1,"kind":"sleep","name":null,\
            "detail":"indefinitely","fact":["wait","sleep",null,null,null]}
            {"t":0.2,"thread":"T","depth":1,"mode":"default","iteration":2,"kind":"timer","name":"t",\
            "detail":"due 0.100","fact":["late",100000000,null]}

            """
        let trace = try Self.read(text)
        #expect(
            trace.events.map(\.fact) == [
                .wait(.sleep(nextTimer: nil, timeLimit: nil, ready: nil)),
                .late(due: .zero + .milliseconds(100), missed: nil, cause: nil),
            ])
    }

    @Test("the small scenario's golden file reads back and writes out byte for byte")
    func goldenFile() throws {
        let events = ScenarioRunner.run(ExportScenarios.small).events
        let text = JSONLTraceFormatter.format(events, scenario: "small")
        let trace = try Self.read(text)
        #expect(JSONLTraceFormatter.format(trace.events, scenario: trace.header.scenario) == text)
    }

    @Test("a recording's header says where it comes from")
    func recordingHeader() throws {
        let text = """
            {"format":"loopviz-trace","version":1,"scenario":"demo","clock":"real","events":null,\
            "recorded":{"process":"demo","pid":42,"thread":"main"}}
            {"t":0.001,"thread":"main","depth":1,"mode":"default","iteration":0,"kind":"entry","name":null,"detail":null}

            """
        let trace = try Self.read(text)
        #expect(
            trace.header
                == .init(
                    scenario: "demo", clock: .real, events: nil,
                    recording: .init(process: "demo", pid: 42, thread: "main")))
        #expect(
            Array(trace.events) == [
                LoopEvent(
                    time: .zero + .milliseconds(1), loop: "main", depth: 1, mode: "default", iteration: 0, kind: .entry)
            ])
    }

    static let header = #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"virtual","events":1}"#
    static let good =
        #"{"t":0.000,"thread":"T","depth":1,"mode":"default","iteration":0,"kind":"entry","name":null,"detail":null}"#

    /// Input, and the failure it gets.
    static let corrupt: [(String, String)] = [
        ("", "1: no header line"),
        ("{\"format\":\"other\"}\n", #"1: not a loopviz trace: the first line must say "format":"loopviz-trace""#),
        (
            #"{"format":"loopviz-trace","version":2,"scenario":"s","clock":"virtual","events":0}"# + "\n",
            "1: this loopviz reads version 1 of the trace format"
        ),
        (
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"wall","events":0}"# + "\n",
            #"1: the header's "clock" must be "virtual" or "real""#
        ),
        (header + "\n" + #"{"t":0.000,"thread":"T""# + "\n", "2:24: the line ends inside an object"),
        (header + "\n" + #"{"t":0.000,"thread":T}"# + "\n", "2:21: expected a value"),
        (header + "\n" + #"{"t":0.000 "thread":"T"}"# + "\n", "2:12: expected ',' or '}'"),
        (header + "\n" + good + " x\n", "2:108: unexpected text after the object"),
        (header + "\n" + #"{"t":"\q"}"# + "\n", "2:7: an unknown escape"),
        (header + "\n" + #"{"t":"ab"# + "\n", "2:6: the line ends inside a string"),
        (header + "\n\n", "2:1: the line ends where a value should be"),
        (
            header + "\n" + good.replacingOccurrences("0.000", "2.5e-9") + "\n",
            #"2: "t" must be seconds, a whole number of nanoseconds (at most nine decimals)"#
        ),
        (
            header + "\n" + good.replacingOccurrences("0.000", "0.0000000001") + "\n",
            #"2: "t" must be seconds, a whole number of nanoseconds (at most nine decimals)"#
        ),
        (
            header + "\n" + good.replacingOccurrences("0.000", "1e40") + "\n",
            #"2: "t" must be seconds, a whole number of nanoseconds (at most nine decimals)"#
        ),
        (
            header + "\n" + good.replacingOccurrences("\"entry\"", "\"party\"") + "\n",
            #"2: "kind" must be one of the event kinds (runStart, entry, timer, ...)"#
        ),
        (
            header + "\n" + good.replacingOccurrences("\"depth\":1", "\"depth\":-1") + "\n",
            #"2: "depth" must be a whole number from 0 to 256"#
        ),
        (
            header + "\n" + good.replacingOccurrences("\"mode\":\"default\"", "\"mode\":3") + "\n",
            #"2: "mode" must be a string or null"#
        ),
        (
            header + "\n" + good.replacingOccurrences("}", #","fact":["wait","nap"]}"#) + "\n",
            #"2: "fact" is not a fact this loopviz knows"#
        ),
        (
            header + "\n" + good.replacingOccurrences("}", #","fact":["messages",2,3]}"#) + "\n",
            #"2: "fact" is not a fact this loopviz knows"#
        ),
        (
            header + "\n" + good.replacingOccurrences("}", #","fact":[["x"]]}"#) + "\n",
            #"2: "fact" must be a flat list"#
        ),
        (header + "\n" + good + "\n" + good + "\n", "1: the header promises 1 events, the file has 2"),
        (header + "\n" + String(repeating: " ", count: 70_000) + "\n", "2: longer than 65536 bytes"),
        (header + "\n" + "[" + String(repeating: "[", count: 20) + "\n", "2:17: nested deeper than 16 levels"),
    ]

    @Test(
        "times in exponent notation, as other tools write them, read exactly",
        arguments: [
            ("1e-06", 1_000), ("1E-06", 1_000), ("1.5e3", 1_500_000_000_000), ("2.5e-9", nil), ("1.0e-9", 1),
            ("0.0000000010", 1), ("1e+2", 100_000_000_000), ("0e999", nil), ("0e9", 0), ("-1.25e-3", -1_250_000),
            ("12.000000001", 12_000_000_001), ("9.2e9", 9_200_000_000_000_000_000), ("9.3e9", nil),
        ] as [(String, Int64?)])
    func exponents(_ text: String, _ nanoseconds: Int64?) {
        let line = Self.good.replacingOccurrences("0.000", text)
        let time = try? Self.read(Self.header + "\n" + line + "\n").events.first?.time.nanoseconds
        #expect(time == nanoseconds)
    }

    @Test("a loaded object's build ID is read when it is hexadecimal digits, refused otherwise; an old one has none")
    func moduleBuildID() throws {
        func line(_ fact: String) -> String {
            Self.header + "\n"
                + #"{"t":0.001,"thread":"main","depth":1,"mode":"default","iteration":1,"kind":"note","name":"/bin/x","detail":"a loaded object","fact":\#(fact)}"#
                + "\n"
        }
        let read = try Self.read(line(#"["module",4096,4096,8192,"00ff7a"]"#)).events.first?.fact
        #expect(read == .module(LoopEvent.LoadedModule(base: 4096, low: 4096, high: 8192, buildID: "00ff7a")))
        let old = try Self.read(line(#"["module",4096,4096,8192]"#)).events.first?.fact
        #expect(old == .module(LoopEvent.LoadedModule(base: 4096, low: 4096, high: 8192)))
        for bad in [
            #"["module",4096,4096,8192,"XYZ"]"#, #"["module",4096,4096,8192,""]"#, #"["module",4096,4096,8192,7]"#,
        ] {
            #expect(throws: JSONLTraceReader.Failure.self, "\(bad)") { try Self.read(line(bad)) }
        }
    }

    @Test("corrupt input gets its line and, for bad JSON, its column")
    func corruptInput() {
        for (input, expected) in Self.corrupt {
            #expect(throws: JSONLTraceReader.Failure.self, "\(expected)") { try Self.read(input) }
            do {
                _ = try Self.read(input)
            } catch {
                #expect(error.description == expected)
            }
        }
    }

    @Test("more events than the budget are refused at the first one over it")
    func eventBudget() {
        let text =
            Self.header.replacingOccurrences(#""events":1"#, #""events":3"#) + "\n" + Self.good + "\n" + Self.good
            + "\n" + Self.good + "\n"
        #expect(
            throws: JSONLTraceReader.Failure(
                line: 4, column: nil, message: "more than 2 events (the event budget; the header promises 3)")
        ) {
            try Self.read(text, maximumEvents: 2)
        }
    }

    @Test("a cut-short last line is left out with a warning; a whole last line without a newline is read")
    func truncatedLastLine() throws {
        let cut = try Self.read(Self.header + "\n" + Self.good.prefix(40))
        #expect(cut.events.isEmpty)
        #expect(
            cut.warnings.map(\.description) == [
                "2: the last line is cut short (no newline at its end) and is left out: the line ends inside an object",
                "1: the header promises 1 events, the file has 0",
            ])
        let whole = try Self.read(Self.header + "\n" + Self.good)
        #expect(whole.events.count == 1 && whole.warnings.isEmpty)
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
