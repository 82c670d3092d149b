import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// The timeline's hang marks: a recording's lane shows its hang, and the Why pane names it while the step is in it.
@Suite("the timeline marks hangs")
struct TimelineHangsTests {
    /// The demo recording at `step`, 100×30, paused.
    static func demo(step: Int, unicode: Bool = true) throws -> AppModel {
        guard case .success(var model) = UICommand.loadModel(RecordingTests.fixture.path) else {
            throw FixtureError()
        }
        _ = updateInline(&model, .resize(width: 100, height: 30))
        model.theme = .init(color: true, unicode: unicode)
        model.isPaused = true
        model.cursor = step
        model.furthest = step
        return model
    }

    struct FixtureError: Error {}

    /// The main thread's lane: the timeline's first row, without its label.
    static func lane(_ model: AppModel) -> String {
        let line = render(model).lines[Layout(width: 100, height: 30, threads: 1).timeline.y + 1]
        #expect(line.hasPrefix("main      "))
        return String(line.dropFirst(10)).replacingOccurrences(of: " +$", with: "", options: .regularExpression)
    }

    @Test("a recording's lane: asleep between its ticks, the hang marked from its afterWaiting to the step shown")
    func lane() throws {
        // 25 ms a column: the observer's o at 11, 61, 111, 131, 161 and 214 ms; step 35 shows the events before the
        // hang's afterWaiting (event 35, 261 ms, column 10); step 36 shows it.
        #expect(Self.lane(try Self.demo(step: 35)) == "o┄o┄ooo┄o")
        #expect(Self.lane(try Self.demo(step: 36)) == "o┄o┄ooo┄o┄▓")
        #expect(Self.lane(try Self.demo(step: 42)) == "o┄o┄ooo┄o┄▓▓▓▓▓▓▓▓▓▓▓▓▓")
        // The beforeWaiting observer is the hang's last event: its mark stays, in the hang's style.
        let end = try Self.demo(step: 43)
        #expect(Self.lane(end) == "o┄o┄ooo┄o┄▓▓▓▓▓▓▓▓▓▓▓▓o")
        let y = Layout(width: 100, height: 30, threads: 1).timeline.y + 1
        let glyphs = Glyphs(theme: end.theme)
        #expect((20...32).map { render(end)[$0, y].style } == Array(repeating: glyphs.warning, count: 13))
        #expect(render(end)[19, y].style == glyphs.sleeping)
        // After it the lane sleeps and wakes for each tick again; the hang stays where it was.
        #expect(Self.lane(try Self.demo(step: 60)) == "o┄o┄ooo┄o┄▓▓▓▓▓▓▓▓▓▓▓▓o┄o┄o┄┄")
        #expect(Self.lane(try Self.demo(step: 42, unicode: false)) == "o_o_ooo_o_!!!!!!!!!!!!!")
    }

    @Test("the Why pane names the hang while the step is inside it, and only then")
    func why() throws {
        let words = "hang 0.300s (afterWaiting → beforeWaiting), marks: tick 5, decode image (the deliberate hang). "
        for step in [35, 44] {
            #expect(hangWords(try Self.demo(step: step), explaining: step - 1) == "", "step \(step)")
        }
        for step in 36...43 {
            #expect(hangWords(try Self.demo(step: step), explaining: step - 1) == words, "step \(step)")
        }
        let ascii = try Self.demo(step: 40, unicode: false)
        #expect(hangWords(ascii, explaining: 39) == words.replacingOccurrences(of: "→", with: "->"))
    }

    /// A recording of one 0.400 s hang with two stack samples whose top frame lies in `HangsCommand.run` of this
    /// package's loopviz binary (a module placed at a made-up base), as its event lines, and that function's name.
    struct StackedHang {
        /// The event lines, each with its newline: after the header, the wake, the module, two samples, the sleep.
        var lines: [String]
        var hottestName: String

        init() throws {
            let binary = LoopvizProcess.executable.path
            let table = ELFSymbolTable(path: binary)
            let run = try #require(
                table.functions.first {
                    StackSymbolizer.demangled(table.name($0)).hasPrefix("static loopviz.HangsCommand.run(")
                })
            let base: Int64 = 0x5500_0000_0000
            func line(_ t: String, _ kind: String, _ rest: String = #""name":null,"detail":null"#) -> String {
                #"{"t":\#(t),"thread":"main","depth":1,"mode":"default","iteration":1,"kind":"\#(kind)",\#(rest)}"#
                    + "\n"
            }
            let top = base + Int64(run.start) + 4
            let stack = #""name":"stack","detail":"a stack sample of 1 frame","fact":["stack",\#(top)]"#
            let module =
                #""name":"\#(binary)","detail":"a loaded object","fact":["module",\#(base),\#(base),\#(base + 0x1000_0000)]"#
            lines = [
                line("1.000", "afterWaiting"), line("1.010", "note", module), line("1.010", "note", stack),
                line("1.020", "note", stack), line("1.400", "beforeTimers"), line("1.400", "beforeSources"),
                line("1.400", "beforeWaiting"),
                line("1.400", "observer", #""name":"LoopRecorder","detail":"beforeWaiting","fact":["activity",32]"#),
            ]
            hottestName = StackSymbolizer.demangled(table.name(run))
        }

