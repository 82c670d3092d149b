import LoopEngine
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

    @Test("middle keeps a name that fits, else its start and end around the ellipsis, by columns")
    func middle() {
        #expect(TextFit.middle("worker", width: 9) == "worker")
        #expect(TextFit.middle("thread 30341", width: 9) == "thre…0341")
        #expect(TextFit.middle("thread 30342", width: 9) == "thre…0342")
        #expect(TextFit.middle("thread 30342", width: 9, ellipsis: "...") == "thr...342")
        // Wide characters count two columns, at either end.
        #expect(TextFit.middle("主线程工作线程", width: 9) == "主线…线程")
        #expect(TextFit.middle("abc", width: 2) == "ab")
        #expect(TextFit.middle("abc", width: 0) == "")
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
                _ = updateInline(&model, .resize(width: width, height: 24))
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

/// Chinese text: two columns a character, and lines that break between characters.
@Suite("CJK text is measured in columns")
struct WideTextFitTests {
    @Test("wrap breaks between CJK characters, never before a closing mark or after an opening one")
    func wrap() {
        #expect(TextFit.wrap("定时器触发了，循环醒来", width: 8) == ["定时器触", "发了，循", "环醒来"])
        #expect(TextFit.wrap("按 s 标记 `work`（一个源）", width: 12) == ["按 s 标记", "`work`（一个", "源）"])
        #expect(TextFit.wrap("runStart 之后紧跟着 result", width: 12) == ["runStart 之", "后紧跟着", "result"])
        for line in TextFit.wrap("运行循环只有在当前模式里有东西可等时才会真正跑起来。", width: 11) {
            #expect(DisplayWidth.columns(line) <= 11)
        }
    }

    @Test("fit counts columns and ends at a character boundary with the ellipsis")
    func fit() {
        #expect(TextFit.fit("循环睡了", width: 8) == "循环睡了")
        #expect(TextFit.fit("循环睡了一会儿", width: 8) == "循环睡…")
        #expect(TextFit.fit("循环睡了一会儿", width: 9) == "循环睡了…")
        #expect(TextFit.fit("睡", width: 1) == "…")
    }

    @Test("join and pieces measure display width")
    func join() {
        #expect(TextFit.join(["看点", "试试"], width: 10) == "看点  试试")
        #expect(TextFit.join(["看点", "试试"], width: 9) == "看点")
        #expect(
            TextFit.pieces("a 看点") == [
                .init(text: "a", spaced: false), .init(text: "看", spaced: true), .init(text: "点", spaced: false),
            ])
    }
}

/// The screen grid with wide characters: each takes two cells and stays whole.
@Suite("the screen keeps wide characters whole")
struct WideScreenTests {
    @Test("a wide character takes two cells; one that would cross the limit is left out")
    func put() {
        var screen = Screen(width: 7, height: 1)
        screen.put("看a点b", x: 0, y: 0)
        #expect(screen.lines == ["看a点b"])
        #expect(screen[1, 0].isTrailing && !screen[2, 0].isTrailing && screen[4, 0].isTrailing)
        var clipped = Screen(width: 7, height: 1)
        clipped.put("看点看", x: 0, y: 0, limit: 5)
        #expect(clipped.lines == ["看点"])
    }

    @Test("overwriting half of a wide character leaves a space in its other half")
    func overwrite() {
        var screen = Screen(width: 6, height: 1)
        screen.put("看点", x: 0, y: 0)
        screen.put("x", x: 1, y: 0)
        #expect(screen.lines == [" x点"])
        screen.put("y", x: 2, y: 0)
        #expect(screen.lines == [" xy"])
        #expect(!screen[3, 0].isTrailing)
        var edge = Screen(width: 3, height: 1)
        edge[2, 0] = Screen.Cell(character: "看", style: .plain)
        #expect(edge.lines == ["  ?"])
    }
}
