import LoopEngine
import Testing

@testable import loopviz

/// `PoolSnapshot` folded from the trace of a pool scenario built in Swift.
@Suite("the pool view's state, folded from pool events")
struct PoolSnapshotTests {
    static let trace = ScenarioRunner.run(PoolFixture.scenario, horizon: .seconds(5)).events

    static func snapshot(at time: Int, step kind: LoopEvent.Kind, _ name: String) -> PoolSnapshot.Queue {
        // At that millisecond: the virtual clock's iteration cost puts pool events a few microseconds after it.
        let index = trace.firstIndex {
            $0.time.nanoseconds / 1_000_000 == time && $0.kind == kind && $0.name == name
        }!
        return PoolSnapshot(queues: PoolFixture.scenario.queues, trace: trace, count: index + 1).queues[0]
    }

    @Test("before any event: the queue as declared, nothing else")
    func empty() {
        let queue = PoolSnapshot(queues: PoolFixture.scenario.queues, trace: Self.trace, count: 0).queues[0]
        #expect(queue.name == "uploads" && queue.limit == 2 && !queue.suspended)
        #expect(queue.operations.isEmpty && queue.workers.isEmpty && queue.counters == .init())
    }

    @Test("at 0.3 s: thumb done on uploads.1, which is reused for upload2; the rest waits by priority")
    func reuse() {
        let queue = Self.snapshot(at: 300, step: .opStart, "upload2")
        #expect(queue.executing.map(\.name) == ["upload1", "upload2"])
        #expect(queue.operation(named: "upload2")?.worker == "uploads.1")
        #expect(queue.operation(named: "thumb")?.state == .finished)
        #expect(queue.waiting(at: .normal).map(\.name) == ["cleanup"])
        #expect(queue.waiting(at: .low).map(\.name) == ["log"])
        #expect(queue.operation(named: "index")?.state == .pending)
        #expect(queue.operation(named: "index")?.dependencies == ["upload1"])
        #expect(queue.listed.map(\.name) == ["upload1", "upload2", "cleanup", "log", "index"])
        #expect(
            queue.counters
                == .init(threadsCreated: 2, threadsReused: 1, executing: 2, maxExecuting: 2, finished: 1))
        #expect(queue.workers.map(\.name) == ["uploads.1", "uploads.2"])
        #expect(queue.workers[0].runs.map(\.operation) == ["thumb", "upload2"])
        #expect(queue.workers[0].current == "upload2")
    }

    @Test("a queued operation cancelled at 0.4 s keeps its place, then finishes without running at its turn")
    func cancelQueued() {
        let waiting = Self.snapshot(at: 400, step: .opCancel, "cleanup")
        #expect(waiting.operation(named: "cleanup")?.state == .ready)
        #expect(waiting.operation(named: "cleanup")?.cancelRequested == true)
        #expect(waiting.waiting(at: .normal).map(\.name) == ["cleanup"])
        let queue = Self.snapshot(at: 800, step: .opFinish, "cleanup")
        let cleanup = queue.operation(named: "cleanup")
        #expect(cleanup?.state == .finished && cleanup?.cancelled == true && cleanup?.cancelRequested == true)
        #expect(cleanup?.startedAt == nil && cleanup?.worker == nil)
        #expect(queue.counters.cancelled == 1 && queue.counters.finished == 3)
    }

    @Test("at the end: every operation finished, both workers retired after 2 s idle")
    func end() {
        let queue = PoolSnapshot(
            queues: PoolFixture.scenario.queues, trace: Self.trace, count: Self.trace.count
        ).queues[0]
        #expect(queue.operations.allSatisfy { $0.state == .finished })
        #expect(
            queue.counters
                == .init(
                    threadsCreated: 2, threadsReused: 3, threadsRetired: 2, executing: 0, maxExecuting: 2,
                    finished: 6, cancelled: 1))
        // To the millisecond, as `snapshot(at:step:_:)` finds events.
        func milliseconds(_ instant: LoopInstant?) -> Int64? { instant.map { $0.nanoseconds / 1_000_000 } }
        #expect(queue.workers.map { milliseconds($0.retiredAt) } == [3200, 3100])
        #expect(queue.workers[1].runs.map(\.operation) == ["upload1", "log", "index"])
        #expect(queue.workers[1].runs.map { milliseconds($0.end) } == [800, 900, 1100])
        #expect(queue.liveWorkers == 0)
        #expect(queue.operations.map(\.symbol) == ["t", "1", "2", "i", "l", "c"])
    }

    @Test("queue events: suspend, resume, limit, waitAll")
    func queueEvents() {
        func event(_ name: String, _ fact: LoopEvent.Fact? = nil) -> LoopEvent {
            LoopEvent(time: .zero, loop: "Q", depth: 0, mode: nil, iteration: 0, kind: .queue, name: name, fact: fact)
        }
        var pool = PoolSnapshot(queues: [QueueSpec(name: "Q")])
        #expect(pool.queues[0].width == PoolSnapshot.defaultWidth && pool.queues[0].limitText == "default (4)")
        pool.apply(event("suspended", .queue(.suspended)))
        #expect(pool.queues[0].suspended)
        pool.apply(event("limit", .limit(.count(3))))
        #expect(pool.queues[0].limit == 3 && pool.queues[0].width == 3)
        pool.apply(event("resumed", .queue(.resumed)))
        pool.apply(event("limit", .limit(.automatic(width: 4))))
        #expect(!pool.queues[0].suspended && pool.queues[0].limit == nil)
    }

    @Test("lane symbols are unique, and never a lane mark")
    func symbols() {
        #expect(PoolSnapshot.symbol(for: "upload1", taken: []) == "1")
        #expect(PoolSnapshot.symbol(for: "upload11", taken: ["1"]) == "u")
        #expect(PoolSnapshot.symbol(for: "thumb", taken: []) == "t")
        #expect(PoolSnapshot.symbol(for: "xray", taken: []) == "y")
        #expect(PoolSnapshot.symbol(for: "aa", taken: ["a"]) == "1")
    }
}
