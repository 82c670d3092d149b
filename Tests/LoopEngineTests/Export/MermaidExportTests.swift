import LoopEngine
import Testing

@Suite("Mermaid trace export")
struct MermaidExportTests {
    /// Mermaid's sequence-diagram keywords; its lexer matches them case-insensitively, even as a prefix.
    static let keywords = [
        "participant", "actor", "create", "destroy", "box", "loop", "rect", "opt", "alt", "else", "par", "and",
        "critical", "option", "break", "end", "left of", "right of", "links", "link", "properties", "details",
        "over", "note", "activate", "deactivate", "title", "acc", "sequencediagram", "autonumber", "off", "as",
    ]

    static let traces: [(String, [LoopEvent])] = [
        ("rich", ScenarioRunner.run(ExportScenarios.rich).events),
        ("halted mid-run", ScenarioRunner.run(ExportScenarios.rich, maxEvents: 45).events),
        ("two threads", ExportScenarios.twoThreads),
        ("awkward names", ScenarioRunner.run(ExportScenarios.awkward).events),
    ]

    /// The diagram's lines without the first (`sequenceDiagram`), trimmed.
    static func body(_ text: String) -> [Substring] {
        text.split(separator: "\n").dropFirst().map { $0.drop { $0 == " " } }
    }

    /// The participant ids a statement uses: both ends of an arrow, or the participant of a note.
    static func uses(_ line: Substring) -> [String] {
        if line.hasPrefix("Note ") {
            let rest = line.drop { $0 != " " }.dropFirst()
            let placement = ["over ", "right of ", "left of "].first { rest.hasPrefix($0) } ?? ""
            return [String(rest.dropFirst(placement.count).prefix { $0 != ":" })]
        }
        guard let colon = line.firstIndex(of: ":") else { return [] }
        let head = line[..<colon]
        for arrow in ["->>", "-x"] {
            if let range = head.range(of: arrow) {
                return [String(head[..<range.lowerBound]), String(head[range.upperBound...])]
            }
        }
        return []
    }

    @Test("the diagram starts with sequenceDiagram and every loop and rect has its end", arguments: traces)
    func blocksBalance(_ name: String, _ events: [LoopEvent]) {
        let text = MermaidTraceFormatter.format(events, scenario: name)
        #expect(text.hasPrefix("sequenceDiagram\n"))
        var open = 0
        for line in Self.body(text) {
            if line.hasPrefix("loop ") || line.hasPrefix("rect ") {
                open += 1
            } else if line == "end" {
                open -= 1
                #expect(open >= 0, "an end without its block")
            }
        }
        #expect(open == 0, "\(open) blocks never ended")
    }

