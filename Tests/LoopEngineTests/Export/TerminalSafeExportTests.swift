import LoopEngine
import Testing

/// A scenario file is input from anyone: every export format must carry its strings without a byte a terminal
/// would act on (`cat trace.jsonl` or a pager shows them all).
@Suite("exports of a hostile scenario are safe for a terminal")
struct TerminalSafeExportTests {
    static let title = "title \u{1B}]0;PWNED\u{07}"
    static let clipboard = "copy \u{1B}]52;c;aGk=\u{07} clear \u{1B}[2J"
    static let hostile = Scenario(
        name: title,
        threads: [
            ThreadSpec(
                name: "T\u{9B}31m",
                items: [
                    .source0("s\u{1B}[1m", [ScriptStep(.note(clipboard))]),
                    .timer("t\u{202E}gpj.exe", first: .milliseconds(5), modes: ["mode\u{7F}\u{85}"]),
                    .observer("o\u{1B}]0;x\u{07}", [.entry]),
                ],
                program: [
                    .signal("s\u{1B}[1m"), .note("rlo \u{202E}drow lri \u{2066}x\u{2069} nel \u{85}"),
                    .run(.inMode(.default, seconds: 0.01, returnAfterSourceHandled: false)),
                    .run(.inMode("mode\u{7F}\u{85}", seconds: 0.01, returnAfterSourceHandled: false)),
                ])
        ])

    static let events = ScenarioRunner.run(hostile).events

    /// The unsafe scalars in `text` other than the line breaks that lay an output out.
    static func unsafeScalars(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalSafeText.isUnsafe($0) }.map(\.value)
    }

    @Test("the scenario does reach every formatter with its hostile strings")
    func theStringsAreThere() {
        #expect(Self.events.contains { $0.kind == .note && $0.detail == Self.clipboard })
        #expect(Self.events.contains { $0.kind == .timer && $0.name == "t\u{202E}gpj.exe" })
        #expect(Self.events.contains { $0.loop == "T\u{9B}31m" && $0.mode == "mode\u{7F}\u{85}" })
    }

    @Test("the text trace shows ESC, OSC, C1, DEL and U+202E as visible escapes")
    func text() {
        let text = TextTraceFormatter.format(Self.events)
        #expect(Self.unsafeScalars(text) == [])
        #expect(text.contains(#"copy \e]52;c;aGk=\u{7} clear \e[2J"#))
        #expect(text.contains(#"T\u{9B}31m"#))
        #expect(text.contains(#"mode\u{7F}\u{85}"#))
        #expect(text.contains(#"t\u{202E}gpj.exe"#))
        #expect(text.contains(#"rlo \u{202E}drow lri \u{2066}x\u{2069} nel \u{85}"#))
        #expect(text.contains(#"o\e]0;x\u{7}"#))
    }

    @Test("JSON Lines escapes them as \\u sequences that decode to the same text")
    func jsonl() {
        let text = JSONLTraceFormatter.format(Self.events, scenario: Self.title)
        #expect(Self.unsafeScalars(text) == [])
        #expect(text.hasPrefix(#"{"format":"loopviz-trace","version":1,"scenario":"title \u001B]0;PWNED\u0007""#))
        #expect(text.contains(#""detail":"copy \u001B]52;c;aGk=\u0007 clear \u001B[2J""#))
        #expect(text.contains(#""thread":"T\u009B31m""#))
        #expect(text.contains(#""name":"t\u202Egpj.exe""#))
        #expect(text.contains(#""mode":"mode\u007F\u0085""#))
    }

    @Test("Chrome's trace escapes them the same way")
    func chrome() {
        let text = ChromeTraceFormatter.format(Self.events, scenario: Self.title)
        #expect(Self.unsafeScalars(text) == [])
        #expect(text.contains(#"copy \u001B]52;c;aGk=\u0007 clear \u001B[2J"#))
        #expect(text.contains(#"t\u202Egpj.exe"#))
        #expect(text.contains(#"T\u009B31m"#))
    }

    @Test("Mermaid shows them as visible escapes, its own specials as entity codes")
    func mermaid() {
        let text = MermaidTraceFormatter.format(Self.events, scenario: Self.title)
        #expect(Self.unsafeScalars(text) == [])
        #expect(text.contains(#"    title title \e]0#59;PWNED\u{7}"#))
        #expect(text.contains(#": copy \e]52#59;c#59;aGk=\u{7} clear \e[2J"#))
        #expect(text.contains(#"as timer t\u{202E}gpj.exe"#))
        #expect(text.contains(#"as loop T\u{9B}31m"#))
    }
}
