import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// `--record`: the cast is asciicast v2 (a header object, then `[time, "o", data]` lines), kept whole, bounded.
@Suite("--record writes an asciicast v2 file")
struct AsciicastTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-\(UUID().uuidString)-\(name)").path
    }

    /// A recorder whose clock advances by `step` seconds at every reading.
    static func recorder(_ path: String, limit: Int = AsciicastRecorder.defaultLimit) throws -> AsciicastRecorder {
        var now = 100.0
        return try AsciicastRecorder(
            path: path, title: "loopviz t.loop", environment: [("TERM", "xterm-256color"), ("SHELL", "/bin/sh")],
            timestamp: 1_700_000_000, limit: limit,
            clock: {
                now += 0.5
                return now
            })
    }

    static func frames(_ count: Int, width: Int = 80, height: Int = 24) -> [Screen] {
        var model = UpdateTests.model(width: width, height: height)
        model.isPaused = true
        return (0..<count).map { _ in
            _ = updateInline(&model, .key(.character("n")))
            return render(model)
        }
    }

    @Test("the header and every event line parse as asciicast v2; the file appears only when the session ends")
    func headerAndEvents() throws {
        let path = Self.temporaryPath("a.cast")
        let recorder = try Self.recorder(path)
        for screen in Self.frames(3) { recorder.record(screen) }
        recorder.record(Self.frames(1, width: 100, height: 30)[0])
        #expect(!FileManager.default.fileExists(atPath: path))
        let temporary = try #require(recorder.temporaryPath)
        #expect(FileManager.default.fileExists(atPath: temporary))
        let outcome = recorder.finish()
        #expect(
            !outcome.failed && outcome.message.hasPrefix("loopviz: recorded 4 frames, ")
                && outcome.message.hasSuffix("play it with: asciinema play \(path)"))
        #expect(!FileManager.default.fileExists(atPath: temporary))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(header["timestamp"] as? Int == 1_700_000_000 && header["title"] as? String == "loopviz t.loop")
        #expect(header["env"] as? [String: String] == ["TERM": "xterm-256color", "SHELL": "/bin/sh"])
        let events = try lines.dropFirst().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
        }
        #expect(events.map { $0[1] as? String } == ["o", "o", "o", "r", "o"])
        #expect(events.map { ($0[0] as? Double) ?? -1 } == [0, 0.5, 1, 1.5, 1.5])
        #expect(events[3][2] as? String == "100x30")
        // The first frame clears the screen and draws the title bar; the next ones only what changed.
        let first = try #require(events[0][2] as? String)
        #expect(
            first.hasPrefix("\u{1B}[?25l\u{1B}[0m\u{1B}[2J\u{1B}[1;1H\u{1B}[0;7m loopviz  One turn of the run loop"))
        let second = try #require(events[1][2] as? String)
        // `step 1/…` became `step 2/…`: the cell of the digit, among the few that changed.
        #expect(second.count < first.count / 4 && second.contains("2"))
    }

    @Test("the bytes of a frame redraw exactly the screen (a terminal replaying them shows the same cells)")
    func framesReplay() {
        let screens = Self.frames(2)
        // A minimal terminal: cursor moves and characters (styles ignored).
        var grid = Array(repeating: Array(repeating: Character(" "), count: 80), count: 24)
        for (index, screen) in screens.enumerated() {
            let bytes = Array(screen.ansi(from: index == 0 ? nil : screens[index - 1]))
            var x = 0
            var y = 0
            var position = 0
            while position < bytes.count {
                if bytes[position] == "\u{1B}" {
                    var end = position + 2
                    while end < bytes.count && !(bytes[end].isLetter) { end += 1 }
                    let body = String(bytes[(position + 2)..<end])
                    if bytes[end] == "H" {
                        let parts = body.split(separator: ";").compactMap { Int($0) }
                        y = parts[0] - 1
                        x = parts[1] - 1
                    } else if bytes[end] == "J" {
                        grid = Array(repeating: Array(repeating: " ", count: 80), count: 24)
                    }
                    position = end + 1
                    continue
                }
                grid[y][x] = bytes[position]
                x += 1
                position += 1
            }
            var expected = screen.lines
            // The bottom-right cell is never written.
            let last = Array(expected[23].padding(toLength: 80, withPad: " ", startingAt: 0))
            expected[23] = String(last.dropLast()) + " "
            let shown = grid.map { line -> String in
                var text = String(line)
                while text.last == " " { text.removeLast() }
                return text
            }
            #expect(
                shown
                    == expected.map { line in
                        var text = line
                        while text.last == " " { text.removeLast() }
                        return text
                    })
        }
    }

    @Test("past its size limit the cast stops taking frames, says so once, and stays a valid file")
    func sizeLimit() throws {
        let path = Self.temporaryPath("b.cast")
        let recorder = try Self.recorder(path, limit: 4096)
        var messages: [String] = []
        for screen in Self.frames(6) { if let message = recorder.record(screen) { messages.append(message) } }
        #expect(messages == ["recording stopped at its size limit (0 MiB); \(path) keeps the session until now"])
        #expect(recorder.stoppedAtLimit && recorder.bytes <= 4096)
        #expect(recorder.finish().message.contains("(stopped at the size limit)"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.utf8.count <= 4096 && text.hasSuffix("\n"))
        for line in text.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
        }
    }

    @Test("a path that cannot be written is refused before the UI starts")
    func unwritable() {
        #expect(throws: AsciicastRecorder.Failure.self) {
            _ = try Self.recorder("/nonexistent-directory/x.cast")
        }
        let directory = FileManager.default.temporaryDirectory.path
        let error = #expect(throws: AsciicastRecorder.Failure.self) { _ = try Self.recorder(directory) }
        #expect(error?.description == "loopviz: error: cannot write \(directory): is a directory")
    }

    @Test("JSON strings escape quotes, backslashes, ESC and other controls; times have six decimals")
    func escaping() {
        #expect(AsciicastRecorder.quoted("a\"b\\c\u{1B}[0m\n\u{7F}é") == "\"a\\\"b\\\\c\\u001b[0m\\n\\u007fé\"")
        #expect(AsciicastRecorder.seconds(0) == "0.000000" && AsciicastRecorder.seconds(12.3456789) == "12.345679")
    }
}
