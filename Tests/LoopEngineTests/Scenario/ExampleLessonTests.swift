import Foundation
import LoopEngine
import SnapshotSupport
import Testing

/// Every lesson in `examples/` is a test: it parses, its `expect` sections hold, and its text trace matches the
/// golden trace in `Snapshots/Examples/` (re-record with `RECORD_SNAPSHOTS=1`).
@Suite("the lessons in examples/")
struct ExampleLessonTests {
    static let lessons: [String] = {
        let folder = Snapshot.packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".loop") }.sorted()
    }()

    static func load(_ name: String) throws -> LoopScript {
        let url = Snapshot.packageRoot.appendingPathComponent("examples").appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        return try ScenarioParser.parse(text, file: "examples/\(name)")
    }

    @Test("there are at least fourteen lessons")
    func libraryIsComplete() {
        #expect(Self.lessons.count >= 14)
    }

    @Test("each lesson parses, keeps its promises and matches its golden trace", arguments: lessons)
    func lessonHoldsItsPromises(_ name: String) throws {
        let script = try Self.load(name)
        #expect(!script.header.isEmpty, "a lesson starts with a header comment")
        #expect(!script.expectations.isEmpty, "a lesson has an expect section")
        let outcome = ScenarioRunner.run(script.scenario, horizon: script.until ?? .seconds(60))
        for expectation in script.expectations {
            #expect(expectation.check(outcome.events) == nil, "\(expectation.check(outcome.events) ?? "")")
        }
        let claims = script.sayClaimFailures(in: outcome.events)
        #expect(claims.isEmpty, "a say line's claim does not hold:\n\(claims.joined())")
        let base = name.hasSuffix(".loop") ? String(name.dropLast(5)) : name
        Snapshot.assertMatches(TextTraceFormatter.format(outcome.events), "Examples/\(base).trace")
    }

    /// A lint that keeps lessons honest: narration that tells what the loop does is checked (above) only when it
    /// says which claim it rests on.
    @Test(
        "every say line of a lesson that tells a result, a return, a stop, a fire or a wake rests on a claim",
        arguments: lessons)
    func outcomeLinesRestOnClaims(_ name: String) throws {
        let script = try Self.load(name)
        #expect(script.unclaimedOutcomeLines == [], "add `claims next|later|earlier …` under these say lines")
    }

    @Test("a line tells an outcome by a result's name or a form of stop, fire, wake or return, not by a longer word")
    func outcomeWords() {
        let telling = [
            "The stop ends the run", "tick fires once", "the loop wakes", "returned timedOut", "a wake-up",
            "Stopped.", "handledSource wins", "it finished", "nobody woke it", "the timer fired",
            "RunLoop.run returned",
        ]
        let silent = ["stopThread runs on the worker", "CFRunLoopStop(rl)", "a wakeup call", "The loop sleeps"]
        #expect(telling.filter { !LoopScript.tellsAnOutcome($0) } == [])
        #expect(silent.filter(LoopScript.tellsAnOutcome) == [])
    }
}
