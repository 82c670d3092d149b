import Testing

@testable import loopviz

/// `--screen-reader`: plain lines, one a step.
@Suite("the screen reader mode says each step in plain lines")
struct ScreenReaderTests {
    static func model() -> AppModel {
        var model = UpdateTests.model(width: 120, height: 40)
        model.theme.unicode = false
        model.isPaused = true
        return model
    }

    /// Every step of the default lesson's first 120, as said after `n`.
    static func transcript() -> [String] {
        var model = model()
        var lines: [String] = []
        for _ in 0..<120 {
            let before = model
            _ = updateInline(&model, .key(.character("n")))
            lines += ScreenReader.announce(.character("n"), before: before, after: model)
        }
        return lines
    }

    @Test("no box drawing, no block glyph and no control character in anything it says")
    func plainCharacters() {
        let lines = ScreenReader.introduction() + Self.transcript()
        for line in lines {
            let bad = line.unicodeScalars.filter {
                (0x2500...0x259F).contains($0.value) || $0.properties.generalCategory == .control
            }
            #expect(bad.isEmpty, "\(line)")
        }
    }

    @Test("each step's Why is the Why pane's text, whole")
    func sameAsWhyPane() {
        var model = Self.model()
        for _ in 0..<120 {
            let before = model
            _ = updateInline(&model, .key(.character("n")))
            let said = ScreenReader.announce(.character("n"), before: before, after: model)
            let why = hangWords(model, explaining: model.cursor - 1) + whyText(model, explaining: model.cursor - 1)
            #expect(said.last == "Why: " + Glyphs(theme: model.theme).plain(why))
            // The pane shows the same words, wrapped.
            let pane = wrap(why, width: model.width - 2).joined(separator: " ")
            #expect(pane.split(separator: " ") == why.split(separator: " "))
        }
    }

    @Test("a key is announced, then what it did, then the step")
    func announcesKeys() {
        var model = Self.model()
        let before = model
        _ = updateInline(&model, .key(.character("]")))
        let said = ScreenReader.announce(.character("]"), before: before, after: model)
        #expect(said[0] == "key ].")
        #expect(
            said[1].hasPrefix("step \(model.cursor) of \(model.trace.count), ") && said[1].contains(": beforeTimers"))
        #expect(said.last?.hasPrefix("Why: ") == true)
    }

    @Test("typing into a prompt is said once, at its end")
    func promptTyping() {
        var model = Self.model()
        _ = updateInline(&model, .key(.character("/")))
        let before = model
        _ = updateInline(&model, .key(.character("k")))
        #expect(ScreenReader.announce(.character("k"), before: before, after: model).isEmpty)
        #expect(ScreenReader.key("\u{1b}") == .escape)
    }
}
