#if os(Linux)
import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real CFRunLoop reproduces the canonical traces of docs/cfrunloop.md §2.2, and the oracle refuses what it cannot
/// run.
@Suite("CF oracle smoke tests", .serialized)
struct OracleSmokeTests {
    /// `kind name` steps, without notes.
    private func steps(_ events: [LoopEvent]) -> [String] {
        events.filter { $0.kind != .note }.map(\.step)
    }

    /// The time of the first event with this step, in milliseconds from the scenario's start.
    private func milliseconds(of step: String, in events: [LoopEvent]) -> Double? {
        events.first { $0.step == step }.map { Double($0.time.nanoseconds) / 1e6 }
    }

    /// The time of the first event with this step, in milliseconds from the first `runStart`: a run's time limit
    /// counts from the call, not from the scenario's start (the real thread's set-up before it may be slow, as
    /// under ThreadSanitizer on a busy machine).
    private func millisecondsIntoRun(of step: String, in events: [LoopEvent]) -> Double? {
        guard let start = milliseconds(of: "runStart default", in: events) else { return nil }
        return milliseconds(of: step, in: events).map { $0 - start }
    }

    /// 20 ms, or `LOOPVIZ_TOLERANCE_MS` on a busy machine (the real CFRunLoop's threads run late there).
    static let tolerance: Double = {
        if let text = getenv("LOOPVIZ_TOLERANCE_MS"), let value = Double(String(cString: text)) { return value }
        return 20
    }()

    private func expectNear(_ value: Double?, _ expected: Double, tolerance: Double = Self.tolerance) {
        guard let value else {
            Issue.record("missing event, expected at \(expected) ms")
            return
        }
        #expect(abs(value - expected) <= tolerance, "at \(value) ms, expected \(expected) ms")
    }

