#if os(Linux)
// `@testable`: a thread can only start after the run's join through a race inside the engine (every thread that
// could start one is joined or waited for first), so this test drives the real world's threads directly.
@testable import LoopEngine
import SnapshotSupport
import Testing

extension Real {
    /// Threads started while a scenario runs on real threads (pool workers, detached threads) end with the run,
    /// and every one of them is joined.
    @Suite("threads started during a real run")
    struct LateThreadTests {
        @Test func aThreadStartedAfterTheRunsThreadsWereJoinedIsJoinedByItsStarter() {
            RealTimeGate.exclusive {
                let world = RealScenarioWorld(waiter: EpollWaiter(profile: .linux))
                let ended = Shared<[String]>([])
                // A worker's body: its loop's run returns at once when the world has halted.
                func body(_ name: String) -> (RunLoopCore) -> Void {
                    { loop in
                        _ = loop.runFoundation(mode: .default, before: .distantFuture)
                        // It takes a moment to end, so that a starter that did not join it would return first.
                        Real.sleep(for: .milliseconds(50))
                        ended.update { $0.append(name) }
                    }
                }
                _ = world.startThread(named: "during", sink: nil, body("during"))
                world.waiter.halt()
                world.joinStartedThreads()
                #expect(ended.value == ["during"])
                #expect(world.liveThreads == 0)
                // Started after the join (a race with the halt): its starter joins it before going on.
                _ = world.startThread(named: "late", sink: nil, body("late"))
                #expect(ended.value == ["during", "late"], "startThread returned before the late thread ended")
                #expect(world.liveThreads == 0)
                // Nothing is left for a second join.
                world.joinStartedThreads()
                #expect(world.liveThreads == 0)
            }
        }
    }
}
#endif
