import LoopEngine
import Testing

/// The operation queue's scheduling rules on the virtual clock, as exact pool traces.
@Suite("an operation queue on run-loop threads (virtual clock)")
struct PoolSchedulingTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    static func work(
        _ name: String, _ millis: Int, priority: QueuePriority = .normal, after: [String] = []
    )
        -> Action
    {
        .addOperation(
            queue: "Q",
            OperationSpec(name: name, priority: priority, dependencies: after, body: .work(ms(millis), checkEvery: nil))
        )
    }

    /// A scenario whose main thread does `program`, with one queue `Q`.
    static func scenario(_ queue: QueueSpec, _ program: [Action], outside: [OutsideEvent] = []) -> Scenario {
        Scenario(
            name: "pool", threads: [ThreadSpec(name: "main", items: [], program: program)], outside: outside,
            queues: [queue])
    }

    /// The pool's events only, as `ms thread kind name (detail)`.
    static func poolLines(_ scenario: Scenario) -> [String] {
        ScenarioRunner.run(scenario).events.filter(\.kind.isPool).map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.loop) \(event.step)"
                + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    @Test func aLimitOfOneRunsOperationsOneAfterAnotherOnOneReusedThread() {
        let lines = Self.poolLines(
            Self.scenario(
                QueueSpec(name: "Q", limit: 1, idleTimeout: .seconds(1)),
                [Self.work("a", 100), Self.work("b", 50), .waitUntilAllFinished(queue: "Q")]))
        #expect(
            lines == [
                "0 Q opAdd a (priority normal, work 0.100s)",
                "0 Q opReady a",
                "0 Q.1 threadCreate Q.1 (worker of Q)",
                "0 Q opAdd b (priority normal, work 0.050s)",
                "0 Q opReady b",
                "0 Q queue waitAll",
                "0 Q.1 opStart a (new thread)",
                "100 Q.1 opFinish a (done)",
                "100 Q.1 opStart b (reused thread (1 before))",
                "150 Q.1 opFinish b (done)",
                "1150 Q.1 threadExit Q.1 (idle for 1.000s: retired after 2 operations)",
            ])
    }
}

extension PoolSchedulingTests {
    static func add(
        _ name: String, _ body: OperationSpec.Body, priority: QueuePriority = .normal, after: [String] = [],
        queue: String = "Q"
    ) -> Action {
        .addOperation(queue: queue, OperationSpec(name: name, priority: priority, dependencies: after, body: body))
    }

