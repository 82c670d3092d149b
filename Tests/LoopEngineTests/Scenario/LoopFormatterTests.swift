import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// `loopviz fmt`'s layout loses nothing: every lesson and conformance file keeps every comment and parses to the
/// same script once formatted, and formatting a formatted file changes nothing.
@Suite("the .loop formatter")
struct LoopFormatterTests {
    @Test(
        "each lesson and conformance file keeps every comment and its script when formatted, and formatting it again changes nothing",
        arguments: LoopScriptPrinterTests.lessonsAndConformance)
    func formattingLosesNothing(_ path: String) throws {
        let url = Snapshot.packageRoot.appendingPathComponent(path)
        let source = try String(contentsOf: url, encoding: .utf8)
        let formatted = try #require(try LoopFormatter.format(source, file: path))
        #expect(LoopFormatter.comments(of: formatted) == LoopFormatter.comments(of: source))
        #expect(!LoopFormatter.comments(of: source).isEmpty, "a lesson or a conformance file has comments")
        let script = try ScenarioParser.parse(source, file: path)
        #expect(try ScenarioParser.parse(formatted, file: path).isSame(as: script))
        #expect(try LoopFormatter.format(formatted, file: path) == formatted)
    }

    @Test("the layout: two spaces a level, one space between words, comments kept where they are, one blank line")
    func canonicalLayout() throws {
        let source =
            "\u{FEFF}\n# The header.\n#   [zh]\n# 标题。   \n\n\n"
            + "scenario   \"two  spaces  stay\"   # the title\n"
            + "thread T\n"
            + "    timer t at 10ms   every 20ms in default ,Tracking\n"
            + "         # what the timer does\n"
            + "         work 1ms\n"
            + "\n\n\n"
            + "    run default for 50ms\r\n"
            + "# a comment before expect\n"
            + "expect in order\n"
            + "   0.010 T :timer t   \n"
            + "\n\n"
        let expected = """
            # The header.
            #   [zh]
            # 标题。

            scenario "two  spaces  stay" # the title
            thread T
              timer t at 10ms every 20ms in default, Tracking
                # what the timer does
                work 1ms

              run default for 50ms
            # a comment before expect
            expect in order
              0.010 T: timer t

            """
        #expect(try LoopFormatter.format(source, file: "messy.loop") == expected)
    }

    @Test("a file that does not parse is not formatted: its problems are thrown with their line and column")
    func invalidFileIsNotFormatted() {
        #expect(throws: ScenarioDiagnostics.self) {
            _ = try LoopFormatter.format("thread T\n  run default\n", file: "bad.loop")
        }
    }
}
