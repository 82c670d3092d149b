import Foundation
import Testing

/// `loopviz run --clock real`: the scenario on real threads and the real clock.
@Suite("loopviz run --clock real")
struct RunRealClockTests {
    static let scenario = """
        scenario "a port wakes the loop"
        thread T
          port P
          run default for 2s returnAfterSourceHandled
        at 50ms
          send P
        """

    @Test("a scenario runs on real threads: the same steps as on the virtual clock, real times, clock real")
    func runsOnRealThreads() throws {
        #if os(Linux)
        let result = try LoopvizProcess.run(
            ["run", "s.loop", "--clock", "real", "--trace", "jsonl"], files: ["s.loop": Self.scenario])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.contains("\"clock\":\"real\"") == true, "\(lines.first ?? "")")
        let steps = lines.dropFirst().compactMap { line -> String? in
            guard let kind = Self.field("kind", in: line) else { return nil }
            return [kind, Self.field("name", in: line)].compactMap { $0 }.joined(separator: " ")
        }
        let observable = steps.filter { !$0.hasPrefix("sleep") && !$0.hasPrefix("wake") && !$0.hasPrefix("send") }
        #expect(
            observable == [
                "schedule P", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
                "afterWaiting", "source1 P", "exit", "result handledSource",
            ])
        #endif
    }

    @Test("the text trace of a real run shows every time to the millisecond: the event's and those in its words")
    func textHasOnePrecision() throws {
        #if os(Linux)
        let result = try LoopvizProcess.run(
            ["run", "s.loop", "--clock", "real"], files: ["s.loop": Self.scenario])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count >= 10)
        let millis = /^[0-9]+\.[0-9]{3}$/
        for line in lines {
            let time = String(line.prefix { $0 != " " })
            #expect(time.wholeMatch(of: millis) != nil, "\(line)")
            // A sleep's deadline in its detail, e.g. `until time limit at 2.004`.
            for match in line.matches(of: /at ([0-9]+\.[0-9]+)/) {
                #expect(String(match.output.1).wholeMatch(of: millis) != nil, "\(line)")
            }
        }
        #expect(lines.contains { $0.contains("until time limit at") })
        #endif
    }

    @Test("screen draws the virtual replay only: --clock real is refused with the reason")
    func uiRefusals() throws {
        let screen = try LoopvizProcess.run(["screen", "s.loop", "--clock", "real"], files: ["s.loop": Self.scenario])
        #expect(screen.status == 2)
        #expect(screen.stderr.contains("virtual clock's replay"), "\(screen.stderr)")
    }

    /// The string value of `"key":"value"` in a JSONL line.
    static func field(_ key: String, in line: Substring) -> String? {
        guard let start = line.range(of: "\"\(key)\":\"") else { return nil }
        let rest = line[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