    /// The pool events of kinds `kinds`, as `ms kind name`.
    static func steps(_ scenario: Scenario, _ kinds: Set<LoopEvent.Kind>) -> [String] {
        ScenarioRunner.run(scenario).events.filter { kinds.contains($0.kind) }.map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.step)"
        }
    }

    @Test func readyOperationsStartHighestPriorityFirstAndFirstAddedFirstWithinALevel() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1, suspended: true),
            [
                Self.work("a", 10, priority: .low), Self.work("b", 10), Self.work("c", 10, priority: .veryHigh),
                Self.work("d", 10, priority: .high), Self.work("e", 10), Self.work("f", 10, priority: .veryLow),
                .setSuspended(queue: "Q", false), .waitUntilAllFinished(queue: "Q"),
            ])
        #expect(
            Self.steps(scenario, [.opStart])
                == ["0 opStart c", "10 opStart d", "20 opStart b", "30 opStart e", "40 opStart a", "50 opStart f"])
    }

    @Test func anOperationStartsOnlyAfterEveryDependencyHasFinished() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 4),
            [
                Self.work("c", 10, after: ["b"]), Self.work("b", 20, after: ["a"]), Self.work("a", 30),
                Self.work("d", 5, after: ["a", "b"]), .waitUntilAllFinished(queue: "Q"),
            ])
        #expect(
            Self.steps(scenario, [.opReady, .opStart, .opFinish]) == [
                "0 opReady a", "0 opStart a", "30 opFinish a", "30 opReady b", "30 opStart b", "50 opFinish b",
                // c goes to Q.1, free again, which takes it in its next iteration (one iteration cost later); d
                // starts at once on a new thread.
                "50 opReady c", "50 opReady d", "50 opStart d", "50 opStart c", "55 opFinish d", "60 opFinish c",
            ])
    }

    @Test func aCancelledQueuedOperationKeepsItsPlaceAndFinishesWithoutRunningWhenTheQueueGetsToIt() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.work("a", 100), Self.work("b", 100), Self.work("c", 10, after: ["b"])],
            outside: [OutsideEvent(at: Self.ms(50), thread: "main", [.cancelOperation("b")])])
        let lines = Self.poolLines(scenario).filter { !$0.contains("opAdd") && !$0.contains("Q.1 thread") }
        #expect(
            lines == [
                "0 Q opReady a", "0 Q opReady b", "0 Q.1 opStart a (new thread)",
                "50 Q opCancel b (queued: it finishes when the queue starts it)", "100 Q.1 opFinish a (done)",
                "100 Q.1 opFinish b (cancelled before it started)", "100 Q opReady c",
                "100 Q.1 opStart c (reused thread (1 before))", "110 Q.1 opFinish c (done)",
            ])
    }

    @Test func aCancelledOperationInASuspendedQueueNeverFinishes() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1, suspended: true), [Self.work("a", 10), .cancelOperation("a")])
        #expect(Self.steps(scenario, [.opCancel, .opStart, .opFinish]) == ["0 opCancel a"])
    }

    @Test func cancellingAnOperationThatWaitsForDependenciesMakesItReadyAtOnce() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 2),
            [Self.work("a", 100), Self.work("b", 10, after: ["a"]), .cancelOperation("b")])
        #expect(
            Self.steps(scenario, [.opReady, .opFinish]) == [
                "0 opReady a", "0 opReady b", "0 opFinish b", "100 opFinish a",
            ])
    }

    @Test func withinALevelTheFirstAddedReadyOperationStartsFirstWhenEverItBecameReady() {
        // x is added first but becomes ready last (it waits for y); z was ready all along. Both are normal: x goes
        // first, as Foundation keeps each level's operations in the order they were added.
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.work("y", 50, priority: .high), Self.work("x", 10, after: ["y"]), Self.work("z", 10)])
        #expect(Self.steps(scenario, [.opStart]) == ["0 opStart y", "50 opStart x", "60 opStart z"])
    }

    @Test func aRunningOperationSeesTheCancelAtItsNextCheckPoint() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.add("a", .work(.seconds(1), checkEvery: Self.ms(100)))],
            outside: [OutsideEvent(at: Self.ms(250), thread: "main", [.cancelOperation("a")])])
        #expect(
            Self.steps(scenario, [.opCancel, .opFinish]) == ["250 opCancel a", "300 opFinish a"])
        let finish = ScenarioRunner.run(scenario).events.first { $0.kind == .opFinish }
        #expect(finish?.detail == "cancelled while running")
    }

    @Test func aRunningOperationWithoutCheckPointsRunsToItsEndDespiteACancel() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1), [Self.work("a", 500)],
            outside: [OutsideEvent(at: Self.ms(250), thread: "main", [.cancelOperation("a")])])
        let finish = ScenarioRunner.run(scenario).events.first { $0.kind == .opFinish }
        #expect(finish?.time == LoopInstant.zero + Self.ms(500))
        #expect(finish?.detail == "done (the cancel came with no check point left)")
    }

    @Test func anAsyncOperationHoldsItsWorkerAndItsSlotUntilItsSocketCallbackArrives() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.add("upload", .async), Self.work("next", 10)],
            outside: [OutsideEvent(at: Self.ms(300), thread: "main", [.finishOperation("upload")])])
        #expect(
            Self.steps(scenario, [.opStart, .opFinish])
                == ["0 opStart upload", "300 opFinish upload", "300 opStart next", "310 opFinish next"])
        // The worker's loop slept in the kernel until the socket's message woke it.
        let events = ScenarioRunner.run(scenario).events.filter { $0.loop == "Q.1" }
        #expect(events.contains { $0.kind == .sleep && $0.time == .zero })
        #expect(
            events.contains {
                $0.kind == .source1 && $0.name == "socket.upload" && $0.time == LoopInstant.zero + Self.ms(300)
            })
    }

    @Test func cancellingARunningAsyncOperationFinishesItThroughItsSocket() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1), [Self.add("upload", .async)],
            outside: [OutsideEvent(at: Self.ms(120), thread: "main", [.cancelOperation("upload")])])
        let finish = ScenarioRunner.run(scenario).events.first { $0.kind == .opFinish }
        #expect(finish?.time == LoopInstant.zero + Self.ms(120))
        #expect(finish?.detail == "cancelled while running")
    }

    @Test func aSocketMessageSentBeforeTheAsyncOperationStartsFinishesItAsSoonAsItStarts() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.work("first", 100), Self.add("upload", .async)],
            outside: [OutsideEvent(at: Self.ms(50), thread: "main", [.finishOperation("upload")])])
        #expect(
            Self.steps(scenario, [.opStart, .opFinish])
                == ["0 opStart first", "100 opFinish first", "100 opStart upload", "100 opFinish upload"])
    }

    @Test func aBurstOfTenOnALimitOfTwoCreatesTwoThreadsAndReusesThemEightTimes() {
        let adds = (1...10).map { Self.work("u\($0)", 100) }
        let events = ScenarioRunner.run(
            Self.scenario(QueueSpec(name: "Q", limit: 2), adds + [.waitUntilAllFinished(queue: "Q")])
        ).events
        #expect(events.filter { $0.kind == .threadCreate }.map(\.loop) == ["Q.1", "Q.2"])
        #expect(events.filter { $0.kind == .opStart && $0.detail == "new thread" }.count == 2)
        #expect(events.filter { $0.kind == .opStart && $0.detail?.hasPrefix("reused") == true }.count == 8)
        #expect(Self.maxExecuting(events) == 2)
        // At 0.5 s, to the millisecond (each hand-over to a worker costs it an iteration: microseconds).
        #expect(events.last { $0.kind == .opFinish }.map { $0.time.nanoseconds / 1_000_000 } == 500)
    }

    @Test func raisingTheLimitStartsWaitingOperationsAtOnceAndLoweringItStopsNothing() {
        let adds = (1...6).map { Self.work("u\($0)", 100) }
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1), adds,
            outside: [
                OutsideEvent(at: Self.ms(50), thread: "main", [.setLimit(queue: "Q", 3)]),
                OutsideEvent(at: Self.ms(120), thread: "main", [.setLimit(queue: "Q", 1)]),
            ])
        #expect(
            Self.steps(scenario, [.opStart]) == [
                "0 opStart u1", "50 opStart u2", "50 opStart u3", "100 opStart u4", "200 opStart u5",
                "300 opStart u6",
            ])
    }

    @Test func idleWorkersRetireAfterTheTimeoutAndTheNextOperationCreatesANewThread() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 2, idleTimeout: Self.ms(200)),
            [Self.work("a", 100), .work(Self.ms(500)), Self.work("b", 100)])
        #expect(
            Self.steps(scenario, [.threadCreate, .threadExit]) == [
                "0 threadCreate Q.1", "300 threadExit Q.1", "500 threadCreate Q.2", "800 threadExit Q.2",
            ])
    }

    @Test func aSuspendedQueueStartsNothingButLetsRunningOperationsFinish() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1), [Self.work("a", 100), Self.work("b", 100)],
            outside: [
                OutsideEvent(at: Self.ms(50), thread: "main", [.setSuspended(queue: "Q", true)]),
                OutsideEvent(at: Self.ms(400), thread: "main", [.setSuspended(queue: "Q", false)]),
            ])
        #expect(
            Self.steps(scenario, [.opStart, .opFinish, .queue]) == [
                "0 opStart a", "50 queue suspended", "100 opFinish a", "400 queue resumed", "400 opStart b",
                "500 opFinish b",
            ])
    }

    @Test func waitUntilAllOperationsAreFinishedBlocksTheCallerUntilTheQueueIsEmpty() {
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 2),
            [Self.work("a", 100), Self.work("b", 250), .waitUntilAllFinished(queue: "Q"), .note("main goes on")])
        let note = ScenarioRunner.run(scenario).events.first { $0.kind == .note && $0.detail == "main goes on" }
        #expect(note?.time == LoopInstant.zero + Self.ms(250))
    }

    @Test func oneDetachedThreadPerTaskCreatesAThreadForEveryTask() {
        let detaches = (1...4).map { Action.detach(task: "t\($0)", [.work(Self.ms(100))]) }
        let scenario = Scenario(name: "per task", threads: [ThreadSpec(name: "main", items: [], program: detaches)])
        #expect(
            Self.steps(scenario, [.threadCreate, .threadExit]) == [
                "0 threadCreate t1", "0 threadCreate t2", "0 threadCreate t3", "0 threadCreate t4",
                "100 threadExit t1", "100 threadExit t2", "100 threadExit t3", "100 threadExit t4",
            ])
    }

    @Test func thePoolIsDeterministic() {
        let adds = (1...10).map { Self.work("u\($0)", 30 + 10 * ($0 % 3), priority: $0 % 2 == 0 ? .high : .low) }
        let scenario = Self.scenario(QueueSpec(name: "Q", limit: 3), adds + [.waitUntilAllFinished(queue: "Q")])
        #expect(ScenarioRunner.run(scenario).events == ScenarioRunner.run(scenario).events)
    }

    /// The most operations executing at once, from opStart/opFinish events.
    static func maxExecuting(_ events: [LoopEvent]) -> Int {
        var executing = 0
        var most = 0
        for event in events {
            if event.kind == .opStart { executing += 1 }
            if event.kind == .opFinish && event.detail != "cancelled before it started" { executing -= 1 }
            most = max(most, executing)
        }
        return most
    }
}

