import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// A long trace file is replayed a window at a time (`TraceIndex`): its lines are found without being read, a
/// window reads exactly the events a whole-file reader reads there, and the UI numbers, steps and jumps over the
/// file's events as if it held them all.
@Suite("a long trace file replayed a window at a time")
struct ReplayWindowTests {
    static func event(_ index: Int) -> LoopEvent {
        LoopEvent(
            time: .zero + .microseconds(index * 10), loop: index.isMultiple(of: 1000) ? "worker" : "main", depth: 1,
            mode: "default", iteration: index, kind: .beforeTimers)
    }

    /// A file of `count` events (iteration i at event i), written once per count for the whole suite.
    static func file(_ count: Int, _ name: String = #function, lines: [String]? = nil) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "loopviz-window-\(getpid())-\(name.filter(\.isLetter))-\(count).jsonl"
        ).path
        let text =
            lines.map { $0.joined(separator: "\n") }
            ?? JSONLTraceFormatter.format((0..<count).map(Self.event), scenario: "long", clock: .real)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("every window reads the events the whole-file reader reads, from any offset kept")
    func windowsMatchTheWholeFile() throws {
        let path = try Self.file(1_000)
        defer { unlink(path) }
        let whole = try JSONLTraceReader.read(Array(FileManager.default.contents(atPath: path)!), maximumEvents: 10_000)
        let index = try TraceIndex.build(path, maxEvents: 10_000, stride: 64)
        #expect(index.count == 1_000 && index.header == whole.header && index.warnings.isEmpty)
        for range in [0..<1, 0..<1_000, 63..<65, 64..<128, 500..<777, 999..<1_000, 990..<2_000] {
            let window = index.read(range)
            #expect(window.base == range.lowerBound && window.problem == nil)
            #expect(window.events == Array(whole.events[range.clamped(to: 0..<1_000)]), "\(range)")
        }
    }

