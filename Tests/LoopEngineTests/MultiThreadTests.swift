import LoopEngine
import Testing

/// Several threads, each with its own loop, on one virtual clock: they interleave deterministically (one runs at a
/// time, picked by the world), and a scenario always gives the same trace.
@Suite("several threads on one virtual clock")
struct MultiThreadTests {
    // MARK: - Fixtures

    /// A version-1 source nobody writes: it keeps a worker's default mode from being empty.
    static let keepAlive = ItemSpec.port("K")

    /// A worker thread `W` that keeps its loop alive and runs it as `call` says.
    static func worker(_ call: RunCall, named name: String = "W", items: [ItemSpec] = []) -> ThreadSpec {
        ThreadSpec(name: name, items: [keepAlive] + items, program: [.run(call)])
    }

    /// `CFRunLoopRunInMode(default, seconds, false)`.
    static func runDefault(_ seconds: Double) -> RunCall {
        .inMode(.default, seconds: seconds, returnAfterSourceHandled: false)
    }

    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    /// Every event as `milliseconds loop step (detail)`: both loops, engine-only events included.
    static func lines(_ outcome: ScenarioRunner.Outcome) -> [String] {
        outcome.events.map { event in
            "\(event.time.nanoseconds / 1_000_000) \(event.loop) \(event.step)"
                + (event.detail.map { " (\($0))" } ?? "")
        }
    }