extension PoolSchedulingTests {
    @Test func anAsyncOperationsServerReplyArrivesOnItsSocketTheGivenTimeAfterItStarted() {
        let upload = OperationSpec(name: "upload", body: .async, replyAfter: Self.ms(300))
        let scenario = Self.scenario(
            QueueSpec(name: "Q", limit: 1),
            [Self.work("first", 100), .addOperation(queue: "Q", upload), .waitUntilAllFinished(queue: "Q")])
        #expect(
            Self.steps(scenario, [.opStart, .opFinish])
                == ["0 opStart first", "100 opFinish first", "100 opStart upload", "400 opFinish upload"])
    }
}

extension PoolSchedulingTests {
    @Test func anOperationStillExecutingWhenTheRunEndsNeverFinishes() {
        // Nothing ever answers the upload: the world ends idle with it executing, and b never starts.
        let outcome = ScenarioRunner.run(
            Self.scenario(QueueSpec(name: "Q", limit: 1), [Self.add("up", .async), Self.work("b", 10)]))
        #expect(outcome.haltReason == .idle)
        #expect(outcome.events.filter { $0.kind == .opStart }.map(\.name) == ["up"])
        #expect(!outcome.events.contains { $0.kind == .opFinish })
    }
}

extension PoolSchedulingTests {
    /// How an upload can finish before its server's reply: its socket callback (`finish up`) or a cancel.
    static let waysToFinishFirst: [(Action, String)] = [
        (.finishOperation("up"), "done"), (.cancelOperation("up"), "cancelled while running"),
    ]

