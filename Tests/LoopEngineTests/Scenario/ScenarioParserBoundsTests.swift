import LoopEngine
import Testing

/// Bad input costs little: diagnostics are capped per file, each is short whatever the line, and the count of
/// problems stays true.
@Suite("the .loop parser's diagnostics are bounded")
struct ScenarioParserBoundsTests {
    func diagnostics(_ source: String, file: String = "t.loop") -> ScenarioDiagnostics {
        do {
            _ = try ScenarioParser.parse(source, file: file)
        } catch {
            return error
        }
        Issue.record("expected diagnostics")
        return ScenarioDiagnostics([])
    }

    @Test("a file with 50 errors shows the first 20, then how many more, and the true count")
    func capsTheDiagnosticsOfAFile() {
        let source = "thread T\n  wakeup\n" + String(repeating: "zork\n", count: 50)
        let result = diagnostics(source)
        #expect(result.total == 50)
        #expect(result.diagnostics.map(\.line) == Array(3...22))
        let lines = result.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 20 * 3 + 2)
        #expect(lines.suffix(2) == ["and 30 more errors", "50 errors generated."])
    }

    @Test("the errors kept are the first in the file, even those found last (unknown names are checked at the end)")
    func keepsTheFirstByPosition() {
        // Lines 3–27 name an unknown source (found after the whole file is read); lines 28–52 have a bad character
        // (found first, by the lexer).
        let source =
            "thread T\n  source0 s\n" + String(repeating: "  signal nope\n", count: 25)
            + String(repeating: "  wakeup @\n", count: 25)
        let result = diagnostics(source)
        #expect(result.total == 50)
        #expect(result.diagnostics.map(\.line) == Array(3...22))
        #expect(result.diagnostics.allSatisfy { $0.message == "unknown item 'nope' on thread T (known: s)" })
    }

    @Test("a line of 4,000 bad bytes gives one short error, not 4,000 copies of the line")
    func oneErrorPerRun() {
        let source = "thread T\n  wakeup " + String(repeating: "\u{1}", count: 4000)
        let result = diagnostics(source)
        let escapes = String(repeating: "\\u{1}", count: 16)
        let expected = [
            "t.loop:2:10: error: 4000 unexpected characters '\(escapes)…'",
            "    wakeup " + String(repeating: "\\u{1}", count: 10) + "…",
            "  " + String(repeating: " ", count: 9) + "^",
            "1 error generated.",
        ]
        #expect(result.description == expected.joined(separator: "\n"))
    }

    @Test("a megabyte line of alternating bad and good characters is counted in full and printed short")
    func aHugeLineIsCountedAndPrintedShort() {
        let source = "thread T\n  wakeup " + String(repeating: "@a", count: 500_000)
        let result = diagnostics(source)
        // Each `@` is a run of its own; the `a`s are words, left at the end of the line after the first error.
        #expect(result.total == 500_000)
        #expect(result.diagnostics.count == 20)
        #expect(result.description.utf8.count < 20 * 300)
        #expect(result.description.hasSuffix("and 499980 more errors\n500000 errors generated."))
    }

    @Test("the excerpt of a long line is a window around the column, with the caret under its character")
    func excerptWindow() {
        let line = String(repeating: "a", count: 200) + "@" + String(repeating: "b", count: 200)
        let diagnostic = ScenarioDiagnostic(file: "f.loop", line: 4, column: 201, message: "here", sourceLine: line)
        let expected = [
            "f.loop:4:201: error: here",
            "  …" + String(repeating: "a", count: 50) + "@" + String(repeating: "b", count: 49) + "…",
            "  " + String(repeating: " ", count: 51) + "^",
        ]
        #expect(diagnostic.description == expected.joined(separator: "\n"))
    }

    @Test("file name, message and excerpt are terminal-safe, and the caret counts the escapes' width")
    func renderingIsTerminalSafe() {
        let diagnostic = ScenarioDiagnostic(
            file: "evil\u{1B}]0;x\u{7}.loop", line: 1, column: 6, message: "bad \u{9B}2J",
            sourceLine: "say \u{202E}\u{1B}[2J@")
        let expected = [
            "evil\\e]0;x\\u{7}.loop:1:6: error: bad \\u{9B}2J",
            "  say \\u{202E}\\e[2J@",
            "  " + String(repeating: " ", count: 12) + "^",
        ]
        #expect(diagnostic.description == expected.joined(separator: "\n"))
    }

    @Test("a file that is not UTF-8 is reported at each run of invalid bytes, with line and column")
    func invalidUTF8() {
        let bytes =
            Array("thread T\n  say \"é\" ".utf8) + [0xFF, 0xFE] + Array(" x ".utf8) + [0xC3] + [0x0A]
            + Array("  wakeup\n".utf8) + [0xED, 0xA0, 0x80]
        do {
            _ = try ScenarioParser.parse(utf8: bytes, file: "bin.loop")
            Issue.record("expected diagnostics")
        } catch {
            let expected = [
                "bin.loop:2:11: error: invalid UTF-8: 2 bytes (0xFF 0xFE); save the file as UTF-8",
                "    say \"é\" \u{FFFD}\u{FFFD} x \u{FFFD}",
                "  " + String(repeating: " ", count: 10) + "^",
                "bin.loop:2:15: error: invalid UTF-8: byte 0xC3; save the file as UTF-8",
                "    say \"é\" \u{FFFD}\u{FFFD} x \u{FFFD}",
                "  " + String(repeating: " ", count: 14) + "^",
                // A UTF-16 surrogate encoded in UTF-8 is not UTF-8 either.
                "bin.loop:4:1: error: invalid UTF-8: 3 bytes (0xED 0xA0 0x80); save the file as UTF-8",
                "  \u{FFFD}\u{FFFD}\u{FFFD}",
                "  ^",
                "3 errors generated.",
            ]
            #expect(error.description == expected.joined(separator: "\n"))
        }
    }

    @Test("the caret stands under its character on a line of wide characters")
    func caretCountsColumns() throws {
        #expect {
            _ = try ScenarioParser.parse("thread 界面\n  port ポート in 模式 bogus\n", file: "f.loop")
        } throws: { error in
            let lines = String(describing: error).split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 3 && lines[1] == "    port ポート in 模式 bogus"
                && lines[2] == String(repeating: " ", count: 24) + "^"
        }
    }

    @Test("a byte-order mark at the start of the file is skipped: the same script, the same columns")
    func byteOrderMarkIsSkipped() throws {
        let text = "thread T\n  port p in default\n  run default for 1ms\n"
        let plain = try ScenarioParser.parse(utf8: Array(text.utf8), file: "f.loop")
        let marked = try ScenarioParser.parse(utf8: [0xEF, 0xBB, 0xBF] + Array(text.utf8), file: "f.loop")
        #expect(marked == plain)
        #expect {
            _ = try ScenarioParser.parse("\u{FEFF}thread T\n  bogus", file: "f.loop")
        } throws: { error in
            let first = (error as? ScenarioDiagnostics)?.diagnostics.first
            return first?.line == 2 && first?.column == 3
        }
    }

    @Test("valid UTF-8 bytes parse as the text does")
    func validUTF8() throws {
        let source = "scenario \"Über → ok\"\nthread T\n  wakeup\n"
        #expect(
            try ScenarioParser.parse(utf8: Array(source.utf8), file: "u.loop")
                == ScenarioParser.parse(source, file: "u.loop"))
    }

    @Test("a file with CRLF line ends parses as with LF ones (\"\\r\\n\" is one Character, not a line break)")
    func crlfLineEnds() throws {
        let lines = ["scenario \"CRLF\"", "thread T", "  wakeup", "  run default for 1ms"]
        let source = lines.map { $0 + "\n" }.joined()
        let crlf = lines.map { $0 + "\r\n" }.joined()
        #expect(try ScenarioParser.parse(crlf, file: "w.loop") == ScenarioParser.parse(source, file: "w.loop"))
        let broken = diagnostics("thread T\r\n  wakeup @\r\n")
        #expect(
            broken.diagnostics.map { "\($0.line):\($0.column): \($0.message)" } == ["2:10: unexpected character '@'"])
    }

    @Test("a file of many invalid bytes shows 20 and counts them all")
    func invalidUTF8IsCapped() {
        let bytes = [UInt8](repeating: 0xFF, count: 3) + Array(repeating: [0x0A, 0x41, 0xFF], count: 99).joined()
        do {
            _ = try ScenarioParser.parse(utf8: bytes, file: "bin.loop")
            Issue.record("expected diagnostics")
        } catch {
            #expect(error.total == 100)
            #expect(error.diagnostics.map(\.line) == Array(1...20))
            #expect(error.diagnostics.dropFirst().allSatisfy { $0.column == 2 })
            #expect(error.description.hasSuffix("and 80 more errors\n100 errors generated."))
        }
    }
}
