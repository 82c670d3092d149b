import LoopEngine
import Testing

/// The thread-pool part of the `.loop` language: queues, operation-queue actions and `detach`, parsed into the
/// exact ``Scenario`` values (the problems it reports are rows of ``ScenarioErrorCase``).
@Suite("the .loop parser reads operation queues and their actions")
struct ScenarioParserPoolTests {
    static func parse(_ source: String) throws -> LoopScript {
        try ScenarioParser.parse(source, file: "pool.loop")
    }

    /// The program of the only thread of `source` (with `queue q` and `queue r` declared above it).
    static func program(_ lines: String...) throws -> [Action] {
        let source = "queue q\nqueue r\nthread T\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        return try parse(source).scenario.threads[0].program
    }

    static func work(_ millis: Int, check: Int? = nil) -> OperationSpec.Body {
        .work(.milliseconds(millis), checkEvery: check.map { .milliseconds($0) })
    }

    @Test func queueDeclarationsBecomeQueueSpecsWithTheirLimitSuspensionAndIdleTimeout() throws {
        let script = try Self.parse(
            """
            queue plain
            queue narrow limit 2 suspended idle 250ms
            queue wide idle 1s limit default
            thread T
              wakeup
            """)
        #expect(
            script.scenario.queues == [
                QueueSpec(name: "plain"),
                QueueSpec(name: "narrow", limit: 2, suspended: true, idleTimeout: .milliseconds(250)),
                QueueSpec(name: "wide", limit: nil, idleTimeout: .seconds(1)),
            ])
    }

    @Test("a limit of 0 is Foundation's: the queue starts nothing until it is raised")
    func aLimitOfZeroStartsNothingUntilRaised() throws {
        let script = try Self.parse("queue q limit 0\nthread T\n  operation o on q work 10ms\n  work 50ms\n  limit q 1")
        #expect(script.scenario.queues == [QueueSpec(name: "q", limit: 0)])
        let starts = ScenarioRunner.run(script.scenario).events.filter { $0.kind == .opStart }
        #expect(starts.map(\.time) == [.zero + .milliseconds(50)])
    }

    @Test("a bad limit is one error, not also an unknown clause")
    func aBadLimitIsOneError() {
        #expect {
            _ = try Self.parse("queue cpu limit two\nthread T\n  wakeup")
        } throws: { error in
            (error as? ScenarioDiagnostics)?.diagnostics.map(\.message) == [
                "expected a limit: a whole number (0 or more) or 'default'; found 'two'"
            ]
        }
    }

    @Test func aQueueMayBeDeclaredAfterTheThreadsThatUseIt() throws {
        let script = try Self.parse("thread T\n  suspend late\nqueue late")
        #expect(script.scenario.queues == [QueueSpec(name: "late")])
        #expect(script.scenario.threads[0].program == [.setSuspended(queue: "late", true)])
    }

    @Test func anOperationLineBecomesAddOperationWithItsPriorityDependenciesAndBody() throws {
        let program = try Self.program(
            "operation a on q work 20ms",
            "operation b on q priority veryHigh after a work 30ms check every 5ms",
            "operation c on q async after a, b priority low",
            "operation d on q work 1ms after c priority veryLow",
            "operation e on q async reply after 300ms priority high")
        #expect(
            program == [
                .addOperation(queue: "q", OperationSpec(name: "a", body: Self.work(20))),
                .addOperation(
                    queue: "q",
                    OperationSpec(name: "b", priority: .veryHigh, dependencies: ["a"], body: Self.work(30, check: 5))),
                .addOperation(
                    queue: "q", OperationSpec(name: "c", priority: .low, dependencies: ["a", "b"], body: .async)),
                .addOperation(
                    queue: "q", OperationSpec(name: "d", priority: .veryLow, dependencies: ["c"], body: Self.work(1))),
                .addOperation(
                    queue: "q",
                    OperationSpec(name: "e", priority: .high, body: .async, replyAfter: .milliseconds(300))),
            ])
    }

    @Test func afterMayNameOperationsOfOtherQueuesEvenOnesAddedLater() throws {
        let program = try Self.program(
            "operation process on r after download, resize work 10ms",
            "operation download on q async",
            "operation resize on r work 5ms")
        #expect(
            program == [
                .addOperation(
                    queue: "r",
                    OperationSpec(name: "process", dependencies: ["download", "resize"], body: Self.work(10))
                ),
                .addOperation(queue: "q", OperationSpec(name: "download", body: .async)),
                .addOperation(queue: "r", OperationSpec(name: "resize", body: Self.work(5))),
            ])
    }

    @Test func everyPriorityWordIsRead() throws {
        for priority in QueuePriority.allCases {
            let program = try Self.program("operation a on q priority \(priority) work 1ms")
            #expect(
                program == [.addOperation(queue: "q", OperationSpec(name: "a", priority: priority, body: Self.work(1)))]
            )
        }
    }

    @Test func theQueueActionsBecomeTheirActions() throws {
        let program = try Self.program(
            "operation a on q async",
            "cancel a",
            "cancel all on r",
            "suspend q",
            "resume q",
            "limit q 3",
            "limit r default",
            "finish a",
            "wait for q")
        #expect(
            program == [
                .addOperation(queue: "q", OperationSpec(name: "a", body: .async)),
                .cancelOperation("a"),
                .cancelAll(queue: "r"),
                .setSuspended(queue: "q", true),
                .setSuspended(queue: "q", false),
                .setLimit(queue: "q", 3),
                .setLimit(queue: "r", nil),
                .finishOperation("a"),
                .waitUntilAllFinished(queue: "q"),
            ])
    }

    @Test func detachTakesItsIndentedActionsAsTheNewThreadsProgram() throws {
        let program = try Self.program(
            "detach logger",
            "  work 5ms",
            "  operation a on q work 1ms",
            "  detach inner",
            "    say \"nested\"",
            "detach idle")
        #expect(
            program == [
                .detach(
                    task: "logger",
                    [
                        .work(.milliseconds(5)),
                        .addOperation(queue: "q", OperationSpec(name: "a", body: Self.work(1))),
                        .detach(task: "inner", [.note("nested")]),
                    ]),
                .detach(task: "idle", []),
            ])
    }

    @Test func poolActionsWorkInCalloutsOutsideEventsAndPerformAndBlockBodies() throws {
        let script = try Self.parse(
            """
            queue q
            thread main main
              timer tick at 10ms
                operation fromTimer on q work 1ms
              block b
                suspend q
              perform job on worker
                limit q 1
              run default for 1s
            thread worker
              port keep
              run default for 1s
            at 5ms on worker
              operation fromOutside on q async
              detach helper
                finish fromOutside
            """)
        let main = script.scenario.threads[0]
        #expect(
            main.items[0].script == [
                ScriptStep(.addOperation(queue: "q", OperationSpec(name: "fromTimer", body: Self.work(1))))
            ])
        #expect(
            main.program == [
                .performBlock("b", modes: [.default], [.setSuspended(queue: "q", true)]),
                .performOn(thread: "worker", task: "job", wait: false, [.setLimit(queue: "q", 1)]),
                .run(.inMode(.default, seconds: 1, returnAfterSourceHandled: false)),
            ])
        #expect(
            script.scenario.outside == [
                OutsideEvent(
                    at: .milliseconds(5), thread: "worker",
                    [
                        .addOperation(queue: "q", OperationSpec(name: "fromOutside", body: .async)),
                        .detach(task: "helper", [.finishOperation("fromOutside")]),
                    ])
            ])
    }

    @Test func aRangeNameAddsOneOperationPerNumberWithTheSameOptions() throws {
        let program = try Self.program(
            "operation upload1..3 on q priority high after first work 10ms", "operation first on q work 1ms")
        let expected: [Action] = ["upload1", "upload2", "upload3"].map { name in
            .addOperation(
                queue: "q", OperationSpec(name: name, priority: .high, dependencies: ["first"], body: Self.work(10)))
        }
        #expect(Array(program.prefix(3)) == expected)
    }

    @Test func aRangeOfOneThousandIsAllowedAndALeadingZeroKeepsTheWidth() throws {
        let thousand = try Self.program("operation u1..1000 on q async")
        #expect(thousand.count == 1000)
        #expect(thousand.last == .addOperation(queue: "q", OperationSpec(name: "u1000", body: .async)))
        let padded = try Self.program("operation f08..11 on q work 1ms")
        let names = padded.compactMap { action -> String? in
            if case .addOperation(_, let spec) = action { return spec.name }
            return nil
        }
        #expect(names == ["f08", "f09", "f10", "f11"])
    }

    @Test func rangesNameOperationsInAfterCancelAndFinishToo() throws {
        let program = try Self.program(
            "operation up1..2 on q async", "operation done on q after up1..2 work 1ms", "cancel up1..2",
            "finish up1..2")
        #expect(
            program.dropFirst(2) == [
                .addOperation(
                    queue: "q", OperationSpec(name: "done", dependencies: ["up1", "up2"], body: Self.work(1))),
                .cancelOperation("up1"), .cancelOperation("up2"), .finishOperation("up1"), .finishOperation("up2"),
            ])
    }

    @Test func afterCancelAndFinishMayNameAnOperationAddedLaterInTheFile() throws {
        let script = try Self.parse(
            """
            queue q
            thread T
              cancel late
              finish late
              operation early on q after late work 1ms
            at 1s on T
              operation late on q async
            """)
        #expect(script.scenario.threads[0].program.count == 3)
    }

    @Test func existingActionsThatShareAWordWithThePoolStillParse() throws {
        let script = try Self.parse(
            """
            thread T
              port keep
              timer limit at 1ms
                add keep to default
                perform task on T wait
              stop
              remove keep from default
              invalidate limit
            """)
        let thread = script.scenario.threads[0]
        #expect(thread.items.map(\.name) == ["keep", "limit"])
        #expect(thread.program == [.stop, .remove("keep", .default), .invalidate("limit")])
    }

    @Test func expectLinesAcceptPoolEventsWorkerQueueAndDetachedThreadNames() throws {
        let script = try Self.parse(
            """
            queue uploads
            thread main
              operation u1 on uploads work 1ms
              detach logger
            expect in order
              uploads: opAdd u1
              uploads: opReady u1
              0.000 uploads.1: threadCreate uploads.1
              uploads.1: opStart u1
              opCancel u1
              uploads.12: opFinish u1
              logger: threadExit logger
              uploads: queue waitAll
            """)
        let steps = script.expectations[0].steps
        #expect(
            steps.map(\.kind) == [.opAdd, .opReady, .threadCreate, .opStart, .opCancel, .opFinish, .threadExit, .queue])
        #expect(
            steps.map(\.thread) == [
                "uploads", "uploads", "uploads.1", "uploads.1", nil, "uploads.12", "logger", "uploads",
            ])
        #expect(
            steps[2]
                == Expectation.Step(
                    time: .zero, resolution: .milliseconds(1), thread: "uploads.1", kind: .threadCreate,
                    name: "uploads.1", line: 8))
    }

    @Test func aParsedPoolScenarioRunsItsOperationsOnWorkerThreads() throws {
        let script = try Self.parse(
            """
            queue uploads limit 2 idle 1s
            thread main
              operation upload1..3 on uploads work 100ms
              operation send on uploads priority high after upload1, upload2 async
              wait for uploads
            at 300ms on main
              finish send
            expect in order
              uploads.1: opStart upload1
              uploads.2: opStart upload2
              0.100 opFinish upload1
              opStart send
              0.300 opFinish send
            """)
        let outcome = ScenarioRunner.run(script.scenario, horizon: .seconds(10))
        let starts = outcome.events.filter { $0.kind == .opStart }.compactMap(\.name)
        let finishes = outcome.events.filter { $0.kind == .opFinish }.compactMap(\.name)
        #expect(starts == ["upload1", "upload2", "upload3", "send"])
        #expect(Set(finishes) == ["upload1", "upload2", "upload3", "send"])
        #expect(outcome.events.first { $0.kind == .opFinish && $0.name == "send" }?.time == .zero + .milliseconds(300))
        #expect(script.expectations[0].check(outcome.events) == nil)
    }
}