    @Test(arguments: waysToFinishFirst)
    func aServerReplyStillToComeIsCancelledWhenItsOperationFinishesFirst(finishFirst: Action, finished: String) {
        // The reply is due at 2 s; the upload finishes at 100 ms, its worker retires idle at 1.1 s, and main sleeps
        // forever on a port. Nothing can happen after the retirement but the reply: once it is cancelled, the world
        // ends idle at 1.1 s (a reply left scheduled would keep the world going until 2 s, to send on a socket no
        // loop has any more).
        let upload = OperationSpec(name: "up", body: .async, replyAfter: .seconds(2))
        let scenario = Scenario(
            name: "reply",
            threads: [
                ThreadSpec(
                    name: "main", items: [.port("K")],
                    program: [.addOperation(queue: "Q", upload), .run(.foundationForever)])
            ],
            outside: [OutsideEvent(at: Self.ms(100), thread: "main", [finishFirst])],
            queues: [QueueSpec(name: "Q", limit: 1, idleTimeout: .seconds(1))])
        let outcome = ScenarioRunner.run(scenario)
        #expect(outcome.haltReason == .idle)
        #expect(outcome.endTime.nanoseconds / 1_000_000 == 1100)
        let events = outcome.events
        #expect(
            events.filter { [.opStart, .opFinish, .threadExit].contains($0.kind) }.map {
                "\($0.time.nanoseconds / 1_000_000) \($0.step)\($0.detail.map { " (\($0))" } ?? "")"
            } == [
                "0 opStart up (new thread)", "100 opFinish up (\(finished))",
                "1100 threadExit Q.1 (idle for 1.000s: retired after 1 operation)",
            ])
        // The socket got one message, at 100 ms, and its loop handled it once: no reply came after.
        let socket = events.filter { $0.name == "socket.up" && [.send, .source1].contains($0.kind) }
        #expect(socket.map { "\($0.time.nanoseconds / 1_000_000) \($0.kind)" } == ["100 send", "100 source1"])
    }
}
