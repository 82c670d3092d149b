import LoopEngine
import Testing

@Suite("canonical traces of docs/cfrunloop.md §2.2")
struct CanonicalTraceTests {
    @Test("an idle keep-alive mode sleeps until its time limit and times out")
    func idleKeepAliveTimesOut() {
        let h = VirtualHarness()
        _ = h.source("keepAlive")
        let result = h.loop.run(mode: .default, seconds: 0.2)
        #expect(result == .timedOut)
        #expect(
            h.timedSteps == [
                "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                "200 afterWaiting", "200 exit", "200 result timedOut",
            ])
    }

    @Test("a lone one-shot timer fires after the wait and the mode then finishes")
    func loneOneShotTimerFinishes() {
        let h = VirtualHarness()
        h.timer("T1", at: 50)
        let result = h.loop.run(mode: .default, seconds: 1)
        #expect(result == .finished)
        #expect(
            h.timedSteps == [
                "0 runStart default", "0 entry", "0 beforeTimers", "0 beforeSources", "0 beforeWaiting",
                "50 afterWaiting", "50 timer T1", "50 exit", "50 result finished",
            ])
    }

    @Test("a source0 signalled before the run is performed in a polling iteration")
    func signalledSourcePolls() {
        let h = VirtualHarness()
        let a = h.source("A")
        a.signal()
        let result = h.loop.run(mode: .default, seconds: 0.2)
        #expect(result == .timedOut)
        #expect(
            h.steps
                == [String](
                    trace: "runStart default → entry → beforeTimers → beforeSources → source0 A → beforeTimers → "
                        + "beforeSources → beforeWaiting → afterWaiting → exit → result timedOut"))
    }
}
