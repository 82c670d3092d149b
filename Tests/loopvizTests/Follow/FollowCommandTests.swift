import Foundation
import Testing

/// `loopviz --follow FILE.jsonl`: what the command line refuses before any terminal is asked for.
@Suite("following a file: the command line")
struct FollowCommandTests {
    @Test("--follow with another FILE is a usage error naming the FILE, exit 2")
    func anotherFile() throws {
        let result = try LoopvizProcess.run(["--follow", "a.jsonl", "b.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--follow FILE.jsonl opens that recording alone: b.jsonl is one FILE too many"))
    }

    @Test("--follow with --step is a usage error, exit 2", arguments: ["--step", "--clock"])
    func replayOptions(option: String) throws {
        let result = try LoopvizProcess.run(["--follow", "a.jsonl", option, "3"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--follow shows a recording as it is written: \(option) is for a finished one"))
    }

    @Test("--follow of a file that does not exist says so, exit 2, with no terminal asked for")
    func missingFile() throws {
        let result = try LoopvizProcess.run(["--follow", "missing.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr == "loopviz: error: missing.jsonl: cannot follow it: No such file or directory\n")
    }

    @Test("--follow without its FILE is a usage error, exit 2")
    func noValue() throws {
        let result = try LoopvizProcess.run(["--follow"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("option '--follow' needs a value"))
    }
}
