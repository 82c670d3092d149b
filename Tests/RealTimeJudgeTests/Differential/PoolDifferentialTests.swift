import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// Pool scenarios run on LoopEngine (virtual clock) and on Foundation's `OperationQueue` (real threads, real time);
/// ``PoolComparison`` must find them agreeing on start order under a limit of 1, the limit, outcomes and dependency
/// order. Durations are tens to hundreds of milliseconds with wide gaps, so that a loaded machine is late without
/// changing what happens.
@Suite("LoopEngine's operation queue agrees with Foundation's OperationQueue", .serialized)
struct PoolDifferentialTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func work(
        _ name: String, _ millis: Int, on queue: String = "Q", priority: QueuePriority = .normal,
        after: [String] = [], checkEvery: Int? = nil
    ) -> Action {
        .addOperation(
            queue: queue,
            OperationSpec(
                name: name, priority: priority, dependencies: after,
                body: .work(ms(millis), checkEvery: checkEvery.map(ms))))
    }

    static func async(_ name: String, on queue: String = "Q", replyAfter: Int? = nil) -> Action {
        .addOperation(queue: queue, OperationSpec(name: name, body: .async, replyAfter: replyAfter.map(ms)))
    }

    /// One program thread `P` (not the main thread) doing `program`, with `queues`.
    static func scenario(
        _ name: String, _ queues: [QueueSpec], _ program: [Action], outside: [OutsideEvent] = []
    ) -> Scenario {
        Scenario(
            name: name, threads: [ThreadSpec(name: "P", items: [], program: program)], outside: outside,
            queues: queues)
    }

    /// Runs `scenario` on both sides and compares; the engine's run must end by itself.
    static func compare(_ scenario: Scenario) throws -> PoolComparison {
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.haltReason == nil, "the engine did not end: \(String(describing: outcome.haltReason))")
        let reference = try RealTimeGate.exclusive { try FoundationPoolOracle.run(scenario) }
        return PoolComparison(engine: outcome.events, reference: reference, scenario: scenario)
    }

    static func explain(_ comparison: PoolComparison) -> Comment {
        "\(comparison.verdict)\n\(comparison.summary())\n\(comparison.eventListing())"
    }

    @Test("limit 1: a burst added while suspended starts by priority, FIFO within a level, once resumed")
    func prioritiesAfterResume() throws {
        let scenario = Self.scenario(
            "priorities", [QueueSpec(name: "Q", limit: 1, suspended: true)],
            [
                Self.work("a", 30, priority: .low), Self.work("b", 30), Self.work("c", 30, priority: .veryHigh),
                Self.work("d", 30, priority: .high), Self.work("e", 30), Self.work("f", 30, priority: .veryLow),
                Self.work("g", 30, priority: .veryHigh), .work(Self.ms(50)), .setSuspended(queue: "Q", false),
                .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        let expected = ["c", "g", "d", "b", "e", "a", "f"]
        #expect(comparison.engine.starts["Q"] == expected, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == expected, Self.explain(comparison))
    }

    @Test("limit 1: an idle queue starts the first operation added at once, then the rest by priority")
    func firstAddedStartsAtOnce() throws {
        let scenario = Self.scenario(
            "first at once", [QueueSpec(name: "Q", limit: 1)],
            [
                Self.work("a", 150, priority: .veryLow), Self.work("b", 30), Self.work("c", 30, priority: .high),
                .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == ["a", "c", "b"], Self.explain(comparison))
    }

    @Test("dependencies: an operation starts only after each dependency finished, priority notwithstanding")
    func dependencies() throws {
        let scenario = Self.scenario(
            "dependencies", [QueueSpec(name: "Q", limit: 1, suspended: true), QueueSpec(name: "W", limit: 3)],
            [
                Self.work("a", 40, priority: .low), Self.work("b", 40, priority: .veryHigh, after: ["a"]),
                Self.work("c", 40),
                Self.work("x", 150, on: "W"), Self.work("y", 40, on: "W", after: ["x"]),
                Self.work("z", 40, on: "W", after: ["x", "y"]), Self.work("v", 60, on: "W"),
                Self.work("u", 40, on: "W", after: ["v"]),
                .work(Self.ms(50)), .setSuspended(queue: "Q", false),
                .waitUntilAllFinished(queue: "Q"), .waitUntilAllFinished(queue: "W"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == ["c", "a", "b"], Self.explain(comparison))
        #expect(comparison.reference.outcomes.values.allSatisfy { $0 == .done }, Self.explain(comparison))
        #expect(comparison.reference.dependencyViolations.isEmpty)
    }

    @Test("cancel a queued operation: it never runs, and its dependent still runs after it")
    func cancelQueued() throws {
        let scenario = Self.scenario(
            "cancel queued", [QueueSpec(name: "Q", limit: 1)],
            [
                Self.work("a", 200), Self.work("b", 40), Self.work("c", 40), Self.work("d", 40, after: ["b"]),
                .work(Self.ms(60)), .cancelOperation("b"), .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == ["a", "c", "d"], Self.explain(comparison))
        #expect(comparison.reference.outcomes["b"] == .cancelledBeforeStart, Self.explain(comparison))
    }

    @Test("cancel running operations: one with check points stops early, one without runs to its end")
    func cancelRunning() throws {
        let scenario = Self.scenario(
            "cancel running", [QueueSpec(name: "Q", limit: 1)],
            [
                Self.work("a", 600, checkEvery: 50), Self.work("b", 300), Self.work("c", 40),
                .work(Self.ms(175)), .cancelOperation("a"), .work(Self.ms(125)), .cancelOperation("b"),
                .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        // a sees the cancel at its check point at 200; b starts then, is cancelled at 300 and runs to 500.
        #expect(comparison.reference.starts["Q"] == ["a", "b", "c"], Self.explain(comparison))
        #expect(comparison.reference.outcomes["a"] == .cancelledWhileRunning, Self.explain(comparison))
        #expect(comparison.reference.outcomes["b"] == .done, Self.explain(comparison))
        #expect(comparison.reference.outcomes["c"] == .done, Self.explain(comparison))
    }

    @Test("async operations hold their slot until finish (or a cancel); a finish that came early waits for the start")
    func asyncOperations() throws {
        let scenario = Self.scenario(
            "async", [QueueSpec(name: "Q", limit: 1)],
            [
                Self.async("up1"), Self.async("up2"), Self.async("up3"), Self.work("x", 30),
                .work(Self.ms(100)), .finishOperation("x"), .finishOperation("up2"), .work(Self.ms(100)),
                .finishOperation("up1"), .work(Self.ms(100)), .cancelOperation("up3"),
                .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == ["up1", "up2", "up3", "x"], Self.explain(comparison))
        #expect(comparison.reference.outcomes["up1"] == .done, Self.explain(comparison))
        #expect(comparison.reference.outcomes["up2"] == .done, Self.explain(comparison))
        #expect(comparison.reference.outcomes["up3"] == .cancelledWhileRunning, Self.explain(comparison))
        let notes = comparison.reference.events.filter { $0.kind == .note }.compactMap(\.detail)
        #expect(notes == ["finish x: it is not an asynchronous operation, it finishes by itself"])
    }

    @Test("an async operation's server reply finishes it a given time after it started")
    func asyncReply() throws {
        let scenario = Self.scenario(
            "reply", [QueueSpec(name: "Q", limit: 1)],
            [Self.async("up", replyAfter: 80), Self.work("x", 30), .waitUntilAllFinished(queue: "Q")])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.reference.starts["Q"] == ["up", "x"], Self.explain(comparison))
    }

    @Test("limit 2: a burst of 10 never has more than two executing")
    func burstUnderLimitTwo() throws {
        let scenario = Self.scenario(
            "burst", [QueueSpec(name: "Q", limit: 2)],
            (0..<10).map { Self.work("op\($0)", 100) } + [.waitUntilAllFinished(queue: "Q")])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        #expect(comparison.engine.maxExecuting["Q"] == 2)
        // Foundation's limit is a bound, not a promise: libdispatch gives the queue's dispatch queue about one
        // thread per core (the test runner's own blocked thread may hold one), so fewer may execute at once.
        #expect((1...2).contains(comparison.reference.maxExecuting["Q"] ?? 0), Self.explain(comparison))
        #expect(comparison.reference.outcomes.count == 10)
        #expect(comparison.reference.outcomes.values.allSatisfy { $0 == .done }, Self.explain(comparison))
    }

    @Test("limit changes, suspension and cancelAll from the program and from outside events")
    func limitsSuspensionAndCancelAll() throws {
        let scenario = Self.scenario(
            "limits", [QueueSpec(name: "Q", limit: 1, suspended: true)],
            [
                Self.work("a", 100), Self.work("b", 100), Self.work("c", 100), .setLimit(queue: "Q", 3),
                .setSuspended(queue: "Q", false), .work(Self.ms(500)), .setLimit(queue: "Q", 1),
                .setSuspended(queue: "Q", true), Self.work("d", 100), Self.work("e", 100), Self.work("f", 100),
                .waitUntilAllFinished(queue: "Q"),
            ],
            outside: [
                OutsideEvent(at: Self.ms(700), thread: "P", [.setSuspended(queue: "Q", false)]),
                OutsideEvent(at: Self.ms(750), thread: "P", [.cancelAll(queue: "Q")]),
            ])
        let comparison = try Self.compare(scenario)
        #expect(comparison.agrees, Self.explain(comparison))
        // a, b and c run side by side (as many at once as libdispatch gives threads, at most 3) and are done long
        // before 500; then limit 1 and suspended: d, e and f wait; resumed at 700: d starts; cancelAll at 750: d,
        // without check points, runs to its end, and e and f never start.
        #expect(comparison.engine.maxExecuting["Q"] == 3)
        #expect((1...3).contains(comparison.reference.maxExecuting["Q"] ?? 0), Self.explain(comparison))
        #expect(comparison.reference.starts["Q"]?.suffix(1) == ["d"], Self.explain(comparison))
        #expect(comparison.reference.outcomes["d"] == .done, Self.explain(comparison))
        #expect(comparison.reference.outcomes["e"] == .cancelledBeforeStart, Self.explain(comparison))
        #expect(comparison.reference.outcomes["f"] == .cancelledBeforeStart, Self.explain(comparison))
    }
}

/// Where an earlier model and Foundation's `OperationQueue` parted, found by the comparison: the engine used to
/// finish a cancelled queued operation at the cancel. It now keeps it in its place, as Foundation does (the queue
/// must still start it so that it can see the flag), and these cases agree.
@Suite("cancelled queued operations: LoopEngine's queue and Foundation's", .serialized)
struct PoolCancelledQueuedTests {
    @Test("a cancelled operation in a suspended queue never finishes, on either side, until a resume")
    func cancelledWhileSuspended() throws {
        let scenario = PoolDifferentialTests.scenario(
            "cancel while suspended", [QueueSpec(name: "Q", limit: 1, suspended: true)],
            [PoolDifferentialTests.work("a", 30), .work(.milliseconds(50)), .cancelOperation("a")])
        let comparison = try PoolDifferentialTests.compare(scenario)
        #expect(comparison.differences.isEmpty, PoolDifferentialTests.explain(comparison))
        #expect(comparison.engine.outcomes["a"] == .neverFinished, PoolDifferentialTests.explain(comparison))
    }

    @Test("a cancelled queued operation keeps its place: its dependent waits until the queue picks it up")
    func cancelledDependencyKeepsItsPlace() throws {
        // Limit 1; a runs; d, b and c (veryHigh, after b) wait; b is cancelled. b stays in its normal-priority
        // place behind d: d goes first, then b is picked up and finishes without running, and only then is c
        // ready.
        let scenario = PoolDifferentialTests.scenario(
            "cancelled dependency", [QueueSpec(name: "Q", limit: 1)],
            [
                PoolDifferentialTests.work("a", 200), PoolDifferentialTests.work("d", 40),
                PoolDifferentialTests.work("b", 40),
                PoolDifferentialTests.work("c", 40, priority: .veryHigh, after: ["b"]),
                .work(.milliseconds(60)), .cancelOperation("b"), .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try PoolDifferentialTests.compare(scenario)
        #expect(comparison.engine.starts["Q"] == ["a", "d", "c"], PoolDifferentialTests.explain(comparison))
        #expect(comparison.differences.isEmpty, PoolDifferentialTests.explain(comparison))
    }
}

extension PoolCancelledQueuedTests {
    /// Cancelling an operation that waits for its dependencies makes it ready (swift-corelibs' `cancel()` zeroes its
    /// unfinished-dependency count), so it finishes without running rather than waiting for them. When, on
    /// Foundation, depends on libdispatch giving the queue a thread - it believes a sleeping worker is busy - so only
    /// the outcome is compared.
    @Test("a cancelled operation waiting for a dependency finishes without running, on both sides")
    func cancelledOperationWaitingForADependency() throws {
        let scenario = PoolDifferentialTests.scenario(
            "cancel a dependent", [QueueSpec(name: "Q", limit: 2)],
            [
                PoolDifferentialTests.work("a", 200), PoolDifferentialTests.work("b", 30, after: ["a"]),
                .work(.milliseconds(50)), .cancelOperation("b"), .waitUntilAllFinished(queue: "Q"),
            ])
        let comparison = try PoolDifferentialTests.compare(scenario)
        #expect(comparison.differences.isEmpty, PoolDifferentialTests.explain(comparison))
        #expect(comparison.engine.outcomes["b"] == .cancelledBeforeStart, PoolDifferentialTests.explain(comparison))
        #expect(comparison.engine.outcomes["a"] == .done, PoolDifferentialTests.explain(comparison))
    }
}

/// Dependencies across queues (`addDependency` on an operation of another queue): Foundation readies the dependent
/// on its own queue when the dependency finishes on its queue - done, or cancelled while queued once that queue
/// gets to it - and so does the engine. (Cancelled while running, across queues, is in `CrossQueueDependencyTests`
/// on the virtual clock, and in lesson 22 under `loopviz compare`.)
@Suite("dependencies across queues: LoopEngine's queues and Foundation's", .serialized)
struct PoolCrossQueueDifferentialTests {
    @Test("a dependent on another queue starts only after its dependency finished there, done or cancelled")
    func dependentsOnAnotherQueue() throws {
        // A chain across two queues (limit 1 each), in both directions, so that one operation executes at a time:
        // net: a 0-100, b cancelled at 50 while queued (it finishes when net gets to it, at 100), c after u, d
        // after v. cpu gets its operations first, each waiting for one of net's not added yet: u (after b) runs at
        // 100-140, then c 140-240, v (after c) 240-280, d 280-380, w (after d) 380-420 - the reverse of the order
        // cpu's were added. s (after d) is cancelled at 60 while it waits: it is ready at once and finishes
        // without running. One operation at a time keeps Foundation's side off libdispatch's thread pool
        // decisions: on a busy 2-core machine a second pool thread can take most of a second to come (seen in
        // CI), which would move a cancel that should meet a running operation to before it started.
        func work(_ name: String, _ millis: Int, on queue: String, after: [String] = []) -> Action {
            PoolDifferentialTests.work(name, millis, on: queue, after: after)
        }
        let scenario = PoolDifferentialTests.scenario(
            "across queues", [QueueSpec(name: "net", limit: 1), QueueSpec(name: "cpu", limit: 1)],
            [
                work("w", 40, on: "cpu", after: ["d"]), work("v", 40, on: "cpu", after: ["c"]),
                work("u", 40, on: "cpu", after: ["b"]), work("s", 40, on: "cpu", after: ["d"]),
                work("a", 100, on: "net"), work("b", 100, on: "net"), work("c", 100, on: "net", after: ["u"]),
                work("d", 100, on: "net", after: ["v"]),
                .waitUntilAllFinished(queue: "cpu"), .waitUntilAllFinished(queue: "net"),
            ],
            outside: [
                OutsideEvent(at: .milliseconds(50), thread: "P", [.cancelOperation("b")]),
                OutsideEvent(at: .milliseconds(60), thread: "P", [.cancelOperation("s")]),
            ])
        let comparison = try PoolDifferentialTests.compare(scenario)
        let explanation = PoolDifferentialTests.explain(comparison)
        #expect(comparison.agrees, explanation)
        for side in [comparison.engine, comparison.reference] {
            #expect(side.starts["cpu"] == ["u", "v", "w"], explanation)
            #expect(side.starts["net"] == ["a", "c", "d"], explanation)
            #expect(side.dependencyViolations.isEmpty, explanation)
            let outcomes: [String: PoolComparison.Outcome] = [
                "a": .done, "b": .cancelledBeforeStart, "c": .done, "d": .done, "s": .cancelledBeforeStart,
                "u": .done, "v": .done, "w": .done,
            ]
            #expect(side.outcomes == outcomes, explanation)
        }
    }
}
