import Foundation
import LoopEngine
import SnapshotSupport
import Testing

@testable import loopviz

/// `loopviz compare` on scenarios with operation queues: routed to Foundation's `OperationQueue`, with the same
/// verdict lines, `--quiet` and exit status as the CFRunLoop comparison.
@Suite("loopviz compare on pool scenarios", .serialized)
struct ComparePoolTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func work(_ name: String, _ millis: Int, priority: QueuePriority = .normal) -> Action {
        .addOperation(
            queue: "Q", OperationSpec(name: name, priority: priority, body: .work(ms(millis), checkEvery: nil)))
    }

    static func scenario(_ queue: QueueSpec, _ program: [Action]) -> Scenario {
        Scenario(name: "pool", threads: [ThreadSpec(name: "P", items: [], program: program)], queues: [queue])
    }

    /// Limit 1, added while suspended: starts by priority.
    static let agreeing = scenario(
        QueueSpec(name: "Q", limit: 1, suspended: true),
        [
            work("a", 30, priority: .low), work("b", 30), work("c", 30, priority: .high), .work(ms(50)),
            .setSuspended(queue: "Q", false), .waitUntilAllFinished(queue: "Q"),
        ])

    /// A queued operation cancelled in a suspended queue that is never resumed: the engine finishes it at the
    /// cancel; Foundation leaves it in the queue until a resume lets `start()` see the flag.
    static let differing = scenario(
        QueueSpec(name: "Q", limit: 1, suspended: true), [work("a", 30), .work(ms(50)), .cancelOperation("a")])

    static func compare(_ scenario: Scenario, quiet: Bool) -> (CompareCommand.PoolVerdict, [String]) {
        var lines: [String] = []
        let verdict = RealTimeGate.exclusive {
            CompareCommand.comparePool(scenario, path: "pool.loop", horizon: .seconds(10), quiet: quiet) {
                lines.append($0)
            }
        }
        return (verdict, lines)
    }

    @Test("an agreeing pool scenario: AGREE, both sides' pool events and the side-by-side summary")
    func agree() {
        let (verdict, lines) = Self.compare(Self.agreeing, quiet: false)
        #expect(verdict == .agree, "\(lines.joined(separator: "\n"))")
        #expect(lines.first == "AGREE pool.loop (3 operations on Foundation's OperationQueue)")
        let text = lines.joined(separator: "\n")
        #expect(text.contains("LoopEngine pool events:"))
        #expect(text.contains("Foundation pool events:"))
        #expect(text.contains("opStart c"))
        #expect(text.contains("threads used (not compared)"))
    }

    @Test("--quiet prints only the verdict of an agreeing pool scenario")
    func quiet() {
        let (verdict, lines) = Self.compare(Self.agreeing, quiet: true)
        #expect(verdict == .agree)
        #expect(lines == ["AGREE pool.loop (3 operations on Foundation's OperationQueue)"])
    }

    @Test("a differing pool scenario: DIFFER with the first difference in words, and the traces even when quiet")
    func differ() {
        // Foundation agrees with the model on every pool lesson, so the other side is a stand-in here: the
        // engine's own trace with the start order of two operations swapped, as a queue ignoring priorities
        // would give.
        var lines: [String] = []
        let verdict = CompareCommand.comparePool(
            Self.agreeing, path: "pool.loop", horizon: .seconds(10), quiet: true, output: { lines.append($0) },
            reference: { scenario, horizon in
                Self.swappingStarts(ScenarioRunner.run(scenario, horizon: horizon).events)
            })
        #expect(verdict == .differ)
        #expect(lines.first?.hasPrefix("DIFFER pool.loop: first difference - start order") == true, "\(lines)")
        #expect(lines.joined(separator: "\n").contains("Foundation pool events:"))
    }

    /// `events` with the names of the first two `opStart`s exchanged.
    static func swappingStarts(_ events: [LoopEvent]) -> [LoopEvent] {
        var events = events
        let starts = events.indices.filter { events[$0].kind == .opStart }
        guard starts.count >= 2 else { return events }
        let first = events[starts[0]].name
        events[starts[0]].name = events[starts[1]].name
        events[starts[1]].name = first
        return events
    }

    @Test("a pool scenario the oracle cannot run is skipped with the reason")
    func unsupported() {
        var scenario = Self.agreeing
        scenario.threads[0].program.insert(.signal("s"), at: 0)
        var lines: [String] = []
        let verdict = CompareCommand.comparePool(scenario, path: "pool.loop", horizon: .seconds(10), quiet: false) {
            lines.append($0)
        }
        #expect(verdict == .skipped)
        #expect(
            lines == [
                "SKIP pool.loop: not comparable with Foundation's OperationQueue here: signal s (the pool oracle "
                    + "runs no run loop: programs may only use operation queues, work and notes)"
            ])
    }

    static let agreeingFile = """
        scenario "pool"
        queue Q limit 1 suspended
        thread main
          operation a on Q priority low work 30ms
          operation b on Q work 30ms
          operation c on Q priority high work 30ms
          work 50ms
          resume Q
          wait for Q
        """

    static let badFile = """
        queue Q limit 1
        thread main
          operation a on Q priority urgent work 30ms
        """

    #if os(Linux)
    @Test("the executable: pool files agree (exit 0), bad input exits 2; files without queues still go to CFRunLoop")
    func executable() throws {
        try RealTimeGate.exclusive {
            let agree = try LoopvizProcess.run(
                ["compare", "--quiet", "--tolerance", "60ms", "pool.loop", "good.loop"],
                files: ["pool.loop": Self.agreeingFile, "good.loop": CompareCommandTests.good])
            #expect(agree.status == 0, "\(agree.stdout)\(agree.stderr)")
            #expect(
                agree.stdout.split(separator: "\n").first
                    == "AGREE pool.loop (3 operations on Foundation's OperationQueue)")
            #expect(agree.stdout.contains("AGREE good.loop"))
            let bad = try LoopvizProcess.run(
                ["compare", "--quiet", "pool.loop", "bad.loop"],
                files: ["pool.loop": Self.agreeingFile, "bad.loop": Self.badFile])
            #expect(bad.status == 2, "\(bad.stdout)\(bad.stderr)")
            #expect(bad.stderr.contains("bad.loop:3:"), "\(bad.stderr)")
        }
    }
    #endif
}
