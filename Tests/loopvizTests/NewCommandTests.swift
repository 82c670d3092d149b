import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// `loopviz new NAME [--from default]`: a lesson to start from, which `check --strict` passes, written only where
/// no file is.
@Suite("loopviz new")
struct NewCommandTests {
    /// A fresh empty folder, removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-new-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func read(_ name: String, in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("new NAME writes NAME.loop, titled NAME, which check --strict passes and fmt leaves as it is")
    func templatePassesCheckStrict() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try LoopvizProcess.run(["new", "my-lesson"], in: folder)
        #expect(made.status == 0)
        #expect(made.stdout == "wrote my-lesson.loop; check it with: loopviz check --strict my-lesson.loop\n")
        #expect(made.stderr == "")
        let text = try Self.read("my-lesson.loop", in: folder)
        #expect(text == LessonTemplate.text(title: "my-lesson"))
        #expect(text.contains("\nscenario \"my-lesson\"\n"))
        let check = try LoopvizProcess.run(["check", "--strict", "my-lesson.loop"], in: folder)
        #expect(check.status == 0)
        #expect(
            check.stdout == "PASS my-lesson.loop (7 expect lines in 2 sections, 2 claims of say lines, 85 events)\n")
        #expect(check.stderr == "")
        let fmt = try LoopvizProcess.run(["fmt", "--check", "my-lesson.loop"], in: folder)
        #expect(fmt.status == 0)
    }

    @Test(
        "the template's Try holds: without the wakeup at 350 ms, `work` runs only after the timer at 500 ms wakes the loop"
    )
    func templateTryHolds() throws {
        let text = LessonTemplate.text(title: "try")
        let without = text.replacingOccurrences(of: "  signal work\n  wakeup\n", with: "  signal work\n")
        #expect(without != text)
        let steps = { (source: String) throws -> [String] in
            let script = try ScenarioParser.parse(source, file: "try.loop")
            return ScenarioRunner.run(script.scenario).events.filter {
                $0.loop == "worker" && ($0.kind == .source0 || $0.kind == .timer)
            }.map { "\($0.time) \($0.kind) \($0.name ?? "")" }
        }
        #expect(
            try steps(text) == ["0.100 timer tick", "0.300 timer tick", "0.3500015 source0 work", "0.500 timer tick"])
        #expect(
            try steps(without) == [
                "0.100 timer tick", "0.300 timer tick", "0.500 timer tick", "0.5050015 source0 work",
            ])
    }

    @Test("a title with a quote or a backslash is escaped in the scenario line: the file still passes")
    func titleIsEscaped() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try LoopvizProcess.run(["new", #"a"b\c.loop"#], in: folder)
        #expect(made.status == 0)
        #expect(try Self.read(#"a"b\c.loop"#, in: folder).contains(#"scenario "a\"b\\c""#))
        let check = try LoopvizProcess.run(["check", "--strict", #"a"b\c.loop"#], in: folder)
        #expect(check.status == 0)
    }

    @Test("new NAME --from default writes the built-in lesson, which check --strict passes")
    func fromDefault() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try LoopvizProcess.run(["new", "built-in", "--from", "default"], in: folder)
        #expect(made.status == 0)
        #expect(try Self.read("built-in.loop", in: folder) == DefaultLesson.text + "\n")
        let check = try LoopvizProcess.run(["check", "--strict", "built-in.loop"], in: folder)
        #expect(check.status == 0)
        #expect(check.stdout.hasPrefix("PASS built-in.loop (13 claims of say lines"))
    }

    @Test("new never replaces a file (exit 2, the file as it was), nor writes through a link")
    func neverOverwrites() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("mine\n".utf8).write(to: folder.appendingPathComponent("taken.loop"))
        let again = try LoopvizProcess.run(["new", "taken"], in: folder)
        #expect(again.status == 2)
        #expect(again.stdout == "")
        #expect(again.stderr == "loopviz: error: taken.loop already exists; left as it is (give another NAME)\n")
        #expect(try Self.read("taken.loop", in: folder) == "mine\n")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.loop").path, withDestinationPath: "nowhere.loop")
        let link = try LoopvizProcess.run(["new", "link"], in: folder)
        #expect(link.status == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere.loop").path))
    }

    @Test("new without NAME, with two, or --from other than default is a usage error (exit 2) and writes nothing")
    func usage() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try LoopvizProcess.run(["new"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "loopviz: error: missing NAME\nSee 'loopviz new --help'.\n")
        let two = try LoopvizProcess.run(["new", "a", "b"], in: folder)
        #expect(two.status == 2)
        #expect(two.stderr == "loopviz: error: new takes one NAME\nSee 'loopviz new --help'.\n")
        let from = try LoopvizProcess.run(["new", "a", "--from", "05-while-not-flag-fix"], in: folder)
        #expect(from.status == 2)
        #expect(
            from.stderr
                == "loopviz: error: '05-while-not-flag-fix' is not a valid value for --from; expected: default\n"
                + "See 'loopviz new --help'.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("new --help and lsp --help print their help (exit 0)")
    func help() throws {
        let new = try LoopvizProcess.run(["new", "--help"])
        #expect(new.status == 0)
        #expect(new.stdout == NewCommand.help.text(options: NewCommand.options) + "\n")
        #expect(new.stdout.contains("\n  --from default          Write the built-in lesson"))
        let lsp = try LoopvizProcess.run(["lsp", "--help"])
        #expect(lsp.status == 0)
        #expect(lsp.stdout == LspCommand.help.text(options: LspCommand.options) + "\n")
        #expect(lsp.stdout.contains("\n  --stdio                 Accepted and ignored"))
    }

    @Test("a folder that cannot be written: exit 4, the reason named, nothing left")
    func unwritableFolder() throws {
        let result = try LoopvizProcess.run(["new", "no-such-folder/lesson"])
        #expect(result.status == 4)
        #expect(
            result.stderr == "loopviz: error: cannot create no-such-folder/lesson.loop: No such file or directory\n")
    }
}
