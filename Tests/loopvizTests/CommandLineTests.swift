import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@Suite("loopviz on the command line")
struct CommandLineTests {
    static let good = SampleScenarios.good
    static let failing = good.replacingOccurrences(of: "0.050 timer t", with: "0.060 timer t")
    static let broken = "thread T\n  signal nothing\n  run default 1s\n"

    @Test("--version prints the version and exits 0")
    func version() throws {
        let result = try LoopvizProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "loopviz \(LoopEngineVersion.string)\n")
    }

    @Test("an unknown command is a usage error with a hint, exit 2")
    func unknownCommand() throws {
        let result = try LoopvizProcess.run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown command 'frobnicate'"))
        #expect(result.stderr.contains("loopviz --help"))
    }

    @Test("a scenario file whose name does not end in .loop opens in the UI, not as an unknown command")
    func fileWithoutTheLoopExtension() throws {
        let result = try LoopvizProcess.run(["./lesson"], files: ["lesson": Self.good])
        // Without a terminal the UI refuses to start, which shows the file was taken for the UI's FILE.
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "loopviz: cannot start the interactive UI: standard input and output must be a terminal. "
                + "Run a scenario headless with `loopviz run FILE`.\n")
    }

    @Test("usage errors name the real problem: an option's bad value before a missing FILE, a flag given twice")
    func usageErrorsNameTheProblem() throws {
        let trace = try LoopvizProcess.run(["run", "--trace", "good.loop"], files: ["good.loop": Self.good])
        #expect(trace.status == 2)
        #expect(
            trace.stderr.hasPrefix(
                "loopviz: error: 'good.loop' is not a valid value for --trace; expected one of: text, jsonl, chrome, "
                    + "mermaid, firefox\n"))
        let twice = try LoopvizProcess.run(
            ["compare", "--quiet", "--quiet", "good.loop"], files: ["good.loop": Self.good])
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("loopviz: error: option '--quiet' is given twice\n"))
        let size = try LoopvizProcess.run(["screen", "--size", "5000x5", "good.loop"], files: ["good.loop": Self.good])
        #expect(size.status == 2)
        #expect(size.stderr.hasPrefix("loopviz: error: '5000x5' is not a size like 80x24 (from 1x1 to 1000x1000)\n"))
        let budget = try LoopvizProcess.run(["run", "--max-events", "0", "good.loop"], files: ["good.loop": Self.good])
        #expect(budget.stderr.hasPrefix("loopviz: error: '0' is not a number of events: at least 1;"))
    }

    @Test("screen --step past the last event shows the last and says so on standard error")
    func screenStepPastTheEnd() throws {
        let result = try LoopvizProcess.run(["screen", "--step", "200", "good.loop"], files: ["good.loop": Self.good])
        #expect(result.status == 0)
        let last = try LoopvizProcess.run(["screen", "--step", "11", "good.loop"], files: ["good.loop": Self.good])
        #expect(result.stdout == last.stdout)
        #expect(result.stderr == "loopviz screen: note: --step 200, but the replay has 11 events: showing the last\n")
        #expect(last.stderr.isEmpty)
    }

    @Test("the top-level help names every command and the UI's clocks")
    func topLevelHelp() throws {
        let result = try LoopvizProcess.run(["--help"])
        #expect(result.status == 0)
        for word in ["run FILE", "check FILE", "compare FILE", "screen [FILE]", "bench", "--clock virtual|real"] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }

    @Test("every command has its own help", arguments: ["run", "check", "compare", "screen", "bench"])
    func commandHelp(_ command: String) throws {
        let result = try LoopvizProcess.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: loopviz \(command)"))
        #expect(result.stdout.contains("EXIT STATUS"))
    }

    @Test("screen's help is its own, with its exit statuses, not the UI's keys")
    func screenHelp() throws {
        for arguments in [["screen", "--help"], ["help", "screen"]] {
            let result = try LoopvizProcess.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("OVERVIEW: Print the screen the UI shows at a step"))
            #expect(result.stdout.contains("  0    the screen was printed\n"))
            #expect(result.stdout.contains("  3    the event budget (--max-events) stopped the replay"))
            #expect(!result.stdout.contains("--clock CLOCK"))
        }
    }

    @Test("check passes a kept promise (0), fails a broken one with a diff (1), rejects bad input (2)")
    func checkExitStatuses() throws {
        let files = ["good.loop": Self.good, "failing.loop": Self.failing, "broken.loop": Self.broken]
        let pass = try LoopvizProcess.run(["check", "good.loop"], files: files)
        #expect(pass.status == 0)
        #expect(pass.stdout.hasPrefix("PASS good.loop"))
        let fail = try LoopvizProcess.run(["check", "good.loop", "failing.loop"], files: files)
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("FAIL failing.loop"))
        #expect(fail.stdout.contains("- 0.060 timer t"))
        #expect(fail.stdout.contains("+ 0.050 timer t"))
        let bad = try LoopvizProcess.run(["check", "broken.loop", "failing.loop"], files: files)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("broken.loop:2:10: error: unknown item 'nothing' on thread T"))
        #expect(bad.stderr.contains("broken.loop:3:15: error: expected 'for'"))
    }

    @Test("check's PASS line counts every expect line and the sections they are in, not the sections alone")
    func checkCountsExpectLines() throws {
        let file = """
            thread T
              timer t at 50ms every 50ms
              run default for 120ms
            expect
              timer t 2 times
              never source0 t
              result timedOut
            expect in order
              0.050 timer t
              0.100 timer t
            """
        let result = try LoopvizProcess.run(["check", "claims.loop"], files: ["claims.loop": file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("PASS claims.loop (5 expect lines in 2 sections, "), "\(result.stdout)")
        let one = "thread T\n  timer t at 50ms\n  run default for 100ms\nexpect\n  timer t once\n"
        let single = try LoopvizProcess.run(["check", "one.loop"], files: ["one.loop": one])
        #expect(single.stdout.hasPrefix("PASS one.loop (1 expect line in 1 section, "), "\(single.stdout)")
    }

    @Test("check fails a say line whose claim does not hold, naming the line, the claim and what happened (1)")
    func checkSayClaims() throws {
        let told =
            Self.good + "\n\n" + """
                say "The timer fires and the run ends" after timer t
                  claims next result finished
                say "The timer wakes the loop" after sleep
                  claims next 0.050 wake
                """
        let pass = try LoopvizProcess.run(["check", "told.loop"], files: ["told.loop": told])
        #expect(pass.status == 0)
        #expect(pass.stdout == "PASS told.loop (9 expect lines in 1 section, 2 claims of say lines, 11 events)\n")
        let wrong = told.replacingOccurrences(of: "claims next result finished", with: "claims next result stopped")
        let fail = try LoopvizProcess.run(["check", "wrong.loop"], files: ["wrong.loop": wrong])
        #expect(fail.status == 1)
        #expect(
            fail.stdout == """
                FAIL wrong.loop
                  say (line 16) "The timer fires and the run ends", shown from step 9 (0.050 timer t):
                    - claims next result stopped   (line 17)
                    + the next result is step 11: 0.0500015 result finished

                """)
    }

    @Test(
        "run prints each trace format; jsonl, chrome and firefox are JSON",
        arguments: ["text", "jsonl", "chrome", "mermaid", "firefox"])
    func runFormats(_ format: String) throws {
        let result = try LoopvizProcess.run(["run", "good.loop", "--trace", format], files: ["good.loop": Self.good])
        #expect(result.status == 0)
        switch format {
        case "text":
            // The column is as wide as the longest time: 0.0500015, the exit one iteration cost after the timer.
            #expect(result.stdout.contains("0.050      T       1      default  timer"))
        case "jsonl":
            for line in result.stdout.split(separator: "\n") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any])
            }
        case "chrome":
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["traceEvents"] is [Any])
        case "firefox":
            let threads = try FirefoxProfileSchema.check(result.stdout)
            #expect(threads.map(\.name) == ["T"])
        default:
            #expect(result.stdout.hasPrefix("---") || result.stdout.hasPrefix("sequenceDiagram"))
        }
    }

    @Test("run -o writes the trace to a file and prints nothing")
    func runToFile() throws {
        let result = try LoopvizProcess.run(
            ["run", "good.loop", "--trace", "jsonl", "-o", "/dev/null"], files: ["good.loop": Self.good])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
    }

    @Test("run rejects a bad format, a bad time and a missing file, exit 2")
    func runUsageErrors() throws {
        let files = ["good.loop": Self.good]
        let cases: [([String], String)] = [
            (["run", "good.loop", "--trace", "xml"], "'xml' is not a valid value for --trace"),
            (["run", "good.loop", "--until", "soon"], "'soon' is not a time"),
            (["run", "missing.loop"], "missing.loop: no such file"),
            (["run"], "missing FILE"),
        ]
        for (arguments, message) in cases {
            let result = try LoopvizProcess.run(arguments, files: files)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    // compare on the real CFRunLoop: `CompareCommandTests` in RealTimeJudgeTests.
}
