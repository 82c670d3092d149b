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
        for word in ["--max-items N", "--out DIR", "--quiet", "EXIT STATUS", "docs/fuzzing.md"] {
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

    #if os(Linux)
    /// Fuzz case 17 of seed 1 once the second thread was generated, shrunk: CF tears a thread's loop down at its
    /// exit and calls the cancel callout of every source still in a mode, which the engine does not model. The
    /// oracle left that cancel out for declared threads only; for a thread started on the way it recorded it.
    @Test("a later thread's source gets no compared cancel callout at the thread's exit")
    func laterThreadTeardown() throws {
        let text = """
            scenario "fuzz seed 1 case 17"

            thread T
              start U

            thread U later
              port q1
                call 1: stop
              source0 u1
                on cancel: work 1ms
              run default for 40ms

            """
        let result = try CompareEveryLessonTests.compare(["case17.loop"], files: ["case17.loop": text])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("AGREE case17.loop (2 threads"), "\(result.stdout)")
    }

    @Test("a few cases run on both sides; --show prints each case's .loop text and the summary counts them")
    func shortCampaign() throws {
        let result = try LoopvizProcess.run(["fuzz", "--against", "cf", "--seed", "4", "--cases", "3", "--show"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: "scenario \"fuzz seed 4 case ").count == 4)
        #expect(result.stdout.contains("fuzz seed 4, cases 0..<3: 3 cases, "))
    }
    #endif
}
