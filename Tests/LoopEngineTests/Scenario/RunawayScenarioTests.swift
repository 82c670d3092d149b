import LoopEngine
import Testing

/// Issue 10's small valid scenarios that brought loopviz down: virtual time that stood still (a loop that never
/// sleeps) and a callout that re-enters its loop without end. Each must end, with a typed outcome.
@Suite("runaway scenarios end")
struct RunawayScenarioTests {
    static let selfSignalling = """
        thread T
          port keepAlive in default
          source0 s in default
            signal s
          run default for 20ms
        at 1ms on T
          signal s
          wakeup
        """

    static let reentry = """
        thread T
          source0 s
            signal s
            run default for 1s
          run default for 1s
        at 1ms on T
          signal s
          wakeup
        """

    @Test("a source0 that signals itself times out at 20 ms with thousands of performs")
    func selfSignallingSourceTimesOut() throws {
        let scenario = try ScenarioParser.parse(Self.selfSignalling).scenario
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.haltReason == nil)
        let result = outcome.events.last
        #expect(result?.kind == .result && result?.name == "timedOut")
        let end = result?.time.nanoseconds ?? 0
        #expect(end >= 20_000_000 && end < 20_000_000 + VirtualWorld.defaultIterationCost.nanosecondsClamped)
        // The real CFRunLoop here performs it about 5,000-14,000 times (1.4-4 µs an iteration, with the machine's
        // load). At 1.5 µs an iteration: the first perform 1.5 µs after the wake at 1 ms, then one every 1.5 µs
        // until the iteration that ends at or after 20 ms.
        let performs = outcome.events.filter { $0.kind == .source0 }.count
        #expect((1_000...100_000).contains(performs))
        #expect(performs == 12_666)
    }

    @Test("a repeating timer with a tiny interval times out", arguments: ["1us", "1ns"])
    func tinyIntervalTimerTimesOut(_ interval: String) throws {
        let source = "thread T\n  timer t at 1ms every \(interval)\n  run default for 20ms"
        let outcome = ScenarioRunner.run(try ScenarioParser.parse(source).scenario)
        #expect(outcome.events.last?.name == "timedOut")
        // Late every time: it fires once per iteration and keeps its grid.
        let fires = outcome.events.filter { $0.kind == .timer }.count
        #expect(fires == 12_667)
    }

    @Test("a callout that re-enters its loop without end stops the world at the nesting limit, naming the callout")
    func deepReentryStopsAtTheLimit() throws {
        let outcome = ScenarioRunner.run(try ScenarioParser.parse(Self.reentry).scenario)
        let limit = NestingLimit(
            thread: "T", callout: NestingLimit.Callout(kind: .source0, name: "s"),
            depth: RunLoopCore.maximumNestingDepth)
        #expect(outcome.haltReason == .nestingLimit(limit))
        #expect(RunLoopCore.maximumNestingDepth == 256)
        // Every run up to the limit started, and the 256th performed s once more; nothing deeper.
        #expect(outcome.events.filter { $0.kind == .runStart }.count == 256)
        #expect(outcome.events.map(\.depth).max() == 256)
        #expect(outcome.events.filter { $0.kind == .source0 }.count == 256)
    }

    @Test("a port whose callout writes to it and runs the loop again names the port")
    func deepReentryThroughAPort() throws {
        let source = """
            thread T
              port p
                send p
                run default for 1s
              send p
              run default for 1s
            """
        let outcome = ScenarioRunner.run(try ScenarioParser.parse(source).scenario)
        #expect(
            outcome.haltReason
                == .nestingLimit(
                    NestingLimit(thread: "T", callout: NestingLimit.Callout(kind: .source1, name: "p"), depth: 256)))
    }

    @Test("a block that queues itself again and runs the loop names the block")
    func deepReentryThroughABlock() throws {
        let harness = VirtualHarness()
        harness.timer("keepAlive", at: 10_000)
        func again() {
            harness.loop.perform("b", modes: [.default]) {
                again()
                harness.loop.run(mode: .default, seconds: 1)
            }
        }
        again()
        harness.loop.run(mode: .default, seconds: 1)
        #expect(
            harness.world.haltReason
                == .nestingLimit(
                    NestingLimit(thread: "T", callout: NestingLimit.Callout(kind: .block, name: "b"), depth: 256)))
    }

    // The same re-entry on real threads: `RealNestingLimitTests` in RealTimeJudgeTests.
}

/// A repeated action stops with its world: `send P 100000000 times` under an event budget sends no more once the
/// budget halts the run (it went on sending for tens of seconds, every send after the halt unrecorded).
@Suite("repeated actions stop at the budget")
struct RepeatedActionBudgetTests {
    @Test("send N times stops sending once the event budget halts the world")
    func repeatedSendStopsAtTheBudget() throws {
        let scenario = try ScenarioParser.parse(
            """
            thread T
              port p in default
              run default for 1s
            at 1ms on T
              send p 100000000 times
            """
        ).scenario
        let (outcome, world) = ScenarioRunner.runHosted(scenario, maxEvents: 1_000)
        #expect(outcome.reachedEventLimit)
        let sends = outcome.events.filter { $0.kind == .send }.count
        #expect(sends > 900)
        // Every message sent is still unread on p (the loop never got to it): exactly the sends recorded.
        let pending = (0..<world.portCount).map { world.pendingMessages(PortID(rawValue: $0)) }.max() ?? 0
        #expect(pending == sends)
    }
}
