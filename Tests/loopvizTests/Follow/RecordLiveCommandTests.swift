import Foundation
import Testing

/// `loopviz record --live`: what the command line refuses before any program is started or file written.
@Suite("record --live: the command line")
struct RecordLiveCommandTests {
    @Test("--live without a terminal refuses, exit 2: no program started, no file written")
    func noTerminal() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LoopvizProcess.run(
            ["record", "--live", "-o", "out.jsonl", "--", "/bin/touch", "started"], in: folder)
        #expect(result.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(
            result.stderr
                == "loopviz: error: record --live shows the recording in the UI: standard input and output must be a terminal (record without --live records with no UI)\n"
        )
    }

    @Test(
        "the UI's look goes with --live only, exit 2",
        arguments: [["--no-color"], ["--ascii"], ["--theme", "light"], ["--reduce-motion"]])
    func lookNeedsLive(option: [String]) throws {
        let result = try LoopvizProcess.run(["record"] + option + ["-o", "out.jsonl", "--", "/bin/true"])
        #expect(result.status == 2)
        #expect(result.stderr == "loopviz: error: \(option[0]) goes with --live\nSee 'loopviz record --help'.\n")
    }

    @Test("--live takes no value, exit 2")
    func liveTakesNoValue() throws {
        let result = try LoopvizProcess.run(["record", "--live=yes", "-o", "out.jsonl", "--", "/bin/true"])
        #expect(result.status == 2)
        #expect(result.stderr == "loopviz: error: option '--live' takes no value\nSee 'loopviz record --help'.\n")
    }

    @Test("record --help explains --live: what it follows, the program's terminal, and quitting")
    func help() throws {
        let result = try LoopvizProcess.run(["record", "--help"])
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                """
                With --live, the UI follows the recording while the program writes it (FILE.jsonl must be a
                regular file or a new one), and the file is renamed into place as soon as the program ends. The
                program runs in a process group of its own, its input and output on /dev/null.
                """))
        #expect(
            result.stdout.contains(
                "  --live                  Show the recording in the UI as it is written (as --follow does), read-only.\n"
                    + "                          Quitting while the program runs sends it SIGTERM (SIGKILL 5 s later); the\n"
            ))
    }
}
