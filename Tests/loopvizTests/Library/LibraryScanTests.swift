import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// Reading the lessons a library lists: examples/ whole, the bounds (many files, huge files, a FIFO), hostile
/// names and contents, and the files the command line cannot make a playlist of.
@Suite("the lesson library reads folders and files, bounded")
struct LibraryScanTests {
    typealias F = LibraryFixture

    @Test("every lesson in examples/ shows in the picker with its title and a topic")
    func everyExampleListed() throws {
        let library = try LessonLibrary.scan([F.examples]).get()
        let files = try FileManager.default.contentsOfDirectory(atPath: F.examples).filter { $0.hasSuffix(".loop") }
        #expect(library.entries.map(\.fileName) == files.sorted())
        var model = UpdateTests.model(width: 132, height: 43)
        model.library = library
        for (index, entry) in library.entries.enumerated() {
            let script = try ScenarioParser.parse(
                String(contentsOfFile: entry.path, encoding: .utf8), file: entry.path)
            #expect(entry.problem == nil, "\(entry.fileName): \(entry.problem ?? "")")
            #expect(entry.title == script.scenario.name, "\(entry.fileName)")
            #expect(entry.teaches?.isEmpty == false, "\(entry.fileName) teaches nothing")
            #expect(!entry.topics.isEmpty, "\(entry.fileName) has no topic")
            #expect(entry.number == String(entry.fileName.prefix(2)))
            // Found by its number, it is drawn with its title and its topics.
            model.overlay = .picker(LessonPicker(filter: entry.number, typing: false, row: 0))
            #expect(library.matching(entry.number) == [index])
            let text = RenderTests.text(model)
            #expect(text.contains(entry.title), "\(entry.fileName): title not on screen")
            #expect(text.contains(entry.topics.joined(separator: ", ")), "\(entry.fileName): topics not on screen")
        }
    }

    @Test("under --lang zh the picker says what a translated lesson teaches in Chinese, the others in English")
    func chineseLine() throws {
        let library = try LessonLibrary.scan([F.examples]).get()
        var model = UpdateTests.model(width: 132, height: 43)
        model.library = library
        model.language = .zh
        for entry in library.entries {
            let script = try ScenarioParser.parse(
                String(contentsOfFile: entry.path, encoding: .utf8), file: entry.path)
            let chinese = LessonCardParts(script.card, language: .zh).teaches
            #expect(entry.teaches(in: .zh) == chinese, "\(entry.fileName)")
            #expect(entry.teaches(in: .en) == entry.teaches, "\(entry.fileName)")
        }
        let first = try #require(library.entries.first { $0.number == "01" })
        let chinese = try #require(first.translatedTeaches[.zh])
        #expect(chinese != first.teaches)
        model.overlay = .picker(LessonPicker(filter: "01", typing: false, row: 0))
        let text = RenderTests.text(model)
        #expect(text.contains(String(chinese.prefix(8))), "the Chinese line is not on screen")
        #expect(!text.contains(String((first.teaches ?? "").prefix(30))), "the English line is still on screen")
    }

    @Test("a folder with more lessons than the cap lists the first ones and says so")
    func manyFiles() throws {
        let folder = try F.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = LessonLibrary.maximumLessons + 50
        for index in 0..<count {
            let name = String(format: "%04d-l.loop", index)
            try Data("scenario \"L\(index)\"\nthread T\n  run default for 1ms\n".utf8).write(
                to: folder.appendingPathComponent(name))
        }
        try Data("not a lesson".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let library = try LessonLibrary.scan([folder.path]).get()
        #expect(library.entries.count == LessonLibrary.maximumLessons)
        #expect(library.entries.first?.title == "L0" && library.entries.last?.fileName == "0999-l.loop")
        #expect(library.note == "the first 1000 of 1050 lessons are listed")
    }

    @Test("a playlist reads at most 2 MiB for the picker: the lessons after it are listed by their file names")
    func byteBudget() throws {
        let folder = try F.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let padding = String(repeating: "# padding, a comment line of sixty bytes or so, to be read\n", count: 1000)
        let lesson = "scenario \"Padded\"\nthread T\n  run default for 1ms\n" + padding
        #expect(lesson.utf8.count > 59_000 && lesson.utf8.count < LessonLibrary.maximumListedFileSize)
        for index in 0..<50 {
            try Data(lesson.utf8).write(to: folder.appendingPathComponent(String(format: "%02d-padded.loop", index)))
        }
        let library = try LessonLibrary.scan([folder.path]).get()
        let read = (LessonLibrary.maximumListedBytes + lesson.utf8.count - 1) / lesson.utf8.count
        #expect(library.entries.prefix(read).allSatisfy { $0.title == "Padded" })
        #expect(library.entries.dropFirst(read).allSatisfy { $0.title == $0.fileName && $0.problem == nil })
        #expect(library.note == "the last \(50 - read) lessons are listed by file name (the first 2 MiB were read)")
        // One of them still opens.
        guard case .success(let opened) = LessonOpening.load(library.request(49)).result else {
            Issue.record("the last lesson did not open")
            return
        }
        #expect(opened.entry.title == "Padded")
    }

    @Test(
        "a huge file, a FIFO and a file that does not parse are listed with why they cannot open, without reading them whole"
    )
    func hugeAndOddFiles() throws {
        let folder = try F.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appendingPathComponent("01-huge.loop")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(mkfifo(folder.appendingPathComponent("02-fifo.loop").path, 0o600) == 0)
        try Data("scenario \"x\"\nthread T\n  bogus 1\n".utf8).write(
            to: folder.appendingPathComponent("03-broken.loop"))
        let library = try LessonLibrary.scan([folder.path]).get()
        #expect(
            library.entries.map(\.problem) == [
                "larger than 64 KiB, not a lesson", "cannot be read", "does not parse (1 error, first at 3:3)",
            ])
        #expect(library.entries.map(\.title) == ["01-huge.loop", "02-fifo.loop", "03-broken.loop"])
        // Opening them says the same in the app, with the diagnostics' file:line:column.
        let opened = library.entries.indices.map { LessonOpening.load(library.request($0)).result }
        guard case .failure(let tooLarge) = opened[0], case .failure(let fifo) = opened[1],
            case .failure(let broken) = opened[2]
        else {
            Issue.record("a lesson opened: \(opened)")
            return
        }
        #expect(tooLarge.lines == ["\(huge.path): larger than 4 MiB, not a scenario file"])
        #expect(fifo.lines == ["\(folder.path)/02-fifo.loop: not a regular file"])
        #expect(broken.lines.first?.hasPrefix("\(folder.path)/03-broken.loop:3:3: error:") == true)
    }