    /// The main thread hands `task` to the worker `W` after 10 ms of work, then says "main goes on".
    static func handOff(wait: Bool, task: [Action]) -> Scenario {
        Scenario(
            name: "hand-off",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [],
                    program: [
                        .work(ms(10)), .performOn(thread: "W", task: "job", wait: wait, task), .note("main goes on"),
                    ]),
                worker(runDefault(0.05)),
            ])
    }

    // MARK: - Hand-offs

    @Test("a task performed on a worker without waiting: the main thread goes on, the worker runs it when woken")
    func performWithoutWaiting() {
        let outcome = ScenarioRunner.run(Self.handOff(wait: false, task: [.note("job on W")]))
        #expect(outcome.haltReason == nil)
        #expect(
            Self.lines(outcome) == [
                "0 W schedule K (mode default)",
                "0 W runStart default (limit 0.050s)", "0 W entry", "0 W beforeTimers", "0 W beforeSources",
                "0 W beforeWaiting", "0 W sleep (until time limit at 0.050)",
                // At 10 ms the main thread queues the task, signals the perform source and wakes the worker...
                "10 W schedule performSelector (mode default)", "10 W signal performSelector", "10 W wakeUp",
                // ...and goes on: the worker runs only when the main thread gives the CPU away (its program ends).
                "10 main note (main goes on)",
                "10 W wake (wakeUp)", "10 W afterWaiting", "10 W beforeTimers", "10 W beforeSources",
                "10 W source0 performSelector", "10 W perform job", "10 W note (job on W)",
                // Its queue empty, the perform source removes itself (docs/cfrunloop.md §17).
                "10 W cancel performSelector (mode default)",
                "10 W sleep (poll)", "10 W wake (nothing)",
                "10 W beforeTimers", "10 W beforeSources", "10 W beforeWaiting",
                "10 W sleep (until time limit at 0.050)",
                "50 W wakeUp (timeout)", "50 W wake (wakeUp)", "50 W afterWaiting", "50 W exit",
                "50 W result timedOut",
            ])
    }

    @Test("waitUntilDone: the main thread's program goes on only after the worker ran the task")
    func performAndWait() throws {
        let outcome = ScenarioRunner.run(Self.handOff(wait: true, task: [.work(Self.ms(5)), .note("job on W")]))
        let lines = Self.lines(outcome)
        let performed = try #require(lines.firstIndex(of: "10 W perform job"))
        let taskDone = try #require(lines.firstIndex(of: "15 W note (job on W)"))
        let mainGoesOn = try #require(lines.firstIndex(of: "15 main note (main goes on)"))
        #expect(performed < taskDone)
        #expect(taskDone < mainGoesOn)
        // Without waiting, the same note comes before the task even starts.
        let early = Self.lines(ScenarioRunner.run(Self.handOff(wait: false, task: [.work(Self.ms(5))])))
        let earlyNote = try #require(early.firstIndex(of: "10 main note (main goes on)"))
        let earlyPerform = try #require(early.firstIndex(of: "10 W perform job"))
        #expect(earlyNote < earlyPerform)
    }

    @Test("waitUntilDone on the caller's own thread runs the task inline")
    func performAndWaitOnOwnThread() {
        let scenario = Scenario(
            name: "inline",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [],
                    program: [.performOn(thread: "main", task: "job", wait: true, [.note("job")]), .note("after")]),
                Self.worker(Self.runDefault(0.01)),
            ])
        let main = Self.lines(ScenarioRunner.run(scenario)).filter { $0.contains(" main ") }
        #expect(
            main == [
                "0 main note (perform job inline (waitUntilDone on its own thread))", "0 main note (job)",
                "0 main note (after)",
            ])
    }

    @Test("two threads that wait for each other's task deadlock: the world halts idle")
    func waitCycleHaltsIdle() {
        let scenario = Scenario(
            name: "deadlock",
            threads: [
                ThreadSpec(
                    name: "A", items: [Self.keepAlive],
                    program: [
                        .performOn(thread: "B", task: "toB", wait: true, [.note("never")]),
                        .run(Self.runDefault(1)),
                    ]),
                ThreadSpec(
                    name: "B", items: [Self.keepAlive],
                    program: [
                        .performOn(thread: "A", task: "toA", wait: true, [.note("never")]),
                        .run(Self.runDefault(1)),
                    ]),
            ])
        let (outcome, world) = ScenarioRunner.runHosted(scenario)
        #expect(outcome.haltReason == .idle)
        #expect(outcome.endTime == .zero)
        #expect(!outcome.events.contains { $0.kind == .perform })
        #expect(world.osThreadsStarted == 1 && world.osThreadsJoined == 1)
    }

    @Test("a main-queue block sent from a worker runs on the main thread's loop")
    func mainQueueFromWorker() {
        let scenario = Scenario(
            name: "back to main",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [],
                    program: [
                        .performOn(
                            thread: "W", task: "fetch", wait: false, [.work(Self.ms(20)), .mainQueue("show", [])]),
                        .run(.inMode(.default, seconds: 0.05, returnAfterSourceHandled: true)),
                    ]),
                Self.worker(Self.runDefault(0.05)),
            ])
        let callouts = ScenarioRunner.run(scenario).events.filter(\.kind.isCallout).map {
            "\($0.time.nanoseconds / 1_000_000) \($0.loop) \($0.step)"
        }
        #expect(callouts == ["0 W source0 performSelector", "0 W perform fetch", "20 main mainQueue show"])
    }

    // MARK: - Interleaving

    @Test(
        "repeating timers of two threads interleave by time; at the same instant the thread declared first goes first")
    func timersInterleaveByTime() {
        // Without the iteration cost: this is the tie-break at one instant. With a cost, A's iteration cost at 60 ms
        // lets B run meanwhile (another CPU), which the cost model's own tests cover (IterationCostTests).
        let scenario = Scenario(
            name: "two timers",
            threads: [
                Self.worker(
                    Self.runDefault(0.1), named: "A", items: [.timer("TA", first: Self.ms(30), every: Self.ms(30))]),
                Self.worker(
                    Self.runDefault(0.1), named: "B", items: [.timer("TB", first: Self.ms(20), every: Self.ms(20))]),
            ], iterationCost: .zero)
        let outcome = ScenarioRunner.run(scenario)
        let fires = outcome.events.filter { $0.kind == .timer || $0.kind == .result }.map {
            "\($0.time.nanoseconds / 1_000_000) \($0.loop) \($0.step)"
        }
        #expect(
            fires == [
                "20 B timer TB", "30 A timer TA", "40 B timer TB", "60 A timer TA", "60 B timer TB", "80 B timer TB",
                "90 A timer TA", "100 A result timedOut", "100 B timer TB", "100 B result timedOut",
            ])
        // Each thread's whole turn at 60 ms (wake to sleep) comes before the other's starts.
        let at60 = Self.lines(outcome).filter { $0.hasPrefix("60 ") }.map { $0.split(separator: " ")[1] }
        #expect(at60 == Array(repeating: "A", count: 7) + Array(repeating: "B", count: 7))
    }

    /// Three threads that hand tasks to each other both ways, with and without waiting, work in callouts, fire
    /// timers, hop to the main queue and get outside events.
    static let threeThreads = Scenario(
        name: "three",
        threads: [
            ThreadSpec(
                name: "main", isMain: true,
                items: [
                    .timer(
                        "tick", first: ms(5), every: ms(15),
                        [
                            ScriptStep(
                                .performOn(thread: "W1", task: "a", wait: false, [.work(ms(4))]), when: .call(1)),
                            ScriptStep(.performOn(thread: "W2", task: "b", wait: true, [.work(ms(6))]), when: .call(2)),
                            ScriptStep(.work(ms(2))),
                        ]),
                    .port("P"),
                ],
                program: [.run(.inMode(.default, seconds: 0.12, returnAfterSourceHandled: false))]),
            ThreadSpec(
                name: "W1",
                items: [
                    .port("K1"),
                    .timer(
                        "t1", first: ms(12), every: ms(25),
                        [
                            ScriptStep(.work(ms(3))),
                            ScriptStep(.mainQueue("m", [.note("on main")]), when: .call(2)),
                            ScriptStep(.send("P", count: 1), when: .call(3)),
                        ]),
                ],
                program: [.work(ms(3)), .run(.whileNot(flag: "quit", mode: .default))]),
            ThreadSpec(
                name: "W2",
                items: [.port("K2"), .timer("t2", first: ms(7), every: ms(11), [ScriptStep(.work(ms(1)))])],
                program: [
                    .run(.inMode(.default, seconds: 0.09, returnAfterSourceHandled: false)),
                    .performOn(thread: "W1", task: "quit", wait: true, [.setFlag("quit")]),
                    .note("W2 done"),
                ]),
        ],
        outside: [
            OutsideEvent(at: ms(33), thread: "W1", [.send("K1", count: 2)]),
            OutsideEvent(at: ms(33), thread: "W2", [.wakeUp]),
            OutsideEvent(at: ms(50), thread: "main", [.setNextFireDate("t2", after: ms(1))]),
        ])

    @Test("a three-thread scenario gives byte-identical traces, run after run")
    func threeThreadsAreDeterministic() {
        let first = ScenarioRunner.run(Self.threeThreads)
        let firstText = first.events.map { String(describing: $0) }
        // Not a vacuous check: every loop did things, and the run ended because every program did.
        #expect(Set(first.events.map(\.loop)) == ["main", "W1", "W2"])
        #expect(first.haltReason == nil)
        #expect(firstText.contains { $0.contains("W2 done") })
        for _ in 1..<20 {
            let again = ScenarioRunner.run(Self.threeThreads)
            #expect(again.events.map { String(describing: $0) } == firstText)
            #expect(again.endTime == first.endTime)
        }
    }

    @Test("a run halted at its N-th event is the first N events of the whole run (replay), with threads too")
    func replayIsAPrefix() {
        let whole = ScenarioRunner.run(Self.threeThreads).events
        for count in stride(from: 1, through: whole.count, by: 7) {
            let (outcome, world) = ScenarioRunner.runHosted(Self.threeThreads, maxEvents: count)
            #expect(outcome.events == Array(whole.prefix(count)))
            #expect(world.osThreadsJoined == 2)
        }
    }

    // MARK: - Halting and the OS threads

    @Test("a worker nobody stops keeps waiting after the main program ends: the world halts idle, threads joined")
    func neverStoppedWorkerHaltsIdle() {
        let scenario = Scenario(
            name: "kept alive",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [],
                    program: [.work(Self.ms(10)), .performOn(thread: "W", task: "job", wait: false, [])]),
                Self.worker(.whileNot(flag: "done", mode: .default)),
            ])
        let (outcome, world) = ScenarioRunner.runHosted(scenario)
        #expect(outcome.haltReason == .idle)
        // W's loop performs the task in one iteration and polls in the next (a source0 ran), each paying the
        // iteration cost, then sleeps for good.
        #expect(outcome.endTime == LoopInstant.zero + Self.ms(10) + VirtualWorld.defaultIterationCost * 2)
        #expect(outcome.events.last.map { "\($0.loop) \($0.step) \($0.detail ?? "")" } == "W sleep indefinitely")
        #expect(world.osThreadsStarted == 1)
        #expect(world.osThreadsJoined == 1)
    }

    @Test("the horizon halts every thread, working, waiting or blocked, and unwinds them without further callouts")
    func horizonHaltsBusyThreads() {
        let scenario = Scenario(
            name: "horizon",
            threads: [
                ThreadSpec(name: "main", isMain: true, items: [], program: [.work(.seconds(5)), .note("never")]),
                Self.worker(
                    .untilStopped,
                    items: [.timer("T", first: Self.ms(400), every: Self.ms(400), [ScriptStep(.work(Self.ms(300)))])]),
                // Blocked for good: the main thread never runs its loop.
                ThreadSpec(
                    name: "X", items: [],
                    program: [.performOn(thread: "main", task: "t", wait: true, []), .note("never")]),
            ])
        let (outcome, world) = ScenarioRunner.runHosted(scenario, horizon: .seconds(1))
        #expect(outcome.haltReason == .horizon)
        #expect(outcome.endTime == LoopInstant.zero + .seconds(1))
        #expect(!outcome.events.contains { $0.detail == "never" })
        // The worker was inside its second timer callout (800 ms + 300 ms of work) when time ran out.
        #expect(
            outcome.events.last.map { "\($0.time.nanoseconds / 1_000_000) \($0.loop) \($0.step)" } == "800 W timer T")
        #expect(world.osThreadsStarted == 2)
        #expect(world.osThreadsJoined == 2)
    }

    @Test("a scenario with one thread starts no OS thread")
    func oneThreadStaysOnTheCaller() {
        let (outcome, world) = ScenarioRunner.runHosted(
            Scenario(name: "one", items: [Self.keepAlive], program: [.run(Self.runDefault(0.01))]))
        #expect(outcome.haltReason == nil)
        #expect(world.osThreadsStarted == 0)
    }

    // MARK: - Which caller is outside (docs/cfrunloop.md §9.4)

    /// A worker with a timer `WT` due at 1 s, running its default mode for 100 ms; `main` works 30 ms first.
    static func reschedule(fromMain: Bool) -> Scenario {
        let reschedule = Action.setNextFireDate("WT", after: ms(10))
        return Scenario(
            name: "setNextFireDate",
            threads: [
                ThreadSpec(
                    name: "main", isMain: true, items: [], program: [.work(ms(30))] + (fromMain ? [reschedule] : [])),
                worker(
                    runDefault(0.1),
                    items: [.timer("WT", first: .seconds(1))]
                        + (fromMain ? [] : [.timer("T0", first: ms(30), [ScriptStep(reschedule)])])),
            ])
    }

    @Test("setNextFireDate from another virtual thread wakes the timer's loop")
    func setNextFireDateFromAnotherThreadWakes() {
        let worker = Self.lines(ScenarioRunner.run(Self.reschedule(fromMain: true))).filter { $0.contains(" W ") }
        #expect(
            worker.drop { !$0.hasPrefix("30 ") }.prefix(9) == [
                "30 W wakeUp (setNextFireDate)", "30 W wake (wakeUp)", "30 W afterWaiting", "30 W beforeTimers",
                "30 W beforeSources", "30 W beforeWaiting",
                "30 W sleep (until timer WT at 0.040 or time limit at 0.100)",
                "40 W wake (timer port)", "40 W afterWaiting",
            ])
        #expect(worker.contains("40 W timer WT"))
    }

    @Test("setNextFireDate from the timer's own thread does not wake its loop")
    func setNextFireDateFromOwnThreadDoesNotWake() {
        let outcome = ScenarioRunner.run(Self.reschedule(fromMain: false))
        #expect(!outcome.events.contains { $0.kind == .wakeUp && $0.detail == "setNextFireDate" })
        let worker = Self.lines(outcome).filter { $0.contains(" W ") }
        #expect(
            worker.drop { !$0.hasPrefix("30 ") }.prefix(9) == [
                "30 W wake (timer port)", "30 W afterWaiting", "30 W timer T0", "30 W beforeTimers",
                "30 W beforeSources", "30 W beforeWaiting",
                "30 W sleep (until timer WT at 0.040 or time limit at 0.100)",
                "40 W wake (timer port)", "40 W afterWaiting",
            ])
        #expect(worker.contains("40 W timer WT"))
    }
}
