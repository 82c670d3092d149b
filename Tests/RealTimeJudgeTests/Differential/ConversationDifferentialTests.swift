import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

/// Threads that talk over ports, on LoopEngine and on the real CFRunLoop, compared thread by thread
/// (``ThreadedTraceComparison``): `start T` of a thread declared `later` (`[thread start]`: a real thread that makes
/// its loop and items, then runs its program) and `send P on T` (a message to another thread's port, which wakes
/// that thread's loop by itself), as lesson 39 uses them.
@Suite("threads started on the way and sends to their ports agree with the real CFRunLoop", .serialized)
struct ConversationDifferentialTests {
    static func ms(_ value: Int) -> Duration { .milliseconds(value) }

    /// `A` starts `B` at 20 ms (twice: the second start starts nothing) and sleeps in a run that returns after a
    /// source; `B` sends to A's port at 30 ms more. `C` is declared `later` and never started: it never runs.
    static let starts = Scenario(
        name: "start a thread on the way",
        threads: [
            ThreadSpec(
                name: "A", items: [.port("inbox", [ScriptStep(.note("A: inbox"))])],
                program: [
                    .work(ms(20)), .start(thread: "B"), .start(thread: "B"), .note("A: B started"),
                    .run(.inMode(.default, seconds: 0.3, returnAfterSourceHandled: true)),
                ]),
            ThreadSpec(
                name: "B", items: [],
                program: [.work(ms(30)), .send("inbox", count: 1), .note("B: sent")], startsLater: true),
            ThreadSpec(name: "C", items: [], program: [.note("C: never")], startsLater: true),
        ])

    /// `A` sends to B's port before B has started (lost: the port does not exist yet), starts B, and 40 ms later
    /// sends it three messages; B's rash run wakes for them in one callout, and B stops there.
    static let sends = Scenario(
        name: "send to another thread's port",
        threads: [
            ThreadSpec(
                name: "A", items: [],
                program: [
                    .sendTo(thread: "B", port: "bport", count: 1), .start(thread: "B"), .work(ms(40)),
                    .sendTo(thread: "B", port: "bport", count: 3), .note("A: sent"),
                ]),
            ThreadSpec(
                name: "B", items: [.port("bport", [ScriptStep(.note("B: bport"))])],
                program: [.run(.inMode(.default, seconds: 0.3, returnAfterSourceHandled: true))], startsLater: true),
        ])

    #if os(Linux)
    /// Both sides' traces and their comparison.
    static func compare(
        _ scenario: Scenario, declared: [String]
    ) throws -> (comparison: ThreadedTraceComparison, engine: [LoopEvent], reference: [LoopEvent]) {
        try RealTimeGate.exclusive {
            let engine = ScenarioRunner.run(scenario).events
            let (comparison, reference) = try ThreadedTraceComparison.againstRealRun(
                engine: engine, scenario, declared: declared)
            return (comparison, engine, reference)
        }
    }

    /// A thread's life (not a compared step): its `threadCreate` and `threadExit`, named by the thread.
    static func life(of thread: String, in trace: [LoopEvent]) -> [String] {
        trace.filter { $0.loop == thread && ($0.kind == .threadCreate || $0.kind == .threadExit) }.map {
            "\($0.kind) \($0.name ?? "")"
        }
    }

    @Test("start T runs T's program on a thread of its own, once; a thread never started never runs")
    func startOnTheWay() throws {
        let (comparison, engine, reference) = try Self.compare(Self.starts, declared: ["A", "B", "C"])
        #expect(comparison.agrees, "\(comparison.sideBySide())")
        let threadA = comparison.threads[0].comparison
        let stepsA = [
            "note", "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
            "source1 inbox", "note", "exit", "result handledSource",
        ]
        #expect(threadA.reference.map(\.step) == stepsA, "\(comparison.sideBySide())")
        #expect(threadA.engine.map(\.step) == stepsA)
        let threadB = comparison.threads[1].comparison
        // B's note 30 ms after its start at 20 ms: B ran once, from A's first start.
        #expect(threadB.reference.map(\.step) == ["note"], "\(comparison.sideBySide())")
        #expect(threadB.engine.map(\.step) == ["note"])
        #expect(threadB.engine.map(\.time) == [LoopInstant.zero + Self.ms(50)])
        #expect(Self.life(of: "B", in: reference) == ["threadCreate B", "threadExit B"])
        #expect(Self.life(of: "B", in: engine) == ["threadCreate B", "threadExit B"])
        #expect(Self.life(of: "C", in: reference).isEmpty)
        #expect(comparison.threads[2].comparison.reference.isEmpty, "\(comparison.sideBySide())")
        #expect(comparison.threads[2].comparison.engine.isEmpty)
        #expect(comparison.threads.map(\.name) == ["A", "B", "C"])
    }

    @Test("send P on T wakes T's loop by itself; a send before T has started reaches nobody")
    func sendToAnotherThreadsPort() throws {
        let (comparison, _, reference) = try Self.compare(Self.sends, declared: ["A", "B"])
        #expect(comparison.agrees, "\(comparison.sideBySide())")
        let threadB = comparison.threads[1].comparison
        let stepsB = [
            "runStart default", "entry", "beforeTimers", "beforeSources", "beforeWaiting", "afterWaiting",
            "source1 bport", "note", "exit", "result handledSource",
        ]
        #expect(threadB.reference.map(\.step) == stepsB, "\(comparison.sideBySide())")
        #expect(threadB.engine.map(\.step) == stepsB)
        // B woke for the sends at 40 ms, not before (the first send was lost).
        let woke = try #require(threadB.reference.first { $0.step == "afterWaiting" }, "\(comparison.sideBySide())")
        #expect(woke.time >= .zero + Self.ms(40), "\(comparison.sideBySide())")
        #expect(Self.life(of: "B", in: reference) == ["threadCreate B", "threadExit B"])
    }
    #endif
}