    @Test("a hostile file name and contents reach the picker and the summary as visible escapes")
    func hostileText() throws {
        let folder = try F.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(HostileLesson.loop.utf8).write(to: folder.appendingPathComponent(HostileLesson.fileName))
        try Data(HostileLesson.broken.utf8).write(to: folder.appendingPathComponent("broken-" + HostileLesson.fileName))
        var model = UpdateTests.model(width: 132, height: 43)
        model.library = try LessonLibrary.scan([folder.path]).get()
        #expect(model.library.entries.count == 2)
        _ = F.press(.character("L"), on: &model)
        let picker = RenderTests.text(model)
        #expect(!HostileLesson.hasUnsafe(picker), "\(HostileLesson.unsafe(picker))")
        #expect(picker.contains("Loop \\e]0;PWNED\\u{7}"))
        // The files sort as broken-evil…, then evil…: the diagnostics, then the summary.
        for index in 0..<2 {
            var opened = model
            _ = updateInline(&opened, .lessonOpened(LessonOpening.load(opened.library.request(index))))
            // A lesson opens on its card: a key closes it.
            #expect(opened.overlay == (index == 0 ? .none : .card))
            _ = F.press(.escape, on: &opened)
            SummaryUpdateTests.atEnd(&opened)
            let text = RenderTests.text(opened)
            #expect(!HostileLesson.hasUnsafe(text), "\(HostileLesson.unsafe(text))")
            #expect(
                text.contains(
                    index == 0 ? "broken-\(HostileLesson.shownFileName)" : "End of the lesson: Loop \\e]0;PWNED"))
        }
    }

    @Test("a path that does not exist, or a folder without a lesson, makes no playlist")
    func scanErrors() throws {
        let folder = try F.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(
            LessonLibrary.scan([folder.path + "/nope"])
                == .failure(.init(message: "\(folder.path)/nope: no such file or folder")))
        #expect(
            LessonLibrary.scan([folder.path])
                == .failure(.init(message: "\(folder.path): a folder with no .loop lesson")))
    }

    @Test("one FILE goes through its folder's lessons, at the file as it was named")
    func aroundAFile() throws {
        let path = F.examples + "/07-source0-needs-a-wakeup.loop"
        let library = LessonLibrary.around(path)
        let current = try #require(library.current)
        #expect(library.entries[current].path == path && library.entries[current].number == "07")
        #expect(library.entries.count == (try LessonLibrary.scan([F.examples]).get()).entries.count)
        // A file in no folder it can list is a library of one.
        let alone = LessonLibrary.around("no-such-folder/x.loop")
        #expect(alone.entries.map(\.path) == ["no-such-folder/x.loop"] && alone.current == 0)
    }

    @Test(
        "loopviz screen FOLDER prints the picker; a folder without lessons and --clock real with a playlist are usage errors"
    )
    func commandLine() throws {
        let shown = try LoopvizProcess.run(["screen", F.examples, "--size", "80x24"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("Lessons (↑↓ Enter opens, / filters, Esc closes)"))
        #expect(shown.stdout.contains("01  A run with nothing in the mode exits at once  (open)"))
        let empty = try LoopvizProcess.run(["screen", "."], files: ["notes.txt": "x"])
        #expect(empty.status == 2 && empty.stderr.contains("a folder with no .loop lesson"))
        let real = try LoopvizProcess.run(
            ["--clock", "real", "a.loop", "b.loop"], files: ["a.loop": F.plain, "b.loop": F.plain])
        #expect(real.status == 2 && real.stderr.contains("--clock real runs one FILE"))
    }
}
