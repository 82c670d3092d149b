import LoopEngine
import Testing

/// The run loop's view of a hang candidate, on hand-made recordings (the events LoopRecorder writes).
@Suite("hang verdicts and the phase that held the time")
struct HangAnalysisTests {
    static func event(
        _ ms: Double, _ kind: LoopEvent.Kind, depth: Int = 1, mode: String = "default", name: String? = nil,
        fact: LoopEvent.Fact? = nil
    ) -> LoopEvent {
        BusySegmentTests.event(ms, kind, depth: depth, mode: mode, name: name, fact: fact)
    }

    static func last(_ ms: Double, _ activity: Activity, depth: Int = 1) -> LoopEvent {
        event(ms, .observer, depth: depth, name: "LoopRecorder", fact: .activity(activity))
    }

    static func analyse(_ events: [LoopEvent]) -> HangAnalysis {
        HangAnalysis(events: events, loop: "T", depth: 1, from: 0, to: events.count - 1)
    }

    @Test("a timer callout that hangs 300 ms: busy, held by the wake-up work, every phase's time")
    func busyWakeUpWork() {
        let analysis = Self.analyse([
            Self.event(0, .afterWaiting),
            Self.event(1, .note, name: "tick 5", fact: .mark(.point)),
            Self.event(300, .beforeTimers),
            Self.event(302, .beforeSources),
            Self.event(306, .beforeWaiting),
            Self.last(307, .beforeWaiting),
        ])
        #expect(analysis.verdict == .busy)
        #expect(analysis.heldBy == .wakeUpWork)
        #expect(analysis.length == .milliseconds(307))
        #expect(
            analysis.shares == [
                .init(phase: .wakeUpWork, time: .milliseconds(300)),
                .init(phase: .sourcesAndBlocks, time: .milliseconds(4)),
                .init(phase: .timerObservers, time: .milliseconds(2)),
                .init(phase: .waitingObservers, time: .milliseconds(1)),
            ])
    }

    @Test("an engine trace's poll (a sleep event that polls) is no sleep: a loop that never waits is busy")
    func pollIsNoSleep() {
        let analysis = Self.analyse([
            Self.event(0, .afterWaiting),
            Self.event(0, .beforeTimers),
            Self.event(0, .beforeSources),
            Self.event(0, .source0, name: "chunk"),
            Self.event(100, .sleep, fact: .wait(.poll)),
            Self.event(100, .wake),
            Self.event(101, .beforeTimers),
            Self.event(101, .beforeSources),
            Self.event(101, .source0, name: "chunk"),
            Self.event(201, .beforeTimers),
            Self.event(201, .beforeSources),
            Self.event(201, .beforeWaiting),
        ])
        #expect(analysis.verdict == .busy)
        #expect(analysis.heldBy == .polledWork)
        #expect(analysis.shares.first == .init(phase: .polledWork, time: .milliseconds(201)))
    }

    @Test("a window with a beforeWaiting ... afterWaiting pair inside: asleep for that long, not a hang")
    func asleepInTheKernel() {
        let analysis = Self.analyse([
            Self.event(0, .beforeSources),
            Self.event(10, .beforeWaiting),
            Self.last(11, .beforeWaiting),
            Self.event(411, .afterWaiting),
            Self.event(420, .beforeTimers),
        ])
        #expect(analysis.verdict == .asleep(.milliseconds(400)))
        #expect(analysis.heldBy == .asleep)
        #expect(
            analysis.shares == [
                .init(phase: .asleep, time: .milliseconds(400)),
                .init(phase: .sourcesAndBlocks, time: .milliseconds(10)),
                .init(phase: .wakeUpWork, time: .milliseconds(9)),
                .init(phase: .waitingObservers, time: .milliseconds(1)),
            ])
    }

    @Test("a run nested in a callout holds the time in its own mode; its sleep is asleep in the kernel, not a hang")
    func nestedRun() {
        let analysis = Self.analyse([
            Self.event(0, .afterWaiting),
            Self.event(5, .entry, depth: 2, mode: "modal"),
            Self.event(6, .beforeTimers, depth: 2, mode: "modal"),
            Self.event(7, .beforeSources, depth: 2, mode: "modal"),
            Self.event(8, .beforeWaiting, depth: 2, mode: "modal"),
            Self.last(9, .beforeWaiting, depth: 2),
            Self.event(250, .afterWaiting, depth: 2, mode: "modal"),
            Self.event(260, .exit, depth: 2, mode: "modal"),
            Self.last(261, .exit, depth: 2),
            Self.event(270, .beforeTimers),
            Self.event(271, .beforeSources),
            Self.event(280, .beforeTimers),
        ])
        #expect(analysis.verdict == .asleep(.milliseconds(241)))
        #expect(
            analysis.shares == [
                .init(phase: .asleep, time: .milliseconds(241)),
                .init(phase: .nestedRun(mode: "modal"), time: .milliseconds(24)),
                .init(phase: .polledWork, time: .milliseconds(9)),
                .init(phase: .wakeUpWork, time: .milliseconds(5)),
                .init(phase: .timerObservers, time: .milliseconds(1)),
            ])
    }

    @Test("blocks and sources followed by a poll, not a wait: polled work")
    func polledWork() {
        let analysis = Self.analyse([
            Self.event(0, .entry),
            Self.event(2, .beforeTimers),
            Self.event(3, .beforeSources),
            Self.event(203, .beforeTimers),
            Self.event(204, .beforeSources),
            Self.event(205, .beforeWaiting),
            Self.last(206, .beforeWaiting),
        ])
        #expect(analysis.heldBy == .polledWork)
        #expect(
            analysis.shares == [
                .init(phase: .polledWork, time: .milliseconds(200)),
                .init(phase: .entryObservers, time: .milliseconds(2)),
                .init(phase: .timerObservers, time: .milliseconds(2)),
                .init(phase: .sourcesAndBlocks, time: .milliseconds(1)),
                .init(phase: .waitingObservers, time: .milliseconds(1)),
            ])
    }
}
