import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// A lesson's narration line is often longer than the Why panel's header at 80 columns: what does not fit there
/// leads the panel's text, so no line loses its end (the truth check found 53 English and 45 Chinese lines cut).
@Suite("the Why panel's narration")
struct WhyNarrationTests {
    static let glyphs = Glyphs(theme: AppModel.Theme(color: true, unicode: true))

    @Test("a narration line longer than the header goes on in the panel's first line, cut at a word")
    func longLineGoesOn() throws {
        let model = RenderTests.model(width: 80, height: 24, step: 40)
        let lines = render(model).lines
        let header = try #require(lines.firstIndex { $0.contains("» Another thread signals") })
        #expect(
            lines[header]
                == "─ » Another thread signals `work` and wakes the loop: the source0 runs, then ───")
        #expect(lines[header + 1] == " the loop polls")
    }

    @Test("a line that fits stays whole in the header and adds no line")
    func shortLineStaysInTheHeader() {
        let split = WhyNarration("the timer fires", width: 80, Self.glyphs)
        #expect(split.header == "» the timer fires")
        #expect(split.rest.isEmpty)
    }

    @Test("every narration line of every lesson, in each of its languages, is shown whole at 80 columns")
    func everyLineWhole() throws {
        var checked = 0
        for name in ExampleFiles.lessons {
            let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
            let script = try ScenarioParser.parse(String(contentsOf: url, encoding: .utf8), file: name)
            let texts = script.narration.map(\.text) + script.narration.map { script.note($0.text, in: .zh) }
            for text in texts {
                let split = WhyNarration(text, width: 80, Self.glyphs)
                let header = try #require(split.header)
                // The header and the panel's lines fit their room, and together they are the line, every character
                // of it (a wrap breaks at a space, or inside a run of CJK text, which has none).
                #expect(DisplayWidth.columns(header) <= 76, "\(name): \(header)")
                for line in split.rest { #expect(DisplayWidth.columns(line) <= 78, "\(name): \(line)") }
                let shown = ([header] + split.rest).joined().filter { $0 != " " }
                #expect(shown == "» \(text)".filter { $0 != " " }, "\(name): \(text)")
                checked += 1
            }
        }
        #expect(checked > 300, "the lessons and their narration were read")
    }
}
