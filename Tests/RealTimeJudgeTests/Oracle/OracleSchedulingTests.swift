import LoopEngine
import LoopOracle
import SnapshotSupport
import Testing

#if os(Linux)
/// The oracle's threads run under `SCHED_FIFO` where permitted (`OracleScheduling`): a scenario that keeps every core
/// busy must still be halted at its time limit by the time keeper, whose priority is above the scenario threads'.
@Suite("the CF oracle's real-time threads", .serialized)
struct OracleSchedulingTests {
    @Test("two threads spinning on self-signalling sources are halted at the time limit, their loops stopped")
    func spinningThreadsAreHalted() {
        let spinner = { (name: String) in
            ThreadSpec(
                name: name, items: [.source0("s\(name)", [ScriptStep(.signal("s\(name)"))])],
                program: [.signal("s\(name)"), .run(.inMode(.default, seconds: 30, returnAfterSourceHandled: false))])
        }
        let scenario = Scenario(name: "spin", threads: [spinner("A"), spinner("B")])
        RealTimeGate.exclusive {
            let start = ContinuousClock.now
            do {
                _ = try CFOracle.run(scenario, timeLimit: .milliseconds(200))
                Issue.record("expected a time-out")
            } catch CFOracleError.timedOut(_, let partial) {
                // Both threads spun: each performed its source many times before the halt.
                for name in ["A", "B"] {
                    let performs = partial.filter { $0.loop == name && $0.kind == .source0 }.count
                    #expect(performs > 10, "\(name): \(performs) performs")
                }
            } catch {
                Issue.record("unexpected error \(error)")
            }
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }
}
#endif
