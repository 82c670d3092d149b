import LoopEngine
import Testing

/// The reader reads lines of the writers' own shape straight from their bytes; every other line is parsed as
/// JSON. These tests hold the two ways together: the same file reads the same (events, header, warnings, or the
/// same error at the same line and column) with the byte scanner and with JSON parsing alone.
@Suite("reading JSONL lines from their bytes")
struct JSONLScannerTests {
    static let header = #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"virtual","events":null}"#
    static let plain =
        #"{"t":1.250,"thread":"main","depth":1,"mode":"default","iteration":7,"kind":"timer","name":"tick","#
        + #""detail":"due 1.250","fact":["late",1250000000,null]}"#

    /// What reading `lines` comes to, either way: the events, or the error.
    static func outcome(_ lines: [String], scanning: Bool) -> Result<[LoopEvent], JSONLTraceReader.Failure> {
        var reader = JSONLTraceReader(maximumEvents: 3, scansPlainLines: scanning)
        do throws(JSONLTraceReader.Failure) {
            for line in lines { try reader.read(line: Array(line.utf8)) }
            let trace = try reader.finish()
            return .success(Array(trace.events))
        } catch {
            return .failure(error)
        }
    }

    static func expectSame(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let scanned = outcome(lines, scanning: true)
        let parsed = outcome(lines, scanning: false)
        #expect(scanned == parsed, "\(lines.last ?? "")", sourceLocation: sourceLocation)
    }

