import Foundation
import Testing

@testable import LoopFuzz
@testable import loopviz

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
            "main-actor tasks that await", "asyncAfter", "timer properties", "an async main",
        ] {
            #expect(result.stdout.contains(word), "\(word)")
        }
    }

    @Test(
        "bad usage is exit 2 with the reason",
        arguments: [
            (["fuzz"], "missing --against cf"),
            (["fuzz", "--against", "swift"], "'swift' is not a valid value for --against; expected one of: cf, eager"),
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

    @Test("the summary counts a real run that took another explored schedule as an agreement, and says how many")
    func summaryCountsRaces() {
        var summary = FuzzCampaign.Summary()
        summary.cases = 3
        summary.agreed = 3
        let plain = FuzzCommand.summaryLine(summary, seed: 5, start: 10)
        #expect(plain.hasPrefix("fuzz seed 5, cases 10..<13: 3 cases, 3 agree, 0 differ,"))
        summary.races = 1
        let raced = FuzzCommand.summaryLine(summary, seed: 5, start: 10)
        #expect(
            raced.hasPrefix("fuzz seed 5, cases 10..<13: 3 cases, 3 agree (1 by another schedule: a race), 0 differ,"))
    }

    @Test("--against eager: 300 cases, every one the same trace with modes resting, most with modes resting; exit 0")
    func againstEager() throws {
        let result = try LoopvizProcess.run(["fuzz", "--against", "eager", "--seed", "7", "--cases", "300"])
        #expect(result.status == 0, "\(result.stdout)")
        let summary = try #require(result.stdout.split(separator: "\n").last.map(String.init))
        #expect(summary.hasPrefix("fuzz --against eager seed 7, cases 0..<300: 300 cases, 300 agree ("), "\(summary)")
        #expect(summary.contains(" 0 differ, 0 errors;"))
        let rested = try #require(
            summary.split(separator: "(").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) })
        #expect(rested >= 100, "\(summary)")
    }

    @Test("--against eager's cases are the same for the same seed and case, and differ between cases")
    func eagerCasesAreReproducible() {
        let text = RestingModesFuzz.scenarioText(seed: 3, index: 41)
        #expect(RestingModesFuzz.scenarioText(seed: 3, index: 41) == text)
        #expect(RestingModesFuzz.scenarioText(seed: 3, index: 42) != text)
        #expect(text.hasPrefix("profile "))
    }

    @Test("a difference names its first line and both sides")
    func eagerDifferenceDetail() {
        let detail = RestingModesFuzz.firstDifference(["a", "b", "c"], ["a", "x"], policy: .atOnce)
        #expect(detail == "at line 2 (resting at once): eager `b`, resting `x`")
        let shorter = RestingModesFuzz.firstDifference(["a"], ["a", "y"], policy: .standard)
        #expect(shorter == "at line 2 (resting standard): eager `(the trace ends)`, resting `y`")
    }

    // The campaigns themselves run the real CFRunLoop: `FuzzAgainstCFTests` in RealTimeJudgeTests.
}
