import Testing

@testable import loopviz

/// The one helper every cut of the UI goes through: whole words or an ellipsis, never half a word.
@Suite("text is fitted at word boundaries")
struct TextFitTests {
    @Test("fit keeps text that fits, else whole words and an ellipsis")
    func fit() {
        #expect(TextFit.fit("fire the selected timer now", width: 27) == "fire the selected timer now")
        #expect(TextFit.fit("fire the selected timer now", width: 26) == "fire the selected timer…")
        #expect(TextFit.fit("fire the selected timer now", width: 24) == "fire the selected timer…")
        #expect(TextFit.fit("fire the selected timer now", width: 23) == "fire the selected…")
        #expect(TextFit.fit("a signalled source0 does not", width: 26, ellipsis: "...") == "a signalled source0...")
        // Alternatives written with slashes end at a slash.
        #expect(TextFit.fit("Sleep: port/timer/timeout/wake", width: 27) == "Sleep: port/timer/timeout/…")
        // A first word wider than the room is the only thing ever cut.
        #expect(TextFit.fit("observer", width: 5) == "obse…")
        #expect(TextFit.fit("anything", width: 0) == "")
        #expect(TextFit.fit("anything", width: 1) == "…")
    }

    @Test("wrap breaks at spaces; a word wider than the width is split across lines")
    func wrap() {
        #expect(
            TextFit.wrap("the thread sleeps in the kernel until timer tick", width: 16) == [
                "the thread", "sleeps in the", "kernel until", "timer tick",
            ])
        #expect(TextFit.wrap("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect(TextFit.wrap("", width: 10).isEmpty)
    }

    @Test("join keeps whole parts only")
    func join() {
        let hints = ["? help", "q quit", "Space play/pause", "m scroll"]
        #expect(TextFit.join(hints, width: 100) == "? help  q quit  Space play/pause  m scroll")
        #expect(TextFit.join(hints, width: 40) == "? help  q quit  Space play/pause")
        #expect(TextFit.join(hints, width: 5).isEmpty)
    }

    @Test("clip ends the last row shown at a word, with the ellipsis")
    func clip() {
        let lines = TextFit.wrap("one two three four five six seven", width: 10)
        #expect(lines == ["one two", "three four", "five six", "seven"])
        #expect(TextFit.clip(lines, rows: 2, width: 10) == ["one two", "three…"])
        #expect(TextFit.clip(lines, rows: 4, width: 10) == lines)
    }

    @Test("the status bar shows whole hints at every width from 80 to 132, in both views")
    func statusHints() {
        let hints = [
            "? help", "q quit", "Space play/pause", "n/p step", "s signal", "o port", "f fire", "w wake", "x stop",
            "t thread", "m scroll", "P loop view", "a add", "c cancel", "C cancel all", "s suspend", "< > limit",
        ]
        for pool in [false, true] {
            for width in 80...132 {
                var model = pool ? PoolFixture.model() : UpdateTests.model()
                _ = update(&model, .resize(width: width, height: 24))
                model.isPaused = true
                let bar = render(model).lines[23]
                guard let start = bar.range(of: "? help") else {
                    Issue.record("no hints at \(width): \(bar)")
                    continue
                }
                let parts = bar[start.lowerBound...].components(separatedBy: "  ")
                #expect(parts.allSatisfy(hints.contains), "\(width): \(bar)")
            }
        }
    }
}