    @Test("participants are declared first, with safe ids, and every statement uses declared ones", arguments: traces)
    func participantsDeclared(_ name: String, _ events: [LoopEvent]) {
        let lines = Self.body(MermaidTraceFormatter.format(events, scenario: name))
        var declared: Set<String> = []
        var seenStatement = false
        for line in lines {
            if line.hasPrefix("title ") { continue }
            if line.hasPrefix("participant ") {
                #expect(!seenStatement, "participant declared after use: \(line)")
                let id = String(line.dropFirst("participant ".count).prefix { $0 != " " })
                #expect(line.dropFirst("participant ".count + id.count).hasPrefix(" as "))
                #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, "id \(id)")
                #expect(id.first?.isLetter == true)
                #expect(!Self.keywords.contains { id.lowercased().hasPrefix($0) }, "id \(id) starts with a keyword")
                #expect(!declared.contains(id), "id \(id) declared twice")
                declared.insert(id)
                continue
            }
            seenStatement = true
            for id in Self.uses(line) { #expect(declared.contains(id), "undeclared \(id) in \(line)") }
        }
        #expect(declared.contains("World"))
        for thread in Set(events.map(\.loop)) { #expect(declared.contains("RunLoop_\(thread)")) }
    }

    @Test("text never carries a raw ; or # (Mermaid reads them as statement end and comment)", arguments: traces)
    func textIsEscaped(_ name: String, _ events: [LoopEvent]) {
        let text = MermaidTraceFormatter.format(events, scenario: name + "; #1")
        for line in text.split(separator: "\n") {
            var rest = String(line)
            while let range = rest.range(of: #"#[0-9]+;"#, options: .regularExpression) { rest.removeSubrange(range) }
            #expect(!rest.contains(";") && !rest.contains("#") && !rest.contains("%") && !rest.contains("<"), "\(line)")
        }
    }

    @Test("awkward names keep their text as escaped aliases and get distinct sanitised ids")
    func awkwardNames() {
        let text = MermaidTraceFormatter.format(ScenarioRunner.run(ExportScenarios.awkward).events, scenario: "x")
        #expect(
            text.contains("participant Src_end__loop__1___x__b_ as source end#59; loop #35;1 #37;#37;x #60;b#62;\n"))
        #expect(text.contains("participant Src_end__loop__1_x_b as source end_ loop _1 x b\n"))
        #expect(text.contains("participant Port___port as port é-port\n"))
        #expect(text.contains("participant Obs_loop as observer loop\n"))
        #expect(text.contains("Note right of RunLoop_T: say \"hi\"#59; #35;2 #37;#37; #60;br#62; \\n next\n"))
        // Ignored wake-ups and stops end in a cross; the program's own actions come from the loop.
        #expect(text.contains("RunLoop_T-xRunLoop_T: wakeUp (ignored: no run)\n"))
        #expect(text.contains("RunLoop_T->>Src_end__loop__1___x__b_: signal\n"))
        #expect(text.contains("World->>RunLoop_T: stop\n"))
    }

    @Test("an item name two threads both use is two participants, each labelled with its thread")
    func sameNameOnTwoThreads() throws {
        let script = try ScenarioParser.parse(
            """
            thread A
              port p in default
              run default for 10ms
            thread B
              port p in default
              source0 s in default
              run default for 10ms
            at 1ms on A
              send p
            at 2ms on B
              send p
            """)
        let text = MermaidTraceFormatter.format(ScenarioRunner.run(script.scenario).events, scenario: "two")
        let participants = text.split(separator: "\n").map { $0.drop { $0 == " " } }.filter {
            $0.hasPrefix("participant")
        }
        #expect(
            participants == [
                "participant World as outside world", "participant RunLoop_A as loop A",
                "participant RunLoop_B as loop B", "participant Src_s as source s",
                "participant Port_p_A as port p on A", "participant Port_p_B as port p on B",
            ])
        #expect(text.contains("World->>Port_p_A: send\n"), "\(text)")
        #expect(text.contains("World->>Port_p_B: send\n"), "\(text)")
    }

    @Test("one loop block per iteration of the outermost run, a nested run as a rect inside one")
    func iterationsAndNesting() throws {
        let events = ScenarioRunner.run(ExportScenarios.rich).events
        let text = MermaidTraceFormatter.format(events, scenario: "rich")
        let lines = text.split(separator: "\n").map(String.init)
        let outer = events.filter { $0.kind == .result && $0.depth == 1 }.map(\.iteration).max() ?? 0
        #expect(outer == 11)
        #expect(lines.filter { $0.hasPrefix("    loop iteration ") } == (1...outer).map { "    loop iteration \($0)" })
        let rect = try #require(lines.firstIndex(of: "        rect rgb(232, 238, 250)"))
        let inner = try #require(lines.firstIndex(of: "            loop iteration 1 (Inner)"))
        #expect(rect < inner)
        #expect(lines[rect - 1] == "        RunLoop_T->>Src_Nest: source0", "the rect follows the callout that ran it")
    }

    @Test("callouts are arrows from the loop; outside signals and wake-ups come from World")
    func arrows() {
        let text = MermaidTraceFormatter.format(ScenarioRunner.run(ExportScenarios.rich).events, scenario: "rich")
        #expect(text.contains("        RunLoop_T->>Timer_T1: timer\n"))
        #expect(text.contains("        RunLoop_T->>Obs_O: observer (beforeWaiting)\n"))
        #expect(text.contains("        RunLoop_T->>Port_P: source1 (2 messages)\n"))
        #expect(text.contains("        World->>Src_Nest: signal\n        World->>RunLoop_T: wakeUp\n"))
        #expect(text.contains("        World->>Port_P: send\n"))
        #expect(text.contains("        RunLoop_T->>RunLoop_T: wakeUp (timeout)\n"))
        #expect(text.contains("        Note over RunLoop_T: beforeTimers → beforeSources → beforeWaiting\n"))
        #expect(
            text.hasSuffix(
                "    Note over RunLoop_T: exit\n    RunLoop_T->>Obs_O: observer (exit)\n    Note over RunLoop_T: result timedOut\n"
            ))
    }

    @Test("the same trace always gives the same diagram")
    func deterministic() {
        let events = ExportScenarios.twoThreads
        #expect(
            MermaidTraceFormatter.format(events, scenario: "a") == MermaidTraceFormatter.format(events, scenario: "a"))
    }
}

extension MermaidExportTests {
    @Test("an empty trace is a diagram with the outside world alone")
    func emptyTrace() {
        #expect(
            MermaidTraceFormatter.format([], scenario: "")
                == "sequenceDiagram\n    participant World as outside world\n")
    }
}