    @Test("a runaway scenario stops at the oracle's event budget, not its time limit, keeping the first events")
    func runawayStopsAtTheEventBudget() throws {
        try RealTimeGate.exclusive {
            let script = try ScenarioParser.parse(
                """
                thread T
                  source0 s in default
                    signal s
                  run default for 30s
                at 1ms on T
                  signal s
                  wakeup
                """)
            // Were the budget not noticed, the 30 s time limit would end the run, as `timedOut`.
            #expect {
                _ = try CFOracle.run(script.scenario, timeLimit: .seconds(30), maxEvents: 1_000)
            } throws: { error in
                guard case CFOracleError.reachedEventLimit(let limit, let partial) = error else { return false }
                return limit == 1_000 && partial.count == 1_000
                    && Array(steps(partial).prefix(5)) == [
                        "schedule s", "runStart default", "entry", "beforeTimers", "beforeSources",
                    ]
                    && steps(partial).contains("source0 s")
            }
        }
    }

    @Test("an idle keep-alive mode sleeps until its time limit and times out")
    func idleKeepAliveTimesOut() throws {
        try RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "idle keep-alive", items: [.port("keepAlive")],
                program: [.run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false))])
            let events = try CFOracle.run(scenario)
            #expect(
                steps(events) == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "exit",
                    "result timedOut",
                ])
            expectNear(millisecondsIntoRun(of: "beforeWaiting", in: events), 0)
            expectNear(millisecondsIntoRun(of: "afterWaiting", in: events), 200)
            expectNear(millisecondsIntoRun(of: "result timedOut", in: events), 200)
            #expect(events.allSatisfy { $0.loop == "T" && $0.depth == 1 && $0.mode == "default" })
        }
    }

    @Test("a lone one-shot timer fires after the wait and the mode then finishes")
    func loneOneShotTimerFinishes() throws {
        try RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "lone timer", items: [.timer("T1", first: .milliseconds(50))],
                program: [.run(.inMode(.default, seconds: 1, returnAfterSourceHandled: false))])
            let events = try CFOracle.run(scenario)
            #expect(
                steps(events) == [
                    "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
                    "timer T1", "exit", "result finished",
                ])
            expectNear(milliseconds(of: "afterWaiting", in: events), 50)
            expectNear(milliseconds(of: "timer T1", in: events), 50)
            expectNear(milliseconds(of: "result finished", in: events), 50)
        }
    }

    @Test("a source0 signalled before the run is performed in a polling iteration")
    func signalledSourcePolls() throws {
        try RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "signalled source0", items: [.source0("A")],
                program: [.signal("A"), .run(.inMode(.default, seconds: 0.2, returnAfterSourceHandled: false))])
            let events = try CFOracle.run(scenario)
            #expect(
                steps(events) == [
                    "schedule A", "runStart default", "entry", "beforeTimers", "beforeSources", "source0 A",
                    "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
                ])
            expectNear(millisecondsIntoRun(of: "source0 A", in: events), 0)
            expectNear(millisecondsIntoRun(of: "afterWaiting", in: events), 200)
        }
    }

    @Test("an outside stop ends CFRunLoopRun; wrappers get no runStart or result")
    func outsideStopEndsRunUntilStopped() throws {
        try RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "outside stop", items: [.port("keepAlive")], program: [.run(.untilStopped), .note("after")],
                outside: [OutsideEvent(at: .milliseconds(50), [.stop])])
            let events = try CFOracle.run(scenario)
            #expect(
                steps(events) == ["entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit"])
            expectNear(milliseconds(of: "afterWaiting", in: events), 50)
            #expect(events.last?.kind == .note && events.last?.detail == "after" && events.last?.depth == 0)
        }
    }

    @Test("scripts: call numbers, a block in two modes, a nested run and a stop from an observer")
    func scripts() throws {
        try RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "scripts",
                items: [
                    .source0("A", [ScriptStep(.performBlock("B", modes: [.default, "ModeX"], [.note("in B")]))]),
                    .source0("P", modes: ["ModeX"]),
                    .observer(
                        "O", [.beforeWaiting],
                        [ScriptStep(.note("first wait"), when: .call(1)), ScriptStep(.stop, when: .call(2))]),
                    .timer(
                        "K", first: .milliseconds(30),
                        [
                            ScriptStep(.signal("P")),
                            ScriptStep(.run(.inMode("ModeX", seconds: 0, returnAfterSourceHandled: false))),
                        ]),
                ],
                program: [.signal("A"), .run(.inMode(.default, seconds: 1, returnAfterSourceHandled: false))])
            let events = try CFOracle.run(scenario)
            #expect(
                steps(events) == [
                    "schedule A", "schedule P", "runStart default", "entry", "beforeTimers", "beforeSources",
                    "source0 A", "block B",
                    "beforeTimers", "beforeSources", "beforeWaiting", "observer O", "afterWaiting", "timer K",
                    "runStart ModeX", "entry", "beforeTimers", "beforeSources", "source0 P", "exit", "result timedOut",
                    "beforeTimers", "beforeSources", "beforeWaiting", "observer O", "afterWaiting", "exit",
                    "result stopped",
                ])
            expectNear(milliseconds(of: "timer K", in: events), 30)
            #expect(events.filter { $0.kind == .note }.compactMap(\.detail) == ["in B", "first wait"])
            #expect(events.first { $0.step == "observer O" }?.detail == "beforeWaiting")
            let nested = events.filter { $0.mode == "ModeX" }
            #expect(nested.count == 7 && nested.allSatisfy { $0.depth == 2 })
        }
    }

    @Test("unsupported scenarios are refused before anything runs")
    func unsupported() {
        let main = Scenario(
            name: "main", threads: [ThreadSpec(name: "M", isMain: true, items: [], program: [])])
        let darwin = Scenario(name: "darwin", profile: .darwin, items: [], program: [])
        let mainQueue = Scenario(name: "mq", items: [], program: [.mainQueue("M", [])])
        let outsideRun = Scenario(
            name: "outside run", items: [], program: [],
            outside: [OutsideEvent(at: .zero, [.run(.untilStopped)])])
        // The main thread's spec runs on the caller, which must be the process's main thread (not a test's).
        #expect(CFOracle.unsupportedReason(main)?.contains("off the process's main thread") == true)
        for scenario in [main, darwin, mainQueue, outsideRun] {
            #expect(CFOracle.unsupportedReason(scenario) != nil, "\(scenario.name)")
            #expect(throws: CFOracleError.self) { try CFOracle.run(scenario) }
        }
    }

    @Test("a run nested in an outside event's block is the loop's own (supported); a run of the outside thread is not")
    func nestedOutsideRun() {
        let nested = Scenario(
            name: "nested", items: [], program: [],
            outside: [OutsideEvent(at: .zero, [.performBlock("b", modes: [.default], [.run(.untilStopped)])])])
        #expect(CFOracle.unsupportedReason(nested) == nil)
        let direct = Scenario(
            name: "direct", items: [], program: [], outside: [OutsideEvent(at: .zero, [.run(.untilStopped)])])
        #expect(
            CFOracle.unsupportedReason(direct)
                == "a run in an outside event (it would run the outside thread's own loop)")
    }

    @Test("a scenario that never ends is stopped at its time limit")
    func timeLimit() {
        RealTimeGate.exclusive {
            let scenario = Scenario(
                name: "forever", items: [.port("keepAlive")], program: [.run(.foundationForever)])
            let start = ContinuousClock.now
            do {
                _ = try CFOracle.run(scenario, timeLimit: .milliseconds(200))
                Issue.record("expected a time-out")
            } catch CFOracleError.timedOut(_, let partial) {
                #expect(steps(partial).starts(with: ["entry", "beforeTimers", "beforeSources", "beforeWaiting"]))
            } catch {
                Issue.record("unexpected error \(error)")
            }
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }
}
#endif
