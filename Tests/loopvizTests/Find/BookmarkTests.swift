import Foundation
import SnapshotSupport
import Testing

@testable import loopviz

#if canImport(Glibc)
import Glibc
#endif

/// `B`, `'`, `"`, `;` and `M`: marks and notes on steps, kept in a file beside the lesson.
@Suite("bookmarks and notes")
struct BookmarkTests {
    static func model(width: Int = 80, height: Int = 24) -> AppModel {
        var model = UpdateTests.model(width: width, height: height)
        model.isPaused = true
        model.fileName = "lesson.loop"
        model.bookmarksPath = "lesson.loop.marks"
        return model
    }

    static func go(to step: Int, _ model: inout AppModel) {
        _ = UpdateTests.press(.character("g"), on: &model)
        for character in String(step) { _ = updateInline(&model, .key(.character(character))) }
        _ = UpdateTests.press(.enter, on: &model)
    }

    @Test("the file's text: a comment, then STEP or STEP note per line; read back the same")
    func fileText() {
        var marks = Bookmarks()
        marks.set(note: "the timer is late\nhere", at: 40)
        marks.set(note: "", at: 12)
        let text = marks.text(marking: "examples/14.loop")
        #expect(text == "# loopviz bookmarks of 14.loop: STEP [note], one per line\n12\n40 the timer is late here\n")
        #expect(Bookmarks(text: text) == marks)
        #expect(Bookmarks(text: "x\n-3 no\n0\n7 ok\n99999999999999999 too long\n") == Bookmarks(text: "7 ok\n"))
    }

    @Test("bounded: at most 1000 marks, notes of at most 200 characters")
    func bounds() {
        var marks = Bookmarks()
        var taken = 0
        for step in 1...Bookmarks.maximumCount where marks.set(note: "", at: step) { taken += 1 }
        #expect(taken == Bookmarks.maximumCount)
        let past = marks.set(note: "", at: 5000)
        let again = marks.set(note: "a note on a step already marked", at: 3)
        #expect(!past && again)
        marks.set(note: String(repeating: "n", count: 500), at: 4)
        #expect(marks.mark(at: 4)?.note.count == Bookmarks.maximumNoteLength)
    }

