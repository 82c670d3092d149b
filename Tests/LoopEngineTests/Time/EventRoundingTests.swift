import LoopEngine
import Testing

/// A real clock's times at one precision: an event's time and the instants in its words alike.
@Suite("rounding an event rounds its time and every instant of its facts")
struct EventRoundingTests {
    static func at(_ nanoseconds: Int64) -> LoopInstant { LoopInstant(nanoseconds: nanoseconds) }

    @Test("a real sleep and a late fire read at the millisecond, in their time and in their words")
    func realTimesReadAlike() {
        let sleep = LoopEvent(
            time: Self.at(341_060), loop: "T", depth: 1, mode: "default", iteration: 1, kind: .sleep,
            fact: .wait(
                .sleep(
                    nextTimer: .init(name: "tick", fireTime: Self.at(100_341_060)), timeLimit: Self.at(300_499_999))))
        let late = LoopEvent(
            time: Self.at(370_612_345), loop: "T", depth: 1, mode: "default", iteration: 3, kind: .timer, name: "tick",
            fact: .late(due: Self.at(200_000_017), missed: 1, cause: .busy))
        #expect(
            [sleep, late].map { $0.rounded(to: .milliseconds(1)).line } == [
                "0.000 T d1 default #1 sleep (until timer tick at 0.100 or time limit at 0.300)",
                "0.371 T d1 default #3 timer tick (due 0.200, loop busy)",
            ])
    }

    @Test("no deadline, the end of time and a resolution of a nanosecond are kept as they are")
    func edges() {
        let forever = LoopEvent(
            time: .distantFuture, loop: "T", depth: 1, mode: "default", iteration: 1, kind: .sleep,
            fact: .wait(.sleep(nextTimer: nil, timeLimit: nil)))
        #expect(forever.rounded(to: .milliseconds(1)) == forever)
        let exact = LoopEvent(time: Self.at(1_234_567), loop: "T", depth: 0, mode: nil, iteration: 0, kind: .signal)
        #expect(exact.rounded(to: .nanoseconds(1)) == exact)
    }
}
