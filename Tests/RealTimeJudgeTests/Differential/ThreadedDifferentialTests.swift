import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// Scenarios of several real threads on LoopEngine and on the real CFRunLoop, compared thread by thread
/// (``ThreadedTraceComparison``): `perform … on THREAD` with and without `wait`, built in the oracle as Darwin's
/// Foundation does it, since Linux Foundation has no `performSelector:onThread:`.
@Suite("threads agree with the real CFRunLoop", .serialized)
struct ThreadedDifferentialTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    /// `caller` hands `job` (30 ms) to `worker` without waiting at 50 ms, then `job2` (20 ms) with `wait` at 150 ms.
    static let performs = Scenario(
        name: "perform on another thread",
        threads: [
            ThreadSpec(
                name: "caller", items: [],
                program: [
                    .work(ms(50)),
                    .performOn(thread: "worker", task: "job", wait: false, [.work(ms(30)), .note("worker: job ran")]),
                    .note("caller: job handed over"), .work(ms(100)),
                    .performOn(thread: "worker", task: "job2", wait: true, [.work(ms(20))]),
                    .note("caller: job2 done"),
                ]),
            ThreadSpec(
                name: "worker", items: [.port("keepAlive")],
                program: [.run(.inMode(.default, seconds: 0.3, returnAfterSourceHandled: false))]),
        ])

    /// The worker's trace: asleep, woken by each perform (its perform source in the common modes), the task in the
    /// source's callout.
    static let workerSteps = [
        "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
        "afterWaiting", "beforeTimers", "beforeSources", "source0 performSelector", "perform job", "note",
        "beforeTimers", "beforeSources", "beforeWaiting",
        "afterWaiting", "beforeTimers", "beforeSources", "source0 performSelector", "perform job2",
        "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting", "exit", "result timedOut",
    ]

    #if os(Linux)
    @Test("perform without wait returns at once; with wait the caller goes on only once the task has run")
    func performWithAndWithoutWait() throws {
        try RealTimeGate.exclusive {
            let engine = ScenarioRunner.run(Self.performs).events
            let comparison = try ThreadedTraceComparison.againstRealRun(
                engine: engine, Self.performs, declared: ["caller", "worker"]
            ).comparison
            #expect(comparison.agrees, "\(comparison.sideBySide())")
            let worker = try #require(comparison.threads.first { $0.name == "worker" }).comparison
            #expect(worker.reference.map(\.step) == Self.workerSteps, "\(comparison.sideBySide())")
            #expect(worker.engine.map(\.step) == Self.workerSteps)
            // The caller's two notes: at once after the hand-over (50 ms), and after job2's 20 ms (170 ms).
            let caller = try #require(comparison.threads.first { $0.name == "caller" }).comparison
            #expect(
                caller.engine.map(\.time) == [
                    LoopInstant.zero + Self.ms(50), LoopInstant.zero + Self.ms(170) + .nanoseconds(1500),
                ])
            let times = caller.reference.map(\.time)
            try #require(times.count == 2, "\(comparison.sideBySide())")
            // Against the real worker's own trace, not a wall-clock bound: on a busy machine the worker's steps are
            // late too. Step 11 is the worker's first step after job's callout returned.
            let jobEnded = try #require(worker.reference.dropFirst(11).first).time
            #expect(times[0] < jobEnded, "no wait: the caller went on before the 30 ms job ended")
            #expect(times[1] >= .zero + Self.ms(170), "wait: the caller went on only after job2 ran")
        }
    }

    @Test("a task a thread performs on itself with wait runs at once; a detached thread's send reaches another's port")
    func inlineAndDetached() throws {
        let scenario = Scenario(
            name: "inline and detached",
            threads: [
                ThreadSpec(
                    name: "A",
                    items: [.port("inbox", [ScriptStep(.note("A: inbox"))])],
                    program: [
                        .performOn(thread: "A", task: "self", wait: true, [.note("A: inline")]),
                        .detach(task: "helper", [.work(Self.ms(40)), .send("inbox", count: 1)]),
                        .run(.inMode(.default, seconds: 0.1, returnAfterSourceHandled: true)),
                    ])
            ])
        try RealTimeGate.exclusive {
            let engine = ScenarioRunner.run(scenario).events
            let comparison = try ThreadedTraceComparison.againstRealRun(engine: engine, scenario, declared: ["A"])
                .comparison
            #expect(comparison.agrees, "\(comparison.sideBySide())")
            #expect(comparison.threads.map(\.name) == ["A", "helper"])
            let threadA = comparison.threads[0].comparison
            #expect(
                threadA.reference.map(\.step) == [
                    "note", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting",
                    "afterWaiting", "source1 inbox", "note", "exit", "result handledSource",
                ], "\(comparison.sideBySide())")
        }
    }
    #endif

    @Test("a wait that did not wait is a late step on the waiting thread")
    func waitThatDidNotWait() {
        func note(_ time: Duration, _ loop: String) -> LoopEvent {
            LoopEvent(
                time: .zero + time, loop: loop, depth: 0, mode: nil, iteration: 0, kind: .note, name: nil,
                fact: .note(.say("done")))
        }
        let engine = [note(Self.ms(170), "caller")]
        let comparison = ThreadedTraceComparison(
            engine: engine, reference: [note(Self.ms(110), "caller")], declared: ["caller", "worker"],
            tolerance: Self.ms(25))
        #expect(!comparison.agrees)
        #expect(comparison.differing.map(\.name) == ["caller"])
        #expect(comparison.threads[0].comparison.lateSteps == [0])
        #expect(comparison.stepCounts == "caller 1 step, worker 0 steps")
        let agreeing = ThreadedTraceComparison(
            engine: engine, reference: [note(Self.ms(175), "caller")], declared: ["caller"], tolerance: Self.ms(25))
        #expect(agreeing.agrees)
    }
}
