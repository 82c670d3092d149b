import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// The UI's `render`, as text, at the sizes people use; re-record with `RECORD_SNAPSHOTS=1`.
@Suite("the UI draws the default lesson")
struct RenderTests {
    static func model(width: Int, height: Int, step: Int, theme: AppModel.Theme = .init()) -> AppModel {
        var model = UpdateTests.model(width: width, height: height)
        model.theme = theme
        model.isPaused = true
        model.cursor = step
        model.furthest = step
        return model
    }

    static func text(_ model: AppModel) -> String { render(model).lines.joined(separator: "\n") + "\n" }

    @Test("screens at 80×24 and 132×43 at several steps", arguments: [(80, 24), (132, 43)], [12, 40, 60, 90, 200])
    func screens(_ size: (Int, Int), _ step: Int) {
        let model = Self.model(width: size.0, height: size.1, step: step)
        Snapshot.assertMatches(
            Self.text(model), "Screens/default-\(size.0)x\(size.1)-step\(step).screen", target: "loopvizTests")
    }

    @Test("the ASCII theme uses no character outside ASCII")
    func asciiTheme() {
        let model = Self.model(width: 80, height: 24, step: 40, theme: .init(color: true, unicode: false))
        let screen = render(model)
        #expect(screen.lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
        Snapshot.assertMatches(Self.text(model), "Screens/default-80x24-step40-ascii.screen", target: "loopvizTests")
    }

    @Test("the monochrome theme uses no colour and still marks the current step and the focus")
    func monochromeTheme() {
        let model = Self.model(width: 80, height: 24, step: 40, theme: .init(color: false, unicode: true))
        let screen = render(model)
        var cells: [Screen.Cell] = []
        for y in 0..<screen.height {
            for x in 0..<screen.width { cells.append(screen[x, y]) }
        }
        #expect(cells.allSatisfy { $0.style.foreground == .normal && $0.style.background == .normal })
        #expect(cells.contains { $0.style.reverse && $0.style.bold })
        #expect(cells.contains { $0.style.underline })
    }

    @Test("a screen below 80×24 says what size is needed")
    func tooSmall() {
        let model = Self.model(width: 60, height: 15, step: 10)
        let text = Self.text(model)
        #expect(text.contains("loopviz needs at least 80×24"))
        #expect(text.contains("this terminal is 60×15"))
        Snapshot.assertMatches(text, "Screens/too-small-60x15.screen", target: "loopvizTests")
    }

    @Test("the help overlay lists every key of the loop view (at 132×43 in two pages: the find keys made it taller)")
    func helpOverlay() {
        var model = Self.model(width: 132, height: 43, step: 12)
        model.overlay = .help
        let text = Self.text(model)
        var seen = text
        for _ in 0..<6 {
            _ = updateInline(&model, .key(.pageDown))
            seen += Self.text(model)
        }
        #expect(Self.text(model).contains("end: ↑ k or PgUp back"))
        for binding in KeyMap.bindings(in: .loop) {
            #expect(seen.contains("  " + binding.label.padded(8) + binding.help), "\(binding.help)")
        }
        Snapshot.assertMatches(text, "Screens/help-132x43.screen", target: "loopvizTests")
    }

