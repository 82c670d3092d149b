import LoopEngine
import Testing

@Suite("busy segments and hang classes")
struct BusySegmentTests {
    static func at(_ milliseconds: Double) -> LoopInstant { .zero + .secondsValue(milliseconds / 1e3) }

    static func event(
        _ ms: Double, _ kind: LoopEvent.Kind, loop: String = "T", depth: Int = 1, mode: String = "default",
        name: String? = nil, fact: LoopEvent.Fact? = nil
    ) -> LoopEvent {
        LoopEvent(time: at(ms), loop: loop, depth: depth, mode: mode, iteration: 1, kind: kind, name: name, fact: fact)
    }

    @Test("KSCrash's classes: micro-hang from 100 ms, hang from 250 ms, severe from 500 ms, boundaries included")
    func classes() {
        let cases: [(Duration, BusySegment.Severity)] = [
            (.zero, .slow), (.nanoseconds(99_999_999), .slow), (.milliseconds(100), .microHang),
            (.nanoseconds(249_999_999), .microHang), (.milliseconds(250), .hang),
            (.nanoseconds(499_999_999), .hang), (.milliseconds(500), .severe), (.seconds(30), .severe),
        ]
        for (length, severity) in cases { #expect(BusySegment.Severity(length) == severity, "\(length)") }
    }

    @Test("entry to the first beforeWaiting, then afterWaiting to beforeWaiting; its observers and sleep included")
    func segments() {
        let mark = Self.event(120, .note, name: "decode", fact: .mark(.begin))
        let events = [
            Self.event(0, .runStart, name: "default"),
            Self.event(1, .entry),
            Self.event(2, .beforeTimers),
            Self.event(10, .beforeWaiting),
            Self.event(11, .observer, name: "CA", fact: .activity(.beforeWaiting)),
            Self.event(12, .sleep, fact: .wait(.sleep(nextTimer: nil, timeLimit: nil))),
            Self.event(100, .wake, fact: .woken(.timerPort)),
            Self.event(100, .afterWaiting),
            Self.event(101, .timer, name: "T1"),
            mark,
            Self.event(350, .beforeWaiting),
            Self.event(351, .observer, name: "LoopRecorder", fact: .activity(.beforeWaiting)),
            Self.event(400, .afterWaiting),
            Self.event(410, .exit),
            Self.event(411, .observer, name: "LoopRecorder", fact: .activity(.exit)),
        ]
        let segments = BusySegment.all(in: events)
        #expect(
            segments.map { [$0.start, $0.end] } == [
                [Self.at(1), Self.at(12)], [Self.at(100), Self.at(351)], [Self.at(400), Self.at(411)],
            ])
        #expect(segments.map(\.startedBy) == [.entry, .afterWaiting, .afterWaiting])
        #expect(segments.map(\.endedBy) == [.beforeWaiting, .beforeWaiting, .exit])
        #expect(segments.map(\.marks) == [[], [mark], []])
        #expect(segments[1].length == .milliseconds(251) && segments[1].severity == .hang)
        #expect(segments.map(\.startIndex) == [1, 7, 12])
        #expect(segments.map(\.endIndex) == [5, 11, 14])
    }

    @Test("a nested run's sleep ends the outer segment; its exit does not; a segment open at the end is kept")
    func nestedAndUnfinished() {
        let events = [
            Self.event(0, .afterWaiting),
            Self.event(5, .entry, depth: 2, mode: "Inner"),
            Self.event(6, .beforeWaiting, depth: 2, mode: "Inner"),
            Self.event(20, .afterWaiting, depth: 2, mode: "Inner"),
            Self.event(21, .exit, depth: 2, mode: "Inner"),
            Self.event(30, .timer, name: "late"),
        ]
        let segments = BusySegment.all(in: events)
        #expect(segments.map { [$0.start, $0.end] } == [[Self.at(0), Self.at(6)], [Self.at(20), Self.at(30)]])
        #expect(segments.map(\.endedBy) == [.beforeWaiting, nil])
        #expect(segments.map(\.mode) == ["default", "Inner"])
        #expect(segments.map { [$0.startIndex, $0.endIndex] } == [[0, 2], [3, 5]])
    }

    @Test("each thread has its own segments")
    func threads() {
        let events = [
            Self.event(0, .afterWaiting, loop: "A"),
            Self.event(1, .afterWaiting, loop: "B"),
            Self.event(2, .beforeWaiting, loop: "B"),
            Self.event(300, .beforeWaiting, loop: "A"),
        ]
        let segments = BusySegment.all(in: events)
        #expect(segments.map(\.loop) == ["A", "B"])
        #expect(segments.map(\.length) == [.milliseconds(300), .milliseconds(1)])
    }
}
