#if os(Linux)
import Foundation
import SnapshotSupport
import Testing

/// `loopviz compare` through the built executable on small scenarios: the verdicts, what it skips, and its event
/// budget on either side.
@Suite("loopviz compare on the command line", .timeLimit(.minutes(15)))
struct CompareCommandTests {
    static let good = SampleScenarios.good
    /// A timer every millisecond for a day: a million events in about 143 virtual seconds.
    static let runaway = """
        scenario "runaway"
        until 100000s
        thread T
          timer t at 1ms every 1ms
          run default for 100000s
        """
    /// A source0 that signals itself: the loop never sleeps.
    static let spin = """
        thread T
          port keepAlive in default
          source0 s in default
            signal s
          run default for 200ms
        at 1ms on T
          signal s
          wakeup
        """

    @Test("compare agrees with the real CFRunLoop on a simple scenario and skips what it cannot run")
    func compare() throws {
        try RealTimeGate.exclusive {
            let darwin = "profile darwin\n" + Self.good
            let result = try LoopvizProcess.run(
                ["compare", "--quiet", "--tolerance", "60ms", "good.loop", "darwin.loop"],
                files: ["good.loop": Self.good, "darwin.loop": darwin])
            #expect(result.status == 0)
            #expect(result.stdout.contains("AGREE good.loop"))
            #expect(
                result.stdout.contains(
                    "SKIP darwin.loop: not comparable with the real CFRunLoop here: the darwin profile"))
        }
    }

    @Test("compare reports a scenario stopped by the budget as an ERROR line of that file, not compared, exit 3")
    func compareBudget() throws {
        let result = try LoopvizProcess.run(
            ["compare", "--quiet", "runaway.loop", "good.loop", "--max-events", "100"],
            files: ["runaway.loop": Self.runaway, "good.loop": Self.good])
        #expect(result.status == 3)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "ERROR runaway.loop: stopped at the event budget of 100 events; not compared")
        #expect(lines.dropFirst().first?.hasPrefix("AGREE good.loop") == true, "\(lines)")
        #expect(
            result.stderr
                == "loopviz: runaway.loop: stopped at the event budget of 100 events (--max-events N allows more)\n")
    }

    @Test("compare stops the real CFRunLoop's run at the same event budget: one line, nothing compared, exit 3")
    func compareBudgetsTheRealSide() throws {
        // At 10 ms an iteration LoopEngine performs s 19 times in 200 ms (about 120 events); the real CFRunLoop,
        // as fast as it can, tens of thousands of times (thousands even on a loaded machine).
        let result = try LoopvizProcess.run(
            ["compare", "spin.loop", "--iteration-cost", "10ms", "--max-events", "2000"],
            files: ["spin.loop": Self.spin])
        #expect(result.status == 3)
        #expect(
            result.stdout
                == "ERROR spin.loop: the real CFRunLoop's run stopped at the event budget of 2000 events; "
                + "not compared\n")
        #expect(
            result.stderr
                == "loopviz: spin.loop: the real CFRunLoop's run stopped at the event budget of 2000 events "
                + "(--max-events N allows more)\n")
    }
}
#endif
