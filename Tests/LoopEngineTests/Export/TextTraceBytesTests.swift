import LoopEngine
import Testing

/// `run` writes the text trace as bytes, a line of printable ASCII without a string per cell: the text must be the
/// very text the cells built as strings give, line for line, whatever the names hold.
@Suite("the text trace built as bytes")
struct TextTraceBytesTests {
    /// The stream's text with plain lines built as bytes, and with every line built from strings.
    static func both(_ events: [LoopEvent], lookahead: Int) -> (bytes: String, strings: String) {
        var fast = TextTraceFormatter.Stream(lookahead: lookahead)
        var slow = TextTraceFormatter.Stream(lookahead: lookahead)
        slow.buildsPlainLinesAsBytes = false
        var bytes: [UInt8] = []
        var strings = ""
        for event in events {
            fast.append(event, to: &bytes)
            strings += slow.append(event)
        }
        bytes.append(contentsOf: fast.finish().utf8)
        strings += slow.finish()
        return (String(decoding: bytes, as: UTF8.self), strings)
    }

    static func event(
        _ loop: String, _ mode: String?, _ depth: Int, _ kind: LoopEvent.Kind, _ name: String?
    ) -> LoopEvent {
        LoopEvent(time: .zero, loop: loop, depth: depth, mode: mode, iteration: 1, kind: kind, name: name)
    }

    @Test("every lesson streamed with a short lookahead: the same text either way", arguments: [0, 1, 50])
    func lessons(lookahead: Int) throws {
        for name in ExampleLessonTests.lessons {
            let script = try ExampleLessonTests.load(name)
            let events = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60)).events
            let (bytes, strings) = Self.both(events, lookahead: lookahead)
            #expect(bytes == strings, "\(name), lookahead \(lookahead)")
        }
    }

    @Test("names that are not printable ASCII, nested runs, empty cells and trailing spaces: the same text")
    func hostileCells() {
        let events = [
            Self.event("T", "default", 1, .entry, nil),
            Self.event("界面", "模式", 1, .source0, "ポート"),
            Self.event("T", "default", 3, .timer, "wider-than-before"),
            Self.event("T\u{1B}[31m", "m\u{202E}", 2, .source0, "a\tb"),
            Self.event("T", nil, 0, .note, "ends in spaces   "),
            Self.event("T", "default", 1, .source0, "\u{600} "),
            Self.event("T", "default", 1, .exit, "x\u{301}"),
            LoopEvent(
                time: LoopInstant(nanoseconds: 1_234_567), loop: "T", depth: 1, mode: "default", iteration: 2,
                kind: .note, name: nil, fact: .note(.say("said   "))),
            LoopEvent(
                time: LoopInstant(nanoseconds: -5), loop: "T", depth: 1, mode: "default", iteration: 2, kind: .exit),
        ]
        for lookahead in [0, 1, 3] {
            let (bytes, strings) = Self.both(events, lookahead: lookahead)
            #expect(bytes == strings, "lookahead \(lookahead)")
        }
    }
}
