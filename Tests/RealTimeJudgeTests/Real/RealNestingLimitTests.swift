#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// Issue 10's endless re-entry on real threads: the nesting limit stops it there too, with no stack overflow (its
    /// virtual twin is `RunawayScenarioTests` in the deterministic suite).
    @Suite("runaway scenarios end on real threads")
    struct RealNestingLimitTests {
        static let reentry = """
            thread T
              source0 s
                signal s
                run default for 1s
              run default for 1s
            at 1ms on T
              signal s
              wakeup
            """

        @Test("on real threads the same re-entry stops at the limit too, without a stack overflow")
        func deepReentryOnRealThreads() throws {
            let outcome = RealScenarioRunner.run(
                try ScenarioParser.parse(Self.reentry).scenario, timeLimit: .seconds(10))
            let limit = NestingLimit(
                thread: "T", callout: NestingLimit.Callout(kind: .source0, name: "s"), depth: 256)
            #expect(outcome.haltReason == .nestingLimit(limit))
            #expect(outcome.events.filter { $0.kind == .runStart }.count == 256)
        }
    }
}
#endif
