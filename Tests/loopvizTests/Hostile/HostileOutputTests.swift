import Foundation
import LoopEngine
import Testing

@testable import loopviz

/// Runs the built `loopviz` on files written as bytes (names and contents may hold anything).
/// Hostile inputs are bytes, not text: ``LoopvizProcess`` with files given as bytes.
enum HostileProcess {
    static func run(
        _ arguments: [String], files: [String: [UInt8]] = [:], sparse: [String: UInt64] = [:]
    ) throws -> LoopvizProcess.Result {
        try LoopvizProcess.run(arguments, bytes: files, sparse: sparse)
    }
}

/// Nothing a scenario file says reaches the terminal raw: every output shows control sequences as escapes.
@Suite("hostile scenario files: every output is terminal-safe")
struct HostileOutputTests {
    let name = HostileLesson.fileName
    let shown = HostileLesson.shownFileName

    @Test("check: a hostile file name and hostile texts are shown as escapes")
    func check() throws {
        let result = try HostileProcess.run(["check", name], files: [name: Array(HostileLesson.loop.utf8)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!HostileLesson.hasUnsafe(result.stdout + result.stderr), "\(HostileLesson.unsafe(result.stdout))")
        #expect(result.stdout.hasPrefix("PASS \(shown) (2 expect lines in 1 section, "))
        #expect(result.stdout.hasSuffix(" events)\n"))
    }

    @Test("check: a failing file is named with escapes too")
    func checkFailure() throws {
        let failing = HostileLesson.loop.replacingOccurrences(of: "  timer tick\n", with: "  timer tick\n  stop\n")
        let result = try HostileProcess.run(["check", name], files: [name: Array(failing.utf8)])
        #expect(result.status == 1)
        #expect(!HostileLesson.hasUnsafe(result.stdout + result.stderr), "\(HostileLesson.unsafe(result.stdout))")
        #expect(
            result.stdout
                == "FAIL \(shown)\n  expect in order (line 13): step 2 never happened after step 1\n"
                + "    - stop   (line 15)\n")
    }

    @Test("diagnostics quote names, titles, say texts and expectations with escapes, caret under the character")
    func diagnostics() throws {
        let result = try HostileProcess.run(["check", name], files: [name: Array(HostileLesson.broken.utf8)])
        #expect(result.status == 2)
        #expect(result.stdout == "ERROR \(shown)\n")
        let expected = [
            "\(shown):1:30: error: unexpected 'and \\e[2J' at the end of the line",
            "  scenario \"Broken \\e]0;PWNED\\u{7}\" \"and \\e[2J\"",
            "                                    ^",
            "\(shown):2:9: error: unexpected character '\\u{202E}'",
            "  thread T\\u{202E}x",
            "          ^",
            "\(shown):3:11: error: 2 unexpected characters '\\e['",
            "    source0 \\e[2Jtouch",
            "            ^",
            "\(shown):4:7: error: unexpected character '\\u{9B}'",
            "    say \\u{9B}\"hi\"",
            "        ^",
            "\(shown):5:11: error: unexpected character '\\u{2066}'",
            "    signal t\\u{2066}ouch\\u{7F}",
            "            ^",
            "\(shown):5:16: error: unexpected character '\\u{7F}'",
            "    signal t\\u{2066}ouch\\u{7F}",
            "                        ^",
            "\(shown):7:9: error: unexpected character '\\0'",
            "    timer \\0tick",
            "          ^",
            "7 errors generated.",
        ]
        #expect(result.stderr == expected.joined(separator: "\n") + "\n")
    }

    // compare runs Foundation's OperationQueue and the real CFRunLoop: `HostileCompareTests` in
    // RealTimeJudgeTests.

    @Test("screen: the UI's title and narration show the hostile texts as escapes")
    func screen() throws {
        let result = try HostileProcess.run(
            ["screen", name, "--step", "30", "--size", "200x40"], files: [name: Array(HostileLesson.loop.utf8)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!HostileLesson.hasUnsafe(result.stdout), "\(HostileLesson.unsafe(result.stdout))")
        #expect(result.stdout.contains("Loop \\e]0;PWNED\\u{7} \\e[2J"))
        // At step 30 the latest narration is the callout's `say` (a program's line stays until the next one).
        #expect(result.stdout.contains("touched \(HostileLesson.shownSequences)"))
    }

    @Test("the UI's render: no cell holds an unsafe character, at every step of the hostile lessons")
    func render() throws {
        for source in [HostileLesson.loop, HostileLesson.pool] {
            let script = try ScenarioParser.parse(source, file: name)
            var model = AppModel(session: Session(script: script), fileName: name)
            _ = updateInline(&model, .resize(width: 160, height: 40))
            model.isPaused = true
            var narrationShown = false
            for step in 0...model.trace.count {
                model.cursor = step
                model.furthest = step
                let lines = loopviz.render(model).lines
                #expect(!lines.contains(where: HostileLesson.hasUnsafe), "step \(step)")
                narrationShown = narrationShown || lines.contains { $0.contains("\\e]52;c;SGVsbG8=\\u{7}") }
            }
            #expect(narrationShown, "the hostile texts are shown (escaped), not dropped")
        }
    }

    @Test("usage errors echo arguments with escapes")
    func usageErrors() throws {
        let command = try HostileProcess.run(["\u{1B}]0;PWNED\u{7}\u{202E}"])
        #expect(command.status == 2)
        #expect(
            command.stderr == "loopviz: error: unknown command '\\e]0;PWNED\\u{7}\\u{202E}'\nSee 'loopviz --help'.\n")
        let help = try HostileProcess.run(["help", "\u{9B}2J"])
        #expect(help.stderr == "loopviz: error: unknown command '\\u{9B}2J'\nSee 'loopviz --help'.\n")
        let option = try HostileProcess.run(["check", "--\u{1B}[2J"])
        #expect(!HostileLesson.hasUnsafe(option.stderr), "\(HostileLesson.unsafe(option.stderr))")
        #expect(option.stderr.contains("--\\e[2J"))
        let missing = try HostileProcess.run(["run", name])
        #expect(missing.stderr == "loopviz: error: \(shown): no such file\n")
    }

    @Test(
        "run: every trace format shows the hostile texts as escapes",
        arguments: ["text", "jsonl", "chrome", "mermaid"])
    func traceFormats(_ format: String) throws {
        let result = try HostileProcess.run(
            ["run", name, "--trace", format], files: [name: Array(HostileLesson.loop.utf8)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!HostileLesson.hasUnsafe(result.stdout), "\(HostileLesson.unsafe(result.stdout))")
    }
}
