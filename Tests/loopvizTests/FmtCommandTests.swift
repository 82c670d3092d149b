import Foundation
import Testing

/// `loopviz fmt`: rewrites files in place with the canonical layout; `--check` lists the files that would change
/// (exit 1) and changes none; a file that does not parse is reported with file:line:column (exit 2), untouched.
@Suite("loopviz fmt")
struct FmtCommandTests {
    static let messy = "scenario   \"fmt\"\nthread T\n    work 1ms   # busy\n\n\n    run default for 10ms\n"
    static let tidy = "scenario \"fmt\"\nthread T\n  work 1ms # busy\n\n  run default for 10ms\n"

    /// A fresh folder holding `files`, removed by the caller.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loopviz-fmt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    static func read(_ name: String, in folder: URL) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("fmt --check lists the files that would change (exit 1) and changes none; 0 once they are formatted")
    func checkListsFilesThatWouldChange() throws {
        let folder = try Self.folder(["messy.loop": Self.messy, "tidy.loop": Self.tidy])
        defer { try? FileManager.default.removeItem(at: folder) }
        let check = try LoopvizProcess.run(["fmt", "--check", "messy.loop", "tidy.loop"], in: folder)
        #expect(check.status == 1)
        #expect(check.stdout == "messy.loop\n")
        #expect(check.stderr == "")
        #expect(try Self.read("messy.loop", in: folder) == Self.messy)
        let clean = try LoopvizProcess.run(["fmt", "--check", "tidy.loop"], in: folder)
        #expect(clean.status == 0)
        #expect(clean.stdout == "")
    }

    @Test(
        "fmt rewrites a file with the canonical layout (exit 0), leaves no temporary file, and a second fmt changes nothing"
    )
    func fmtRewritesInPlace() throws {
        let folder = try Self.folder(["messy.loop": Self.messy, "tidy.loop": Self.tidy])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LoopvizProcess.run(["fmt", "messy.loop", "tidy.loop"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout == "formatted messy.loop\n")
        #expect(try Self.read("messy.loop", in: folder) == Self.tidy)
        #expect(try Self.read("tidy.loop", in: folder) == Self.tidy)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["messy.loop", "tidy.loop"])
        let again = try LoopvizProcess.run(["fmt", "--check", "messy.loop", "tidy.loop"], in: folder)
        #expect(again.status == 0)
    }

    @Test("fmt leaves a file with other hard links as it is (exit 4): a rewrite would split them")
    func hardLinksAreKept() throws {
        let folder = try Self.folder(["messy.loop": Self.messy])
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.linkItem(
            at: folder.appendingPathComponent("messy.loop"), to: folder.appendingPathComponent("other.loop"))
        let result = try LoopvizProcess.run(["fmt", "messy.loop"], in: folder)
        #expect(result.status == 4)
        #expect(
            result.stderr
                == "loopviz: error: messy.loop has 2 hard links, which a rewrite would split; left as it is\n")
        #expect(try Self.read("messy.loop", in: folder) == Self.messy)
        #expect(try Self.read("other.loop", in: folder) == Self.messy)
    }

    @Test("fmt reports a file that does not parse with file:line:column (exit 2) and leaves it as it was")
    func invalidInput() throws {
        let broken = "thread T\n  run   default\n"
        let folder = try Self.folder(["broken.loop": broken, "messy.loop": Self.messy])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LoopvizProcess.run(["fmt", "broken.loop", "messy.loop"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("broken.loop:2:"))
        #expect(result.stderr.contains(": error: "))
        #expect(try Self.read("broken.loop", in: folder) == broken)
        #expect(try Self.read("messy.loop", in: folder) == Self.tidy)
        let missing = try LoopvizProcess.run(["fmt", "nowhere.loop"], in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr == "loopviz: error: nowhere.loop: cannot read\n")
        let usage = try LoopvizProcess.run(["fmt"], in: folder)
        #expect(usage.status == 2)
    }
}

extension FmtCommandTests {
    @Test("fmt has its own help with its exit statuses, and loopviz --help lists it")
    func help() throws {
        let top = try LoopvizProcess.run(["--help"])
        #expect(top.stdout.contains("  fmt FILE...     Give .loop files the canonical layout"))
        let result = try LoopvizProcess.run(["fmt", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: loopviz fmt [--check] FILE..."))
        #expect(result.stdout.contains("  1    with --check: a file would change (each is listed on standard output)"))
    }
}
