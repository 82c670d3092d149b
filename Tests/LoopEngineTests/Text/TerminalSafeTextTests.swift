import LoopEngine
import Testing

@Suite("Terminal-safe text")
struct TerminalSafeTextTests {
    @Test("an escape sequence that would retitle and clear the terminal is shown, not sent")
    func escapeSequencesAreShown() {
        #expect(TerminalSafeText.terminalSafe("\u{1B}]0;PWNED\u{07}\u{1B}[2J") == "\\e]0;PWNED\\u{7}\\e[2J")
    }

    @Test("C1 controls, DEL and bidirectional controls are shown as escapes")
    func c1DelAndBidiAreShown() {
        #expect(TerminalSafeText.terminalSafe("a\u{9B}b\u{7F}c") == "a\\u{9B}b\\u{7F}c")
        #expect(TerminalSafeText.terminalSafe("x\u{202E}y\u{2066}z\u{2069}") == "x\\u{202E}y\\u{2066}z\\u{2069}")
    }

    @Test("a field shows its line breaks and tabs; a whole output keeps them")
    func lineBreaksInFieldsAndOutputs() {
        #expect(TerminalSafeText.terminalSafe("a\nb\tc\r") == "a\\nb\\tc\\r")
        #expect(TerminalSafeText.terminalSafeOutput("a\nb\tc\r\u{1B}") == "a\nb\tc\\r\\e")
    }

    @Test("invisible characters that make two names look alike are shown: zero-width space, word joiner, BOM")
    func invisibleCharactersAreShown() {
        #expect(TerminalSafeText.terminalSafe("T\u{200B}1\u{2060}2\u{FEFF}") == "T\\u{200B}1\\u{2060}2\\u{FEFF}")
    }

    @Test("ordinary text, accents, CJK and emoji (joined ones too) pass unchanged")
    func ordinaryTextPasses() {
        let text = "timer tick — 计时器 ⏱ café 👨\u{200D}👩\u{200D}👧"
        #expect(TerminalSafeText.terminalSafe(text) == text)
        #expect(TerminalSafeText.terminalSafeOutput(text) == text)
    }
}
