import LoopEngine
import Testing

extension Rules {
    /// docs/cfrunloop.md §9.1: CF sorts a mode's timers by `_fireTSR`, the deadline fixed on the clock when it is
    /// computed. Two deadlines of one virtual instant are therefore in the order they were computed - a date in the
    /// past or "now" is the moment of the call itself - not in the order the timers joined the mode (fuzz seed 9 case
    /// 1869). `CompareTimerTieTests` checks the same files on the real CFRunLoop.
    @Suite("timers of one deadline fire in the order their deadlines were computed")
    struct TimerDeadlineOrderTests {
        static func fires(_ source: String) throws -> [String] {
            let script = try ScenarioParser.parse(source, file: "t.loop")
            return ScenarioRunner.run(script.scenario).events.filter { $0.kind == .timer }.map {
                "\($0.time) \($0.name ?? "")"
            }
        }

        @Test("a timer added to the mode after another of its deadline still fires first when its deadline came first")
        func addOrderDoesNotDecide() throws {
            #expect(
                try Self.fires(
                    """
                    thread T
                      timer a at 30ms in nothing
                      timer b at 30ms in default
                      add a to default
                      run default for 40ms
                    """) == ["0.030 a", "0.030 b"])
        }

        @Test("two reschedules to now in one callout: the first fires first, though its timer joined the mode last")
        func aDateOfNowIsTheCallsMoment() throws {
            #expect(
                try Self.fires(Self.rescheduledToNow) == ["0.010 b", "0.0100015 a", "0.0100015 c"])
        }

        static let rescheduledToNow = """
            thread T
              timer a at 50ms in nothing
              timer b at 10ms in default
                call 1: reschedule a in 0ms
                call 1: reschedule c in 0ms
                call 1: add a to default
              timer c at 100ms in default
              run default for 20ms
            """
    }
}
