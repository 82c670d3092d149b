import LoopEngine
import Testing

/// Dependencies on operations of another queue (Foundation's `addDependency` across queues) on the virtual clock,
/// as exact pool traces: the dependent becomes ready on its own queue when the dependency finishes on its queue,
/// with the same rules as a dependency on the same queue (a cancelled dependency counts as finished once it
/// finishes; cancelling the dependent makes it ready at once).
@Suite("dependencies across operation queues (virtual clock)")
struct CrossQueueDependencyTests {
    static func work(_ name: String, on queue: String, _ millis: Int, after: [String] = []) -> Action {
        .addOperation(
            queue: queue,
            OperationSpec(name: name, dependencies: after, body: .work(.milliseconds(millis), checkEvery: nil)))
    }

    /// A scenario whose main thread does `program`, with `queues`.
    static func scenario(_ queues: [QueueSpec], _ program: [Action], outside: [OutsideEvent] = []) -> Scenario {
        Scenario(
            name: "across queues", threads: [ThreadSpec(name: "main", items: [], program: program)],
            outside: outside, queues: queues)
    }

    /// The pool's events but `opAdd`, `threadCreate` and `threadExit`, as `ms thread kind name (detail)`.
    static func lines(_ scenario: Scenario) -> [String] {
        let outcome = ScenarioRunner.run(scenario)
        return outcome.events.filter(\.kind.isPool).filter {
            ![.opAdd, .threadCreate, .threadExit].contains($0.kind)
        }.map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.loop) \(event.step)"
                + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test func anOperationBecomesReadyOnItsOwnQueueWhenItsDependencyOnAnotherQueueFinishes() {
        // b is added first, to P, and waits for a, added afterwards to N.
        let scenario = Self.scenario(
            [QueueSpec(name: "N", limit: 1), QueueSpec(name: "P", limit: 1)],
            [Self.work("b", on: "P", 20, after: ["a"]), Self.work("a", on: "N", 50), .waitUntilAllFinished(queue: "P")])
        #expect(
            Self.lines(scenario) == [
                "0 N opReady a", "0 P queue waitAll", "0 N.1 opStart a (new thread)", "50 N.1 opFinish a (done)",
                "50 P opReady b", "50 P.1 opStart b (new thread)", "70 P.1 opFinish b (done)",
            ])
    }

    @Test func aCancelledDependencyOnAnotherQueueCountsAsFinishedWhenItsQueueGetsToIt() {
        // b is cancelled while it waits behind a; it finishes without running when N gets to it, at 100 ms, and only
        // then are c (after b) and d (after a and b) ready on P.
        let scenario = Self.scenario(
            [QueueSpec(name: "N", limit: 1), QueueSpec(name: "P", limit: 2)],
            [
                Self.work("a", on: "N", 100), Self.work("b", on: "N", 100), Self.work("c", on: "P", 10, after: ["b"]),
                Self.work("d", on: "P", 10, after: ["a", "b"]),
            ],
            outside: [OutsideEvent(at: .milliseconds(50), thread: "main", [.cancelOperation("b")])])
        #expect(
            Self.lines(scenario) == [
                "0 N opReady a", "0 N opReady b", "0 N.1 opStart a (new thread)",
                "50 N opCancel b (queued: it finishes when the queue starts it)", "100 N.1 opFinish a (done)",
                "100 N.1 opFinish b (cancelled before it started)", "100 P opReady c", "100 P opReady d",
                "100 P.1 opStart c (new thread)", "100 P.2 opStart d (new thread)", "110 P.1 opFinish c (done)",
                "110 P.2 opFinish d (done)",
            ])
    }

    @Test func aDependencyOnASuspendedQueueHoldsItsDependentButCancellingTheDependentMakesItReadyAtOnce() {
        let scenario = Self.scenario(
            [QueueSpec(name: "N", limit: 1, suspended: true), QueueSpec(name: "P", limit: 1)],
            [
                Self.work("a", on: "N", 10), Self.work("b", on: "P", 10, after: ["a"]),
                Self.work("c", on: "P", 10, after: ["a"]), .work(.milliseconds(30)), .cancelOperation("c"),
            ])
        #expect(
            Self.lines(scenario) == [
                "0 N opReady a", "30 P opCancel c (queued: it finishes when the queue starts it)", "30 P opReady c",
                "30 P.1 opFinish c (cancelled before it started)",
            ])
    }

    @Test func anOperationWaitsForEveryDependencyWhateverQueueEachIsOnAndOneAlreadyFinishedCountsAtOnce() {
        // c waits for a (Q) and b (R); d, on Q, waits for c (S); e is added after d finished: it is ready at once.
        let scenario = Self.scenario(
            [QueueSpec(name: "Q", limit: 1), QueueSpec(name: "R", limit: 1), QueueSpec(name: "S", limit: 1)],
            [
                Self.work("a", on: "Q", 10), Self.work("b", on: "R", 40),
                Self.work("c", on: "S", 10, after: ["a", "b"]),
                Self.work("d", on: "Q", 10, after: ["c"]), .work(.milliseconds(100)),
                Self.work("e", on: "R", 10, after: ["d"]),
            ])
        #expect(
            Self.lines(scenario) == [
                "0 Q opReady a", "0 R opReady b", "0 Q.1 opStart a (new thread)", "0 R.1 opStart b (new thread)",
                "10 Q.1 opFinish a (done)", "40 R.1 opFinish b (done)", "40 S opReady c",
                "40 S.1 opStart c (new thread)", "50 S.1 opFinish c (done)", "50 Q opReady d",
                "50 Q.1 opStart d (reused thread (1 before))", "60 Q.1 opFinish d (done)", "100 R opReady e",
                "100 R.1 opStart e (reused thread (1 before))", "110 R.1 opFinish e (done)",
            ])
    }

    @Test func aDependencyOnAnotherQueueOrdersWorkAsADependencyOnTheSameQueueDoes() {
        // The same three operations, first all on one queue, then the dependent on a second queue of its own: the
        // starts and finishes happen at the same times (only the queue readying c differs).
        func steps(_ queueOfC: String) -> [String] {
            let scenario = Self.scenario(
                [QueueSpec(name: "Q", limit: 2), QueueSpec(name: "R", limit: 2)],
                [
                    Self.work("a", on: "Q", 30), Self.work("b", on: "Q", 50),
                    Self.work("c", on: queueOfC, 10, after: ["a", "b"]),
                ])
            return ScenarioRunner.run(scenario).events.filter { [.opStart, .opFinish].contains($0.kind) }.map {
                "\($0.time.nanoseconds / 1_000_000) \($0.step)"
            }
        }
        let expected = [
            "0 opStart a", "0 opStart b", "30 opFinish a", "50 opFinish b", "50 opStart c", "60 opFinish c",
        ]
        #expect(steps("Q") == expected)
        #expect(steps("R") == expected)
    }

    @Test func dependenciesAcrossQueuesAreDeterministic() {
        // A ladder: each rung waits for the one before it, on the other queue.
        let program = (1...12).map { index in
            Self.work(
                "r\(index)", on: index % 2 == 0 ? "Q" : "R", 5 + index % 3,
                after: index > 2 ? ["r\(index - 2)", "r\(index - 1)"] : [])
        }
        let scenario = Self.scenario(
            [QueueSpec(name: "Q", limit: 2), QueueSpec(name: "R", limit: 1)],
            program + [.waitUntilAllFinished(queue: "Q"), .waitUntilAllFinished(queue: "R")])
        let first = ScenarioRunner.run(scenario)
        #expect(first.haltReason == nil)
        #expect(first.events == ScenarioRunner.run(scenario).events)
        let finished = first.events.filter { $0.kind == .opFinish }.compactMap(\.name)
        #expect(finished == (1...12).map { "r\($0)" })
    }
}
