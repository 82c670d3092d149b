import LoopEngine
import Testing

/// ``PoolComparison`` on hand-made traces: what it compares, what it only reports, and how it explains a difference.
@Suite("comparing two pool traces")
struct PoolComparisonTests {
    /// A pool event at `ms` milliseconds.
    static func event(
        _ ms: Int, _ thread: String, _ kind: LoopEvent.Kind, _ name: String, _ fact: LoopEvent.Fact? = nil
    ) -> LoopEvent {
        LoopEvent(
            time: .zero + .milliseconds(ms), loop: thread, depth: 0, mode: nil, iteration: 0, kind: kind, name: name,
            fact: fact)
    }

    static func add(_ ms: Int, _ name: String, queue: String = "Q") -> LoopEvent {
        event(ms, queue, .opAdd, name, .operation(LoopEvent.OperationFacts(OperationSpec(name: name))))
    }

    static func start(_ ms: Int, _ name: String, on thread: String) -> LoopEvent {
        event(ms, thread, .opStart, name)
    }

    static func done(
        _ ms: Int, _ name: String, on thread: String, _ outcome: LoopEvent.FinishOutcome = .done
    ) -> LoopEvent {
        event(ms, thread, .opFinish, name, .finish(outcome))
    }

    static func operation(_ name: String, after: [String] = []) -> OperationSpec {
        OperationSpec(name: name, dependencies: after, body: .work(.milliseconds(10), checkEvery: nil))
    }

    static let abc = [operation("a"), operation("b"), operation("c")]

    /// a, b, c one after another on one thread.
    static func serial(_ order: [String], thread: String, step: Int = 10) -> [LoopEvent] {
        var events = ["a", "b", "c"].map { add(0, $0) }
        for (index, name) in order.enumerated() {
            events.append(start(index * step, name, on: thread))
            events.append(done(index * step + step, name, on: thread))
        }
        return events
    }