    @Test("at 80×24 the help scrolls: every key can be read whole, and the last row says what lies below")
    func helpScrollsWhenTooTall() {
        var model = Self.model(width: 80, height: 24, step: 12)
        _ = updateInline(&model, .key(.character("?")))
        let first = Self.text(model)
        #expect(first.contains("↓ 77 more below: j or PgDn  (lines 1-19 of 96)"))
        Snapshot.assertMatches(first, "Screens/help-80x24.screen", target: "loopvizTests")
        var seen = first
        for _ in 0..<8 {
            _ = updateInline(&model, .key(.pageDown))
            seen += Self.text(model)
        }
        #expect(Self.text(model).contains("end: ↑ k or PgUp back  (lines 78-96 of 96)"))
        for binding in KeyMap.bindings(in: .loop) {
            #expect(seen.contains("  " + binding.label.padded(8) + binding.help), "\(binding.help)")
        }
        for (word, meaning) in statusWords() { #expect(seen.contains("  " + word.padded(8) + meaning), "\(word)") }
        // Scrolling further changes nothing; back up to the top shows the first screen again.
        let last = Self.text(model)
        _ = updateInline(&model, .key(.pageDown))
        #expect(Self.text(model) == last)
        for _ in 0..<8 { _ = updateInline(&model, .key(.pageUp)) }
        #expect(Self.text(model) == first)
    }

    @Test("more items than the mode panel's rows: the selected one stays in view and the last row says what is hidden")
    func itemsScrollToTheSelection() {
        var model = Self.model(width: 80, height: 24, step: 12)
        for key in ["a", "A", "O"] { _ = updateInline(&model, .key(.character(Character(key)))) }
        #expect(model.items.count == 8)
        var text = Self.text(model)
        #expect(text.contains("(0 above, 3 below: e, E or 1-9 select)"), "\(text)")
        _ = updateInline(&model, .key(.character("8")))
        text = Self.text(model)
        #expect(text.contains("▶8 observer"), "\(text)")
        #expect(text.contains("(3 above, 0 below: e, E or 1-9 select)"), "\(text)")
        #expect(!text.contains("▶1 "))
    }

    @Test("stepping back then forward returns the identical screen")
    func stepBackAndForth() {
        var model = Self.model(width: 80, height: 24, step: 60)
        let before = render(model)
        for _ in 0..<7 { _ = updateInline(&model, .key(.left)) }
        #expect(render(model) != before)
        for _ in 0..<7 { _ = updateInline(&model, .key(.right)) }
        #expect(render(model) == before)
    }

    @Test("names from a scenario cannot put control characters on the screen: they show as escapes")
    func controlCharactersAreNeutralised() {
        var screen = Screen(width: 20, height: 1)
        screen.put("a\u{1b}[31mb\u{7}c", x: 0, y: 0)
        #expect(screen.lines == ["a\\e[31mb\\u{7}c"])
    }

    @Test("bidirectional controls, C1 controls and DEL show as escapes, clipped to the width like any text")
    func bidiAndC1AreNeutralised() {
        var screen = Screen(width: 40, height: 2)
        screen.put("x\u{202E}y\u{2066}z\u{9B}\u{7F}", x: 0, y: 0)
        screen.put("ab\u{202E}cd", x: 0, y: 1, limit: 5)
        #expect(screen.lines == ["x\\u{202E}y\\u{2066}z\\u{9B}\\u{7F}", "ab\\u{"])
    }

    @Test("a mode stack that does not fit keeps its ends and says how many runs, never a cut name")
    func modeStackShortens() {
        let glyphs = Glyphs(theme: AppModel.Theme(color: true, unicode: true))
        #expect(modeStack([], width: 40, glyphs) == "no run")
        #expect(modeStack(["default", "tracking"], width: 40, glyphs) == "default > tracking")
        let deep = ["default"] + Array(repeating: "tracking", count: 9)
        #expect(modeStack(deep, width: 40, glyphs) == "default > … > tracking (10 runs)")
        #expect(modeStack(deep, width: 20, glyphs) == "tracking (10 runs)")
    }

    @Test("the event log indents two columns per nested run up to 8, then gives the depth as a number")
    func logIndentIsBounded() {
        #expect(logIndent(depth: 1) == "")
        #expect(logIndent(depth: 3) == "    ")
        #expect(logIndent(depth: 9) == String(repeating: " ", count: 16))
        #expect(logIndent(depth: 10) == String(repeating: " ", count: 10) + "[10]  ")
        #expect(logIndent(depth: 256) == String(repeating: " ", count: 10) + "[256] ")
    }

    @Test("a cell written directly never holds an unsafe character")
    func cellsAreGuarded() {
        var screen = Screen(width: 3, height: 1)
        screen[0, 0] = Screen.Cell(character: "\u{202E}", style: .plain)
        screen[1, 0] = Screen.Cell(character: "\u{1B}", style: .plain)
        screen[2, 0] = Screen.Cell(character: "k", style: .plain)
        #expect(screen.lines == ["??k"])
    }
}