    @Test("the pass refuses what the whole-file reader refuses, at the same line, and forgives what it forgives")
    func indexChecksWhatItSees() throws {
        let header = JSONLTraceFormatter.header(scenario: "s", clock: .real, count: 3)
        let lines = (0..<3).map { JSONLTraceFormatter.line(Self.event($0)) }
        let cases: [(String, [String], String)] = [
            ("budget", [header] + lines + [""], "4: more than 2 events (the event budget; the header promises 3)"),
            (
                "long", [header, lines[0], String(repeating: "x", count: 70_000), lines[2], ""],
                "3: longer than 65536 bytes"
            ),
            ("promise", [header, lines[0], lines[1], ""], "1: the header promises 3 events, the file has 2"),
        ]
        for (name, file, message) in cases {
            let path = try Self.file(3, name, lines: file)
            defer { unlink(path) }
            let bytes = Array(FileManager.default.contents(atPath: path)!)
            let maximum = name == "budget" ? 2 : 10
            #expect(throws: TraceIndex.Problem.invalid(try #require(Self.failure(bytes, maximum)))) {
                try TraceIndex.build(path, maxEvents: maximum)
            }
            #expect(Self.failure(bytes, maximum)?.description == message)
        }
        // A last line cut short: left out with a warning, as the stream reader leaves it.
        let path = try Self.file(3, "cut", lines: [header, lines[0], lines[1], lines[2], "{\"t\":0.1"])
        defer { unlink(path) }
        let index = try TraceIndex.build(path, maxEvents: 10)
        let whole = try JSONLTraceReader.read(Array(FileManager.default.contents(atPath: path)!), maximumEvents: 10)
        #expect(index.count == 3 && index.warnings == whole.warnings && !whole.warnings.isEmpty)
        #expect(index.read(0..<3).events == Array(whole.events))
    }

    static func failure(_ bytes: [UInt8], _ maximum: Int) -> JSONLTraceReader.Failure? {
        do {
            _ = try JSONLTraceReader.read(bytes, maximumEvents: maximum)
            return nil
        } catch { return error }
    }

    @Test("a window that meets a line that is not an event ends there, and says which line and why")
    func windowEndsAtABadLine() throws {
        let header = JSONLTraceFormatter.header(scenario: "s", clock: .real, count: 4)
        let lines = (0..<4).map { JSONLTraceFormatter.line(Self.event($0)) }
        let path = try Self.file(4, lines: [header, lines[0], lines[1], "{\"t\":", lines[3], ""])
        defer { unlink(path) }
        let index = try TraceIndex.build(path, maxEvents: 10)
        let window = index.read(0..<4)
        #expect(window.events == [Self.event(0), Self.event(1)].map { $0 })
        guard case .invalid(let failure) = window.problem else {
            Issue.record("no problem: \(String(describing: window.problem))")
            return
        }
        #expect(failure.line == 4)
        #expect(TraceIndex.describe(window.problem!, path: "f.jsonl").hasPrefix("f.jsonl:4:"))
    }

    /// The UI on a windowed replay of `count` events, at 80x24.
    static func model(_ path: String) throws -> AppModel {
        guard case .success(var model) = UICommand.loadModel(path, windowedFrom: 0) else {
            throw CocoaError(.fileReadUnknown)
        }
        _ = updateInline(&model, .resize(width: 80, height: 24))
        model.isPaused = true
        return model
    }

    /// The event of the file shown (the step's number, as the screen numbers it).
    static func shown(_ model: AppModel) -> Int { model.session.eventNumberOffset + model.cursor }

    @Test("it opens on the file's first window and numbers the file's events; g reads the window around a step")
    func jumpReadsTheWindowAround() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        #expect(model.session.replayIndex != nil)
        #expect(model.session.forgottenEvents == 0 && model.trace.count == Session.replayWindowEvents)
        #expect(render(model).lines[0].hasSuffix("step 0/80000"))
        for key in ["g", "7", "0", "0", "0", "0"] { _ = updateInline(&model, .key(.character(Character(key)))) }
        // The jump asks the runtime for the window; the inline runtime reads it at once.
        var asked = model
        let effects = update(&asked, .key(.enter))
        let size = Session.replayWindowEvents
        let range = min(70_000 - size / 2, 80_000 - size)..<min(70_000 - size / 2, 80_000 - size) + size
        #expect(effects == [.readReplayWindow(ReplayWindowRequest(index: model.session.replayIndex!, range: range))])
        _ = updateInline(&model, .key(.enter))
        #expect(Self.shown(model) == 70_000 && model.currentEvent?.iteration == 69_999)
        #expect(model.session.forgottenEvents == range.lowerBound)
        #expect(render(model).lines[0].hasSuffix("step 70000/80000"))
        #expect(render(model).lines.contains { $0.contains(" 70000 ") })
        // The window starts inside the run: its first event says how deep and in which mode.
        let main = try #require(model.session.snapshots(after: model.cursor).first { $0.thread == "main" })
        #expect(main.runs.map(\.mode) == ["default"] && main.state == "running")
    }

    @Test("steps, iterations and End cross from window to window as if the file were held whole")
    func stepsCrossWindows() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        // Forward past the first window's last event.
        model.cursor = model.trace.count
        _ = updateInline(&model, .key(.character("n")))
        #expect(Self.shown(model) == Session.replayWindowEvents + 1)
        #expect(model.currentEvent?.iteration == Session.replayWindowEvents)
        #expect(model.session.forgottenEvents > 0)
        // Back across the new window's first event.
        model.cursor = 1
        let first = Self.shown(model)
        _ = updateInline(&model, .key(.character("p")))
        #expect(Self.shown(model) == first - 1 && model.currentEvent?.iteration == first - 2)
        // The next iteration (every event here begins one) and End, the file's last event.
        _ = updateInline(&model, .key(.character("]")))
        #expect(Self.shown(model) == first)
        _ = updateInline(&model, .key(.end))
        #expect(Self.shown(model) == 80_000 && model.currentEvent?.iteration == 79_999)
        // Home-like: g 1 from the end reads the first window again.
        for key in ["g", "1"] { _ = updateInline(&model, .key(.character(Character(key)))) }
        _ = updateInline(&model, .key(.enter))
        #expect(Self.shown(model) == 1 && model.session.forgottenEvents == 0)
    }

    @Test("screen --step N of a windowed replay shows the file's event N")
    func screenShowsTheFilesStep() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        #expect(UICommand.show(step: 79_990, &model) == nil)
        #expect(Self.shown(model) == 79_990 && model.currentEvent?.iteration == 79_989)
        #expect(UICommand.show(step: 90_000, &model) == "but the replay has 80000 events: showing the last")
        #expect(Self.shown(model) == 80_000)
        #expect(UICommand.show(step: 5, &model) == nil)
        #expect(Self.shown(model) == 5 && model.session.forgottenEvents == 0)
    }

    @Test("the log's numbers line up when a window's cross a power of ten (9999999, 10000000)")
    func logNumbersLineUp() throws {
        let path = try Self.file(20)
        defer { unlink(path) }
        let index = try TraceIndex.build(path, maxEvents: 100)
        let window = TraceWindow(base: 9_999_990, events: index.read(0..<10).events, problem: nil)
        var model = AppModel(session: Session(replay: index, window: window), fileName: "long.jsonl")
        _ = updateInline(&model, .resize(width: 80, height: 24))
        model.cursor = model.trace.count
        let rows = render(model).lines.filter {
            $0.range(of: #"^ *[0-9]+ +[0-9.]+  "#, options: .regularExpression) != nil
        }
        #expect(rows.contains { $0.contains("9999999 ") } && rows.contains { $0.contains("10000000 ") })
        let columns = rows.map { row in row.firstIndex(of: ".").map { row.distance(from: row.startIndex, to: $0) } }
        #expect(Set(columns).count == 1)
    }

    static func type(_ text: String, _ model: inout AppModel) {
        for character in text { _ = updateInline(&model, .key(.character(character))) }
        _ = updateInline(&model, .key(.enter))
    }

    /// The lines of a file of `count` events whose event `bad` is a line cut in the middle of its JSON.
    static func lines(_ count: Int, badAt bad: Int) -> [String] {
        [JSONLTraceFormatter.header(scenario: "s", clock: .real, count: count)]
            + (0..<count).map { $0 == bad ? "{\"t\":" : JSONLTraceFormatter.line(Self.event($0)) } + [""]
    }

    @Test("a line that is not an event ends the replay for good once a window meets it, and the status bar says so")
    func badLineEndsTheReplay() throws {
        let path = try Self.file(40_000, lines: Self.lines(40_000, badAt: 30_000))
        defer { unlink(path) }
        var before = try Self.model(path)
        Self.type("g29000", &before)
        #expect(Self.shown(before) == 29_000)
        #expect(before.flash?.essential == "line 30002 of the file is not an event: the replay ends before it")
        var model = try Self.model(path)
        Self.type("g30500", &model)
        #expect(Self.shown(model) == 30_000 && model.session.replayEnd == 30_000)
        #expect(
            model.flash?.essential
                == "no event 30500: there are 30000 events before line 30002 of the file, which is not an event; showing the last"
        )
        #expect(model.flash?.detail == "\(path):30002:6: the line ends where a value should be")
        Self.type("g100", &model)
        #expect(Self.shown(model) == 100)
        Self.type("g39000", &model)
        #expect(Self.shown(model) == 30_000)
        #expect(
            model.flash?.essential
                == "no event 39000: there are 30000 events before line 30002 of the file, which is not an event; showing the last"
        )
        #expect(model.flash?.detail == "\(path):30002:6: the line ends where a value should be")
        model.flash = nil
        #expect(render(model).lines.last?.contains("t=0.300s  ends at bad line 30002") == true)
        #expect(UICommand.show(step: 35_000, &model) == "but the replay has 30000 events: showing the last")
    }

    @Test("bookmarks, the link and the go-to prompt name the file's step; going back resets real-time play")
    func marksAndLinksNameTheFilesStep() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        Self.type("g70000", &model)
        _ = updateInline(&model, .key(.character("B")))
        #expect(model.bookmarks.mark(at: 70_000) != nil && model.flash?.essential == "step 70000 bookmarked")
        #expect(model.link.step == 70_000)
        model.playClock = .zero + .seconds(1000)
        Self.type("g1", &model)
        #expect(Self.shown(model) == 1 && model.playClock == model.now)
        _ = updateInline(&model, .key(.character("'")))
        #expect(Self.shown(model) == 70_000 && model.currentEvent?.iteration == 69_999)
        _ = updateInline(&model, .key(.character("g")))
        #expect(render(model).lines.contains { $0.contains("go to event (1-80000)") })
        let link = DeepLink(path: "rec.jsonl", step: 5_000_000, maxEvents: 10_000_000)
        #expect(link.command == "loopviz rec.jsonl@5000000 --max-events 10000000")
    }

    @Test("a jump near an edge of the window held reads the window around it: the step has events on both sides")
    func jumpNearAnEdgeRecentres() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        Self.type("g70000", &model)
        let base = model.session.forgottenEvents
        Self.type("g\(base + 2)", &model)
        #expect(Self.shown(model) == base + 2)
        #expect(model.cursor >= Session.replayWindowEvents / 8 && model.session.forgottenEvents < base)
    }

    @Test("a file under 64 MiB of more events than a window is checked whole, then replayed a window at a time")
    func smallFileCheckedThenWindowed() throws {
        let path = try Self.file(20_000)
        defer { unlink(path) }
        guard case .success(var model) = UICommand.loadModel(path) else {
            Issue.record("not opened")
            return
        }
        #expect(model.session.replayIndex?.count == 20_000 && model.session.replayThreads == ["worker", "main"])
        #expect(UICommand.show(step: 19_999, &model) == nil && model.currentEvent?.iteration == 19_998)
        let bad = try Self.file(20_000, "bad", lines: Self.lines(20_000, badAt: 19_000))
        defer { unlink(bad) }
        guard case .failure(let status) = UICommand.loadModel(bad) else {
            Issue.record("a corrupt small file was opened")
            return
        }
        #expect(status == .usage)
    }

    @Test("0 fits the timeline to the events read, not to the file's start")
    func fitShowsTheWindow() throws {
        let path = try Self.file(80_000)
        defer { unlink(path) }
        var model = try Self.model(path)
        Self.type("g70000", &model)
        _ = updateInline(&model, .key(.character("0")))
        let window = model.timelineZoom.window(now: model.now, columns: model.timelineColumns)
        let first = model.trace[0].time.nanoseconds
        #expect(window.start <= first && first - window.start < first / 2)
        #expect(model.flash?.essential.hasPrefix("timeline: ") == true)
    }
}
