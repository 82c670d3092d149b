import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// One item in the loops of two threads (`add X to M on THREAD`, docs/cfrunloop.md §19) on LoopEngine and on the
/// real CFRunLoop, compared thread by thread: the real CF declines what the engine notes as `addDeclined`.
@Suite("one item, two loops agrees with the real CFRunLoop", .serialized)
struct SharedItemDifferentialTests {
    static func scenario(_ source: String) throws -> Scenario {
        try ScenarioParser.parse(source, file: "t.loop").scenario
    }

    /// The steps of `thread` on both sides, once they agree (a real run late as a whole is made again:
    /// `ThreadedTraceComparison.againstRealRun`).
    static func agreeingSteps(_ scenario: Scenario, _ thread: String) throws -> [String] {
        let engine = ScenarioRunner.run(scenario).events
        let comparison = try ThreadedTraceComparison.againstRealRun(
            engine: engine, scenario, declared: scenario.threads.map(\.name)
        ).comparison
        #expect(comparison.agrees, "\(comparison.sideBySide())")
        let steps = try #require(comparison.threads.first { $0.name == thread }).comparison
        #expect(steps.engine.map(\.step) == steps.reference.map(\.step))
        return steps.reference.map(\.step).filter { !$0.hasPrefix("before") }
    }

    #if os(Linux)
    @Test("a timer of another loop is declined in two modes and in the common modes; out of its last mode it is taken")
    func timerHandedOver() throws {
        try RealTimeGate.exclusive {
            let scenario = try Self.scenario(
                """
                thread U
                  timer tick at 20ms every 20ms in default, Other
                    say "tick"
                  add tick to default on T
                  add tick to common on T
                  remove tick from default
                  add tick to default on T
                  work 30ms
                  remove tick from Other
                  add tick to default on T
                thread T
                  port K
                  run default for 70ms
                """)
            #expect(
                try Self.agreeingSteps(scenario, "T") == [
                    "runStart default", "entry", "afterWaiting", "timer tick", "note", "afterWaiting", "timer tick",
                    "note", "afterWaiting", "timer tick", "note", "afterWaiting", "exit", "result timedOut",
                ])
        }
    }

    @Test("an observer of another loop is declined; removed there, it is called by this one")
    func observerHandedOver() throws {
        try RealTimeGate.exclusive {
            let scenario = try Self.scenario(
                """
                thread U
                  port K
                  observer watch on entry
                  add watch to default on T
                  run default for 10ms
                  remove watch from default
                  add watch to default on T
                thread T
                  port K2
                  work 5ms
                  run default for 10ms
                  work 10ms
                  run default for 10ms
                """)
            #expect(
                try Self.agreeingSteps(scenario, "T") == [
                    "runStart default", "entry", "afterWaiting", "exit", "result timedOut",
                    "runStart default", "entry", "observer watch", "afterWaiting", "exit", "result timedOut",
                ])
        }
    }

    /// The answers of the `query` events `thread` recorded, in order.
    static func answers(_ events: [LoopEvent], on thread: String) -> [QueryAnswer] {
        events.compactMap { event in
            guard event.loop == thread, case .query(_, let answer) = event.fact else { return nil }
            return answer
        }
    }

    @Test("a callout on another loop asks about its own thread's items: in that loop only if added, valid, dated")
    func queriesOfAnotherThreadsItems() throws {
        try RealTimeGate.exclusive {
            let scenario = try Self.scenario(
                """
                thread U
                  timer tick at 300ms
                  source0 S
                    query contains tick in default
                    query isValid tick
                    query nextFireDate tick
                    query contains S in default
                  add S to default on T
                  signal S
                  wakeup on T
                  work 100ms
                thread T
                  port K
                  run default for 60ms
                """)
            let engine = Self.answers(ScenarioRunner.run(scenario).events, on: "T")
            let reference = Self.answers(try CFOracle.run(scenario), on: "T")
            let flags: (QueryAnswer) -> QueryAnswer? = { if case .date = $0 { nil } else { $0 } }
            #expect(
                engine.map(flags) == [.flag(false), .flag(true), nil, .flag(true)])
            #expect(reference.map(flags) == engine.map(flags))
            #expect(engine[2] == .date(.zero + .milliseconds(300)))
            guard case .date(let real) = reference[2] else {
                Issue.record("CF gave no fire date: \(reference)")
                return
            }
            #expect(abs((real - (.zero + .milliseconds(300))).secondsValue) < DifferentialTests.tolerance.secondsValue)
        }
    }
    #endif
}