    @Test("the same starts, outcomes and limits agree, whatever the threads and the times")
    func agreement() {
        let comparison = PoolComparison(
            engine: Self.serial(["a", "b", "c"], thread: "Q.1"),
            reference: Self.serial(["a", "b", "c"], thread: "worker 3", step: 37),
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(comparison.agrees, "\(comparison.verdict)")
        #expect(comparison.verdict == "the pools agree")
        #expect(comparison.engine.threads["Q"] == ["Q.1"])
        #expect(comparison.reference.threads["Q"] == ["worker 3"])
        #expect(comparison.summary().contains("threads used (not compared)"))
    }

    @Test("under a limit of 1 the start order must agree, and the difference names the first mismatch")
    func startOrder() {
        let comparison = PoolComparison(
            engine: Self.serial(["a", "c", "b"], thread: "Q.1"),
            reference: Self.serial(["a", "b", "c"], thread: "worker 1"),
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(comparison.differences.map(\.check) == [.startOrder])
        #expect(
            comparison.firstDifference?.explanation
                == "queue Q (limit 1): operation number 2 to start was c on LoopEngine but b on Foundation "
                + "(LoopEngine: a, c, b; Foundation: a, b, c)")
    }

    @Test("an operation one side never started shows as a start-order difference under a limit of 1")
    func startOrderPrefix() {
        var reference = Self.serial(["a", "b"], thread: "worker 1")
        reference.append(Self.add(0, "c"))
        let comparison = PoolComparison(
            engine: Self.serial(["a", "b", "c"], thread: "Q.1"), reference: reference,
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(comparison.differences.map(\.check) == [.startOrder, .outcome])
        #expect(comparison.differences[0].explanation.contains("LoopEngine started c as its operation number 3"))
        #expect(comparison.differences[1].explanation == "c: LoopEngine done, Foundation never finished")
    }

    @Test("a wider queue's start order is reported but not compared")
    func widerQueueOrderIsNotCompared() {
        let comparison = PoolComparison(
            engine: Self.serial(["a", "c", "b"], thread: "Q.1"),
            reference: Self.serial(["a", "b", "c"], thread: "worker 1"),
            queues: [QueueSpec(name: "Q", limit: 2)], operations: Self.abc)
        #expect(comparison.agrees, "\(comparison.verdict)")
        #expect(comparison.summary().contains("start order (not compared: limit above 1)"))
    }

    /// a and b overlap: b starts at 5 while a runs until 10.
    static var overlapping: [LoopEvent] {
        [
            add(0, "a"), add(0, "b"), start(0, "a", on: "w1"), start(5, "b", on: "w2"), done(10, "a", on: "w1"),
            done(15, "b", on: "w2"),
        ]
    }

    @Test("a start over the limit in force is a difference on whichever side it happens")
    func limitExceeded() {
        let serial = [
            Self.add(0, "a"), Self.add(0, "b"), Self.start(0, "a", on: "Q.1"), Self.done(10, "a", on: "Q.1"),
            Self.start(10, "b", on: "Q.1"), Self.done(20, "b", on: "Q.1"),
        ]
        let comparison = PoolComparison(
            engine: serial, reference: Self.overlapping,
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(comparison.differences.map(\.check) == [.limit])
        #expect(
            comparison.firstDifference?.explanation
                == "Foundation started b on queue Q while 1 executed (a), over its limit 1")
        #expect(comparison.reference.maxExecuting["Q"] == 2)
    }

    @Test("limit changes are followed: raised, two may overlap; lowered, no new start until below it")
    func limitChanges() {
        let raise = Self.event(0, "Q", .queue, "limit", .limit(.count(2)))
        let raised = PoolComparison(
            engine: [raise] + Self.overlapping, reference: [raise] + Self.overlapping,
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(raised.agrees, "\(raised.verdict)")

        // Lowered to 1 while a and b execute: nothing stops, but c may not start before both finished.
        let before = [
            Self.add(0, "a"), Self.add(0, "b"), Self.add(0, "c"), Self.start(0, "a", on: "w1"),
            Self.start(5, "b", on: "w2"), Self.event(6, "Q", .queue, "limit", .limit(.count(1))),
            Self.done(10, "a", on: "w1"),
        ]
        let early =
            before + [
                Self.start(12, "c", on: "w1"), Self.done(15, "b", on: "w2"), Self.done(20, "c", on: "w1"),
            ]
        let late =
            before + [
                Self.done(15, "b", on: "w2"), Self.start(15, "c", on: "w1"), Self.done(20, "c", on: "w1"),
            ]
        let comparison = PoolComparison(
            engine: late, reference: early, queues: [QueueSpec(name: "Q", limit: 2)], operations: Self.abc)
        #expect(comparison.differences.map(\.check) == [.limit])
        #expect(comparison.firstDifference?.explanation.contains("started c on queue Q while 1 executed (b)") == true)
    }

    @Test("a queue at the default limit is not checked against a limit")
    func defaultLimitIsNotChecked() {
        let comparison = PoolComparison(
            engine: Self.overlapping, reference: Self.overlapping, queues: [QueueSpec(name: "Q")],
            operations: Self.abc)
        #expect(comparison.agrees, "\(comparison.verdict)")
        let defaulted = PoolComparison(
            engine: [Self.event(0, "Q", .queue, "limit", .limit(.automatic(width: 4)))] + Self.overlapping,
            reference: [Self.event(0, "Q", .queue, "limit", .limit(.automatic(width: nil)))] + Self.overlapping,
            queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        #expect(defaulted.agrees, "\(defaulted.verdict)")
    }

    @Test("outcomes must agree; a done after a late cancel is still done")
    func outcomes() {
        let engine = [
            Self.add(0, "a"), Self.add(0, "b"), Self.add(0, "c"),
            Self.event(1, "Q", .opCancel, "b", .cancel(.queued)), Self.done(1, "b", on: "Q", .cancelledBeforeStart),
            Self.start(0, "a", on: "Q.1"),
            Self.done(10, "a", on: "Q.1", .doneAfterLateCancel),
            Self.start(10, "c", on: "Q.1"), Self.done(15, "c", on: "Q.1", .cancelledWhileRunning),
        ]
        let reference = [
            Self.add(0, "a"), Self.add(0, "b"), Self.add(0, "c"),
            Self.start(0, "a", on: "worker 1"), Self.done(10, "a", on: "worker 1"),
            Self.start(10, "b", on: "worker 1"), Self.done(20, "b", on: "worker 1"),
            Self.start(20, "c", on: "worker 1"), Self.done(25, "c", on: "worker 1", .cancelledWhileRunning),
        ]
        let comparison = PoolComparison(
            engine: engine, reference: reference, queues: [QueueSpec(name: "Q", limit: 1)], operations: Self.abc)
        // b started on Foundation: the start order differs too (a, c against a, b, c).
        #expect(comparison.differences.map(\.check) == [.startOrder, .outcome])
        #expect(comparison.differences[1].explanation == "b: LoopEngine cancelled before it started, Foundation done")
        #expect(comparison.engine.outcomes["a"] == .done)
    }

    @Test("an operation that never finished on one side is an outcome difference")
    func neverFinished() {
        let engine = [Self.add(0, "a"), Self.done(1, "a", on: "Q", .cancelledBeforeStart)]
        let reference = [Self.add(0, "a")]
        let comparison = PoolComparison(
            engine: engine, reference: reference, queues: [QueueSpec(name: "Q", limit: 1, suspended: true)],
            operations: [Self.operation("a")])
        #expect(comparison.differences.map(\.check) == [.outcome])
        #expect(
            comparison.firstDifference?.explanation
                == "a: LoopEngine cancelled before it started, Foundation never finished")
        #expect(comparison.verdict.hasPrefix("first difference - outcome: a: LoopEngine"))
    }

    @Test("a start before a dependency finished is a difference on whichever side it happens")
    func dependencyOrder() {
        let operations = [Self.operation("a"), Self.operation("b", after: ["a"])]
        let good = [
            Self.add(0, "a"), Self.add(0, "b"), Self.start(0, "a", on: "w1"), Self.done(10, "a", on: "w1"),
            Self.start(10, "b", on: "w2"), Self.done(20, "b", on: "w2"),
        ]
        let bad = [
            Self.add(0, "a"), Self.add(0, "b"), Self.start(0, "a", on: "w1"), Self.start(5, "b", on: "w2"),
            Self.done(10, "a", on: "w1"), Self.done(20, "b", on: "w2"),
        ]
        let comparison = PoolComparison(
            engine: good, reference: bad, queues: [QueueSpec(name: "Q")], operations: operations)
        #expect(comparison.differences.map(\.check) == [.dependency])
        #expect(comparison.firstDifference?.explanation == "Foundation started b before its dependency a finished")
        let agreeing = PoolComparison(
            engine: good, reference: good, queues: [QueueSpec(name: "Q")], operations: operations)
        #expect(agreeing.agrees)
    }

    @Test("a start before a dependency of another queue finished is a difference, naming both queues")
    func dependencyOrderAcrossQueues() {
        let operations = [Self.operation("a"), Self.operation("b", after: ["a"])]
        let good = [
            Self.add(0, "a", queue: "N"), Self.add(0, "b", queue: "P"), Self.start(0, "a", on: "w1"),
            Self.done(10, "a", on: "w1"), Self.start(10, "b", on: "w2"), Self.done(20, "b", on: "w2"),
        ]
        let bad = [
            Self.add(0, "a", queue: "N"), Self.add(0, "b", queue: "P"), Self.start(0, "a", on: "w1"),
            Self.start(5, "b", on: "w2"), Self.done(10, "a", on: "w1"), Self.done(20, "b", on: "w2"),
        ]
        let queues = [QueueSpec(name: "N"), QueueSpec(name: "P")]
        let comparison = PoolComparison(engine: bad, reference: good, queues: queues, operations: operations)
        #expect(comparison.differences.map(\.check) == [.dependency])
        #expect(
            comparison.firstDifference?.explanation
                == "LoopEngine started b (queue P) before its dependency a (queue N) finished")
        #expect(PoolComparison(engine: good, reference: good, queues: queues, operations: operations).agrees)
    }

    @Test("an operation added on one side only is a difference")
    func addedOnOneSide() {
        let comparison = PoolComparison(
            engine: [Self.add(0, "a"), Self.add(0, "b")], reference: [Self.add(0, "a")],
            queues: [QueueSpec(name: "Q", suspended: true)], operations: Self.abc)
        #expect(comparison.differences.map(\.check) == [.added])
        #expect(comparison.firstDifference?.explanation == "LoopEngine added b, Foundation never did")
    }

    @Test("the dependencies come from every addOperation of a scenario, nested ones included")
    func operationsOfAScenario() {
        let scenario = Scenario(
            name: "s",
            threads: [
                ThreadSpec(
                    name: "A", items: [],
                    program: [
                        .addOperation(queue: "Q", Self.operation("a")),
                        .detach(task: "t", [.addOperation(queue: "Q", Self.operation("b", after: ["a"]))]),
                    ])
            ],
            outside: [OutsideEvent(at: .zero, thread: "A", [.addOperation(queue: "Q", Self.operation("c"))])],
            queues: [QueueSpec(name: "Q")])
        #expect(PoolComparison.operations(in: scenario).map(\.name) == ["a", "b", "c"])
    }
}
