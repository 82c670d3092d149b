import Foundation
import LoopEngine
import Testing

@Suite("JSONL trace export")
struct JSONLExportTests {
    static let requiredKeys = ["t", "thread", "depth", "mode", "iteration", "kind", "name", "detail"]

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test("every line is a JSON object and the header describes the trace")
    func headerAndLines() throws {
        let events = ScenarioRunner.run(ExportScenarios.rich).events
        let text = JSONLTraceFormatter.format(events, scenario: "rich", clock: .real)
        #expect(text.hasSuffix("\n"))
        let lines = Self.lines(text)
        #expect(lines.count == events.count + 1)
        let objects = try lines.map { try ExportJSON.object($0) }
        let header = objects[0]
        #expect(header["format"] as? String == "loopviz-trace")
        #expect(header["version"] as? Int == 1)
        #expect(header["scenario"] as? String == "rich")
        #expect(header["clock"] as? String == "real")
        #expect(header["events"] as? Int == events.count)
        #expect(lines[0].hasPrefix(#"{"format":"loopviz-trace","version":1,"scenario":"rich","clock":"real","#))
    }

    @Test("every event line has the required keys, in a fixed order, with valid values")
    func eventLines() throws {
        let events = ScenarioRunner.run(ExportScenarios.rich).events
        let lines = Self.lines(JSONLTraceFormatter.format(events, scenario: "rich"))
        let kinds = Set(LoopEvent.Kind.allCases.map(\.rawValue))
        for (event, line) in zip(events, lines.dropFirst()) {
            let object = try ExportJSON.object(line)
            for key in Self.requiredKeys { #expect(object[key] != nil, "\(key) missing in \(line)") }
            #expect(kinds.contains(object["kind"] as? String ?? ""))
            #expect(object["thread"] as? String == event.loop)
            #expect(object["depth"] as? Int == event.depth)
            #expect(object["iteration"] as? Int == event.iteration)
            #expect((object["mode"] as? String) == event.mode)
            #expect(object["mode"] is NSNull == (event.mode == nil))
            #expect(object["name"] is NSNull == (event.name == nil))
            #expect(object["detail"] is NSNull == (event.detail == nil))
            let seconds = try #require(object["t"] as? Double)
            #expect(abs(seconds - event.time.seconds) < 1e-12)
            #expect(!line.contains("e+") && !line.contains("e-"), "no exponent in \(line)")
            if event.kind == .result {
                #expect(object["result"] as? String == event.name)
                #expect(object["name"] as? String == event.name)
            } else {
                #expect(object["result"] == nil)
            }
            // The key order is part of the contract.
            let offsets = Self.requiredKeys.map { line.range(of: "\"\($0)\":")!.lowerBound }
            #expect(offsets == offsets.sorted(), "keys out of order in \(line)")
        }
        #expect(events.contains { $0.kind == .result })
    }

    @Test("names and details with quotes, backslashes, control characters and non-ASCII round-trip")
    func escaping() throws {
        let tricky = "say \"hi\"\\ \n\t\r\u{1}\u{1F} é 日本 🎉 \u{2028}/"
        let event = LoopEvent(
            time: .zero + .nanoseconds(1_234_567_891), loop: "T\"1", depth: 1, mode: "mode\n2", iteration: 3,
            kind: .note, name: tricky, fact: .note(.say(tricky)))
        let text = JSONLTraceFormatter.format([event], scenario: tricky)
        let lines = Self.lines(text)
        #expect(lines.count == 2, "a newline in a value must not split the line")
        let header = try ExportJSON.object(lines[0])
        #expect(header["scenario"] as? String == tricky)
        let object = try ExportJSON.object(lines[1])
        #expect(object["name"] as? String == tricky)
        #expect(object["detail"] as? String == tricky)
        #expect(object["thread"] as? String == "T\"1")
        #expect(object["mode"] as? String == "mode\n2")
        #expect(lines[1].hasPrefix(#"{"t":1.234567891,"#))
        #expect(lines[1].contains(#"\u0001"#) && lines[1].contains(#"\u000A"#) && lines[1].contains("日本 🎉"))
    }

    @Test("times are plain decimals with millisecond digits at least")
    func times() {
        func line(_ nanoseconds: Int64) -> String {
            JSONLTraceFormatter.line(
                LoopEvent(
                    time: LoopInstant(nanoseconds: nanoseconds), loop: "T", depth: 0, mode: nil, iteration: 0,
                    kind: .note))
        }
        #expect(line(0).hasPrefix(#"{"t":0.000,"#))
        #expect(line(250_000_000).hasPrefix(#"{"t":0.250,"#))
        #expect(line(500).hasPrefix(#"{"t":0.0000005,"#))
        #expect(line(12_000_000_001).hasPrefix(#"{"t":12.000000001,"#))
    }
}

extension JSONLExportTests {
    @Test("an empty trace is a header alone")
    func emptyTrace() throws {
        let text = JSONLTraceFormatter.format([], scenario: "")
        #expect(text == #"{"format":"loopviz-trace","version":1,"scenario":"","clock":"virtual","events":0}"# + "\n")
    }

    @Test("DEL and the JavaScript line separators are escaped too")
    func rareCharacters() throws {
        let line = JSONLTraceFormatter.line(
            LoopEvent(time: .zero, loop: "T", depth: 0, mode: nil, iteration: 0, kind: .note, name: "a\u{7F}\u{2029}b"))
        #expect(line.contains(#""name":"a\u007F\u2029b""#))
        #expect(try ExportJSON.object(line)["name"] as? String == "a\u{7F}\u{2029}b")
    }
}