    @Test("B marks the step shown and asks to save the file; B again removes the mark")
    func toggle() {
        var model = Self.model()
        Self.go(to: 40, &model)
        let effects = UpdateTests.press(.character("B"), on: &model)
        #expect(model.flash == StatusMessage("step 40 bookmarked", detail: "' next, \" previous, M lists, ; a note"))
        #expect(
            effects == [
                .saveBookmarks(
                    path: "lesson.loop.marks",
                    text: "# loopviz bookmarks of lesson.loop: STEP [note], one per line\n40\n")
            ])
        let removed = UpdateTests.press(.character("B"), on: &model)
        #expect(model.flash == "bookmark at step 40 removed")
        #expect(
            removed == [
                .saveBookmarks(
                    path: "lesson.loop.marks", text: "# loopviz bookmarks of lesson.loop: STEP [note], one per line\n")
            ])
    }

    @Test("the built-in lesson has no file: its marks last for the session, nothing is saved")
    func builtIn() {
        var model = UpdateTests.model()
        model.isPaused = true
        _ = UpdateTests.press(.character("n"), on: &model)
        #expect(UpdateTests.press(.character("B"), on: &model).isEmpty)
        #expect(model.bookmarks.mark(at: 1) != nil)
    }

    @Test("' and \" go to the next and previous mark, and say when there is none")
    func jumps() {
        var model = Self.model()
        for step in [10, 30] {
            Self.go(to: step, &model)
            _ = UpdateTests.press(.character("B"), on: &model)
        }
        Self.go(to: 20, &model)
        _ = UpdateTests.press(.character("'"), on: &model)
        #expect(model.cursor == 30 && model.flash == "bookmark at step 30")
        _ = UpdateTests.press(.character("'"), on: &model)
        #expect(model.cursor == 30)
        #expect(model.flash == StatusMessage("no bookmark after step 30", detail: "B marks the step shown"))
        _ = UpdateTests.press(.character("\""), .character("\""), on: &model)
        #expect(model.cursor == 10)
    }

    @Test("; writes a note (Enter keeps it, Esc cancels); M lists the marks, Enter goes to one, B removes it")
    func notesAndList() {
        var model = Self.model()
        Self.go(to: 12, &model)
        _ = UpdateTests.press(.character(";"), on: &model)
        for character in "first sleep" { _ = updateInline(&model, .key(.character(character))) }
        #expect(model.overlay == .note("first sleep"))
        let effects = UpdateTests.press(.enter, on: &model)
        #expect(model.flash == "note on step 12 kept" && model.bookmarks.mark(at: 12)?.note == "first sleep")
        #expect(effects.count == 1)
        Self.go(to: 40, &model)
        _ = UpdateTests.press(.character(";"), .character("x"), .escape, on: &model)
        #expect(model.bookmarks.mark(at: 40) == nil && model.overlay == .none)
        _ = UpdateTests.press(.character("B"), .character("M"), on: &model)
        #expect(model.overlay == .bookmarks(1))
        _ = UpdateTests.press(.up, .enter, on: &model)
        #expect(model.cursor == 12 && model.flash == "bookmark at step 12: first sleep")
        _ = UpdateTests.press(.character("M"), .down, .character("B"), on: &model)
        #expect(model.bookmarks.marks.map(\.step) == [12] && model.overlay == .bookmarks(0))
        _ = UpdateTests.press(.escape, on: &model)
        #expect(model.overlay == .none)
    }

    @Test("M with no mark, and B at step 0, say what to do")
    func nothingYet() {
        var model = Self.model()
        _ = UpdateTests.press(.character("M"), on: &model)
        #expect(model.flash == "no bookmark yet: B marks the step shown, ; writes a note on it")
        _ = UpdateTests.press(.character("B"), on: &model)
        #expect(model.flash == "step 0 is before every event: n steps to one to mark it")
    }

    @Test("a save that fails says so in the status bar")
    func saveFailure() {
        var model = Self.model()
        _ = updateInline(&model, .bookmarksSaved(path: "lesson.loop.marks", problem: "not a regular file"))
        #expect(model.flash == StatusMessage("bookmarks not saved: lesson.loop.marks", detail: "not a regular file"))
    }

    @Test(
        "the log marks a bookmarked step with its note; the list and the note prompt", arguments: [(80, 24), (132, 43)])
    func screens(_ size: (Int, Int)) {
        var model = Self.model(width: size.0, height: size.1)
        Self.go(to: 14, &model)
        _ = UpdateTests.press(.character(";"), on: &model)
        for character in "the loop sleeps until the timer" { _ = updateInline(&model, .key(.character(character))) }
        _ = UpdateTests.press(.enter, on: &model)
        Self.go(to: 15, &model)
        _ = UpdateTests.press(.character("B"), on: &model)
        #expect(RenderTests.text(model).contains("(until timer tick at 0.600)  ⚑ the"))
        _ = UpdateTests.press(.character("M"), on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/bookmarks-\(size.0)x\(size.1)-list.screen", target: "loopvizTests")
        _ = UpdateTests.press(.escape, .character(";"), .character("w"), on: &model)
        Snapshot.assertMatches(
            RenderTests.text(model), "Screens/bookmarks-\(size.0)x\(size.1)-note.screen", target: "loopvizTests")
    }

    @Test("the file is written whole through a temporary file beside it, and read back; never onto a FIFO")
    func fileSafety() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-marks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/lesson.loop.marks"
        var marks = Bookmarks()
        marks.set(note: "here", at: 3)
        #expect(BookmarkFile.save(marks.text(marking: "lesson.loop"), to: path) == nil)
        #expect(BookmarkFile.read(path) == marks)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["lesson.loop.marks"])
        let fifo = folder.path + "/fifo.marks"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(BookmarkFile.save("1\n", to: fifo) == "not a regular file")
        #expect(BookmarkFile.read(fifo) == Bookmarks())
        #expect(
            BookmarkFile.save(String(repeating: "9", count: Bookmarks.maximumFileBytes + 1), to: path)
                == "larger than 256 KiB")
        #expect(BookmarkFile.read(path) == marks)
    }
}