        /// What the Why pane says at the hang's fifth event.
        var words: String {
            "hang 0.400s (afterWaiting → beforeWaiting), no marks, hottest frame: \(hottestName) in loopviz (2 of 2 "
                + "stack samples). "
        }
    }

    @Test("a recording with stack samples: the Why pane adds the hang's hottest frame, named from the binary")
    func hottestFrame() throws {
        let hang = try StackedHang()
        let text =
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":8}"# + "\n"
            + hang.lines.joined()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-stacks-\(UUID()).jsonl")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        guard case .success(var model) = UICommand.loadModel(url.path) else { throw FixtureError() }
        _ = updateInline(&model, .resize(width: 100, height: 30))
        model.isPaused = true
        model.cursor = 5
        model.furthest = 5
        #expect(hangWords(model, explaining: 4) == hang.words)
    }

    @Test("a followed recording with stack samples: the hottest frame is named as the file is read, look by look")
    func hottestFrameWhileFollowing() throws {
        let hang = try StackedHang()
        let header =
            #"{"format":"loopviz-trace","version":1,"scenario":"s","clock":"real","events":null,"#
            + #""recording":{"process":"p","pid":1,"thread":"main"}}"# + "\n"
        // The first look reads the wake, the module and one sample; the second the rest.
        let first = header + hang.lines[..<3].joined()
        let second = hang.lines[3...].joined()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("follow-stacks-\(UUID()).jsonl").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(first.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let feed = try FollowFeed(path: path)
        var model = FollowFixture.model(width: 100)
        guard case .followed(let firstBatch) = feed.take() else { throw FixtureError() }
        #expect(firstBatch.frames.count == 1)
        try takeFollowed(firstBatch, &model)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(second.utf8))
        try handle.close()
        guard case .followed(let secondBatch) = feed.take() else { throw FixtureError() }
        // The same frame again: named once, in the first look.
        #expect(secondBatch.frames.isEmpty)
        try takeFollowed(secondBatch, &model)
        model.isPaused = true
        model.cursor = 5
        #expect(hangWords(model, explaining: 4) == hang.words)
    }

    static func event(_ ms: Int, _ kind: LoopEvent.Kind, loop: String = "T", name: String? = nil) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(ms), loop: loop, depth: 1, mode: "default", iteration: 1, kind: kind,
            name: name, fact: name.map { _ in .mark(.point) })
    }

    @Test("only segments at the threshold are hangs; a step is in one between its first and last event, per thread")
    func lookups() {
        var events = [Self.event(0, .afterWaiting), Self.event(249, .beforeWaiting)]  // 249 ms: not a hang
        events += [Self.event(300, .afterWaiting), Self.event(300, .afterWaiting, loop: "U")]
        events += (0..<8).map { Self.event(301 + $0, .note, name: "mark \($0 % 7)") }
        events += [Self.event(550, .beforeWaiting), Self.event(320, .timer, loop: "U"), Self.event(600, .afterWaiting)]
        let hangs = TimelineHangs(events)
        #expect(hangs.byLoop.keys.sorted() == ["T"])
        #expect(hangs.byLoop["T"]?.map { [$0.startIndex, $0.endIndex] } == [[2, 12]])
        #expect(
            [1, 2, 4, 12, 13, 14].map { hangs.hang(containing: $0, on: "T") != nil } == [
                false, true, true, true, false, false,
            ])
        #expect(hangs.hang(containing: 3, on: "U") == nil)
        #expect(hangs.hangs(on: "T", from: .zero + .milliseconds(551), to: .zero + .seconds(1)).isEmpty)
        #expect(hangs.hangs(on: "T", from: .zero + .milliseconds(550), to: .zero + .milliseconds(550)).count == 1)
        #expect(hangs.hangs(on: "T", from: .zero, to: .zero + .milliseconds(299)).isEmpty)
        // Seven names, each once: the first five and "more".
        #expect(
            hangs.byLoop["T"]?.first?.words(arrow: "->")
                == "hang 0.250s (afterWaiting -> beforeWaiting), marks: mark 0, mark 1, mark 2, mark 3, mark 4, more")
    }
}
