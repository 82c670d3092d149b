import LoopEngine
import Testing

@testable import loopviz

/// The words `loopviz hangs` prints under a segment: the verdict, the phase that held the time, the shares.
@Suite("hangs words each verdict and phase")
struct HangReportAnalysisTests {
    static func event(
        _ ms: Int, _ kind: LoopEvent.Kind, depth: Int = 1, name: String? = nil, fact: LoopEvent.Fact? = nil
    )
        -> LoopEvent
    {
        LoopEvent(
            time: .zero + .milliseconds(ms), loop: "main", depth: depth, mode: depth == 1 ? "default" : "modal",
            iteration: 1, kind: kind, name: name, fact: fact)
    }

    @Test("a window with a sleep inside: not a hang, asleep for that long, the busy rest")
    func asleep() {
        let events = [
            Self.event(0, .beforeSources),
            Self.event(10, .beforeWaiting),
            Self.event(11, .observer, name: "LoopRecorder", fact: .activity(.beforeWaiting)),
            Self.event(411, .afterWaiting),
            Self.event(420, .beforeTimers),
        ]
        let analysis = HangAnalysis(events: events, loop: "main", depth: 1, from: 0, to: 4)
        #expect(
            HangReport.lines(analysis) == """
                  verdict: not a hang: asleep in the kernel for 0.400s of it (a beforeWaiting ... afterWaiting pair inside), busy 0.020s
                  held by: asleep (beforeWaiting -> afterWaiting: in the kernel)
                  phases: asleep 95.2% (0.400s), sources and blocks 2.3% (0.010s), wake-up work 2.1% (0.009s), beforeWaiting observers 0.2% (0.001s)

                """)
    }

    @Test("a hang the process was stopped in: not the program's work, the time it did not run, the busy rest")
    func paused() {
        let events = [
            Self.event(0, .afterWaiting),
            Self.event(50, .note, name: "stack", fact: .stack(LoopEvent.StackSample(frames: [1]))),
            Self.event(700, .beforeTimers),
            Self.event(700, .beforeSources),
            Self.event(702, .beforeWaiting),
            Self.event(702, .observer, name: "LoopRecorder", fact: .activity(.beforeWaiting)),
        ]
        // The sampler's note comes after the loop's sleep began: it counts for the part of its time in the hang.
        let pause = Self.event(703, .note, name: "paused", fact: .paused(.milliseconds(640)))
        let analysis = HangAnalysis(events: events, loop: "main", depth: 1, from: 0, to: 5, pauses: [pause])
        #expect(analysis.verdict == .paused(.milliseconds(639)))
        #expect(
            HangReport.lines(analysis).hasPrefix(
                """
                  verdict: not the program's work: the process did not run for 0.639s of it (stopped by a signal or a debugger, or it had no CPU), busy 0.063s

                """))
        // Less than half of it: busy, as any hang.
        let short = Self.event(703, .note, name: "paused", fact: .paused(.milliseconds(300)))
        #expect(HangAnalysis(events: events, loop: "main", depth: 1, from: 0, to: 5, pauses: [short]).verdict == .busy)
        // A pause that ended before the hang began does not count.
        let before = Self.event(0, .note, name: "paused", fact: .paused(.milliseconds(500)))
        #expect(
            HangAnalysis(events: [before] + events, loop: "main", depth: 1, from: 0, to: 6).verdict == .busy)
    }

    @Test("every phase has its name and its description")
    func phases() {
        let rows: [(HangAnalysis.Phase, String, String)] = [
            (.entryObservers, "entry observers", "entry observers (entry -> beforeTimers: the observers of entry)"),
            (
                .timerObservers, "beforeTimers observers",
                "beforeTimers observers (beforeTimers -> beforeSources: the observers of beforeTimers; no timer fires there)"
            ),
            (
                .sourcesAndBlocks, "sources and blocks",
                "sources and blocks (beforeSources -> beforeWaiting: the observers of beforeSources, blocks, version-0 sources)"
            ),
            (
                .polledWork, "polled work",
                "polled work (beforeSources -> beforeTimers, no wait: blocks, version-0 sources, then the timer, port or main queue the poll found, and blocks)"
            ),
            (
                .waitingObservers, "beforeWaiting observers",
                "beforeWaiting observers (the other observers of beforeWaiting)"
            ),
            (.asleep, "asleep", "asleep (beforeWaiting -> afterWaiting: in the kernel)"),
            (
                .wakeUpWork, "wake-up work",
                "wake-up work (afterWaiting -> beforeTimers: the observers of afterWaiting, then the timer, port or main queue that woke the loop, and blocks)"
            ),
            (.exitObservers, "exit observers", "exit observers (the other observers of exit)"),
            (
                .nestedRun(mode: "modal"), "nested run in modal",
                "nested run in modal (a run started inside a callout, until the outer run's next activity)"
            ),
            (
                .nestedRun(mode: nil), "nested run in an unknown mode",
                "nested run in an unknown mode (a run started inside a callout, until the outer run's next activity)"
            ),
        ]
        for (phase, name, description) in rows {
            #expect(HangReport.name(phase) == name)
            #expect(HangReport.description(phase) == description)
        }
    }

    @Test("a share is in tenths of a percent, rounded down; nothing of nothing is 0.0%")
    func percent() {
        #expect(HangReport.percent(.milliseconds(1), of: .milliseconds(3)) == "33.3%")
        #expect(HangReport.percent(.milliseconds(3), of: .milliseconds(3)) == "100.0%")
        #expect(HangReport.percent(.zero, of: .zero) == "0.0%")
    }
}
