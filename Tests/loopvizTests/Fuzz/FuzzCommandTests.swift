import Foundation
import Testing

/// `loopviz fuzz` as a person runs it: help, usage errors, and a short campaign that saves nothing when all agree.
@Suite("loopviz fuzz on the command line")
struct FuzzCommandTests {
    @Test("the help names the options and the exit statuses")
    func help() throws {
        let result = try LoopvizProcess.run(["fuzz", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: loopviz fuzz --against cf [--cases N] [--seed S]"))
        for word in [
            "--max-items N", "--out DIR", "--quiet", "EXIT STATUS", "docs/fuzzing.md", "Timer.fire()",
            "main-actor tasks that await", "asyncAfter", "timer properties",
        ] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }

    @Test(
        "bad usage is exit 2 with the reason",
        arguments: [
            (["fuzz"], "missing --against cf"),
            (["fuzz", "--against", "swift"], "'swift' is not a valid value for --against; expected: cf"),
            (["fuzz", "--against", "cf", "--cases", "0"], "--cases takes a whole number from 1 to 100000"),
            (["fuzz", "--against", "cf", "--cases", "100001"], "--cases takes a whole number from 1 to 100000"),
            (["fuzz", "--against", "cf", "--max-items", "13"], "--max-items takes a whole number from 1 to 12"),
            (["fuzz", "--against", "cf", "--seed", "-1"], "--seed takes a whole number from 0 to"),
        ] as [([String], String)])
    func usage(_ arguments: [String], _ message: String) throws {
        let result = try LoopvizProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("loopviz: error: \(message)"), "\(result.stderr)")
    }

    // The campaigns themselves run the real CFRunLoop: `FuzzAgainstCFTests` in RealTimeJudgeTests.
}