    @Test("the writers' line and each variant of it read the same with the scanner as parsed as JSON")
    func variantsReadTheSame() {
        let replacements: [(String, String)] = [
            ("", ""),
            (#""t":1.250"#, #""t":0.000000001"#), (#""t":1.250"#, #""t":999999999.999999999"#),
            (#""t":1.250"#, #""t":1234567890.5"#), (#""t":1.250"#, #""t":1.2500000000"#),
            (#""t":1.250"#, #""t":1.2500000001"#), (#""t":1.250"#, #""t":1"#), (#""t":1.250"#, #""t":1.25e0"#),
            (#""t":1.250"#, #""t":-1.25"#), (#""t":1.250"#, #""t":01.25"#), (#""t":1.250"#, #""t":1."#),
            (#""t":1.250"#, #""t":"1.25""#), (#""t":1.250"#, #""t":0"#),
            (#""depth":1"#, #""depth":0"#), (#""depth":1"#, #""depth":256"#), (#""depth":1"#, #""depth":257"#),
            (#""depth":1"#, #""depth":01"#), (#""depth":1"#, #""depth":1.0"#), (#""depth":1"#, #""depth":-1"#),
            (#""depth":1"#, #""depth":99999999999999999999"#),
            (#""iteration":7"#, #""iteration":2147483647"#), (#""iteration":7"#, #""iteration":2147483648"#),
            (#""mode":"default""#, #""mode":null"#), (#""mode":"default""#, #""mode":"de\"fault""#),
            (#""mode":"default""#, #""mode":"modé""#), (#""mode":"default""#, #""mode":1"#),
            (#""mode":"default","#, ""), (#""name":"tick""#, #""name":null"#), (#""name":"tick","#, ""),
            (#""thread":"main""#, #""thread":null"#), (#""thread":"main""#, #""thread":"ma\u0069n""#),
            (#""thread":"main""#, #""thread":"a\u007Fb""#), (#""thread":"main""#, #""thread":"""#),
            (#""kind":"timer""#, #""kind":"timers""#), (#""kind":"timer""#, #""kind":"observer""#),
            (#""kind":"timer""#, #""kind":"Timer""#),
            (#""detail":"due 1.250","#, ""), (#""detail":"due 1.250""#, #""detail":null"#),
            (#""detail":"due 1.250""#, #""detail":"a \"quoted\" word""#), (#""detail":"due 1.250""#, #""detail":3"#),
            (#","fact":["late",1250000000,null]"#, ""), (#"["late",1250000000,null]"#, "null"),
            (#"["late",1250000000,null]"#, "[]"), (#"["late",1250000000,null]"#, #"["late",1250000000]"#),
            (#"["late",1250000000,null]"#, #"["late",-5,null]"#), (#"["late",1250000000,null]"#, #"["late",1.5,null]"#),
            (#"["late",1250000000,null]"#, #"["late",[1],null]"#), (#"["late",1250000000,null]"#, #"[ "late",1,null]"#),
            (#"["late",1250000000,null]"#, #"["late",1,nul]"#), (#"["late",1250000000,null]"#, #"["l]te",1,null]"#),
            (#"["late",1250000000,null]"#, #"["activity",2]"#), (#"["late",1250000000,null]"#, #"["mark","begin"]"#),
            (#"["late",1250000000,null]"#, #"["activity",true]"#),
            (#"{"t""#, #"{ "t""#), (#"{"t""#, #"{"t":2.0,"t""#), (#"{"t""#, #"{"other":1,"t""#),
            (#"null]}"#, #"null]} "#), (#"null]}"#, #"null]}}"#), (#"null]}"#, #"null],}"#), (#"null]}"#, "null]"),
            (#""result":"#, ""), (#""kind":"timer""#, #""kind":"result","result":"timedOut""#),
            (#""kind":"timer""#, #""kind":"result","result":{"a":1}"#),
        ]
        for (old, new) in replacements {
            let line = old.isEmpty ? Self.plain : Self.plain.replacing(old, with: new, maxReplacements: 1)
            Self.expectSame([Self.header, line])
            Self.expectSame([Self.header, line + "\r"])
        }
    }

    @Test("3,000 lines with a byte changed, dropped or added read the same with the scanner as parsed as JSON")
    func mutatedLinesReadTheSame() {
        let plain = Array(Self.plain.utf8)
        let alphabet = Array(#"{}[]",:.-+eE0123456789 \tnulfasr"#.utf8) + [0x00, 0x7F, 0xC3, 0xA9]
        var state: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<3_000 {
            var line = plain
            for _ in 0...next(3) {
                let at = next(line.count)
                switch next(3) {
                case 0: line[at] = alphabet[next(alphabet.count)]
                case 1: line.remove(at: at)
                default: line.insert(alphabet[next(alphabet.count)], at: at)
                }
            }
            let lines = [Array(Self.header.utf8), line]
            let outcomes = [true, false].map { scanning in
                var reader = JSONLTraceReader(maximumEvents: 3, scansPlainLines: scanning)
                return Result { () throws(JSONLTraceReader.Failure) -> [LoopEvent] in
                    for line in lines { try reader.read(line: line) }
                    return Array(try reader.finish().events)
                }
            }
            #expect(outcomes[0] == outcomes[1], "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test("more names and facts than the scanner keeps read back as written, in any order")
    func manyNamesAndFacts() {
        var lines = [Self.header]
        for index in 0..<6_000 {
            let name = "item \(index % 5_003)"
            lines.append(
                #"{"t":\#(index).5,"thread":"T\#(index % 7)","depth":1,"mode":"m\#(index % 4_099)","iteration":\#(index),"#
                    + #""kind":"timer","name":"\#(name)","detail":"x","fact":["late",\#(index * 3),null]}"#)
        }
        var reader = JSONLTraceReader(maximumEvents: 10_000)
        var reference = JSONLTraceReader(maximumEvents: 10_000, scansPlainLines: false)
        #expect(throws: Never.self) {
            for line in lines {
                try reader.read(line: Array(line.utf8))
                try reference.read(line: Array(line.utf8))
            }
            let events = Array(try reader.finish().events)
            #expect(events.count == 6_000)
            #expect(events == Array(try reference.finish().events))
        }
    }

    @Test("a line past the event budget is refused at its line whichever way it is read")
    func budget() {
        let lines = [Self.header, Self.plain, Self.plain, Self.plain, Self.plain]
        let failure = JSONLTraceReader.Failure(line: 5, column: nil, message: "more than 3 events (the event budget)")
        #expect(Self.outcome(lines, scanning: true) == .failure(failure))
        #expect(Self.outcome(lines, scanning: false) == .failure(failure))
    }
}
