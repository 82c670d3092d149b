import LoopEngine
import Testing

/// Each SDK's hang detector replayed over hand-made recordings (LoopRecorder's events: each activity at its first
/// observer, the last observer of `beforeWaiting`), with the reports and misses its published algorithm gives.
@Suite("the detector lab: Sentry, Matrix, Bugsnag and KSCrash replayed over a recording")
struct HangDetectorTests {
    typealias Report = HangDetector.Report

    static func event(_ ms: Double, _ kind: LoopEvent.Kind, depth: Int = 1, mode: String = "default") -> LoopEvent {
        BusySegmentTests.event(ms, kind, depth: depth, mode: mode)
    }

    static func last(_ ms: Double, depth: Int = 1, mode: String = "default") -> LoopEvent {
        BusySegmentTests.event(
            ms, .observer, depth: depth, mode: mode, name: "LoopRecorder", fact: .activity(.beforeWaiting))
    }

    /// An iteration woken at `wake` ms: its timers and sources passes take `busy` ms (in the wake-up work), then
    /// it sleeps; `observers` ms of `beforeWaiting` observers before the sleep.
    static func iteration(wake: Double, busy: Double, observers: Double = 0) -> [LoopEvent] {
        [
            event(wake, .afterWaiting), event(wake + busy, .beforeTimers), event(wake + busy, .beforeSources),
            event(wake + busy, .beforeWaiting), last(wake + busy + observers),
        ]
    }

    /// A run that enters at 0 and sleeps at once, then the iterations given, then an idle wake at `end` ms.
    static func recording(_ iterations: [[LoopEvent]], end: Double) -> [LoopEvent] {
        [event(0, .entry), event(0, .beforeTimers), event(0, .beforeSources), event(0, .beforeWaiting), last(0)]
            + iterations.flatMap { $0 } + iteration(wake: end, busy: 0)
    }

    static func replay(
        _ detector: HangDetector, _ events: [LoopEvent], threshold: Duration? = nil
    ) -> HangDetector.Replay.Outcome {
        var replay = HangDetector.Replay(
            detector, settings: detector.settings(threshold: threshold, commonModes: HangDetector.defaultCommonModes))
        for event in events { replay.add(event) }
        return replay.finish()
    }

    static func at(_ ms: Double) -> LoopInstant { BusySegmentTests.at(ms) }

    @Test("the SDKs' defaults, and the thresholds each accepts as published")
    func settings() {
        let modes: Set<String> = ["default"]
        #expect(HangDetector.sentry.settings(threshold: nil, commonModes: modes).period == .milliseconds(400))
        let matrix = HangDetector.matrix.settings(threshold: nil, commonModes: modes)
        #expect(matrix.threshold == .seconds(2) && matrix.period == .seconds(1) && matrix.firstLook == .seconds(5))
        #expect(matrix.modes == ["default", "UIInitializationRunLoopMode"])
        let matrixCustom = HangDetector.matrix.settings(threshold: .milliseconds(800), commonModes: modes)
        #expect(matrixCustom.threshold == .milliseconds(800) && matrixCustom.period == .milliseconds(400))
        let matrixRefused = HangDetector.matrix.settings(threshold: .milliseconds(250), commonModes: modes)
        #expect(matrixRefused.threshold == .seconds(2) && matrixRefused.refusedThreshold == .milliseconds(250))
        #expect(HangDetector.bugsnag.settings(threshold: nil, commonModes: modes).threshold == .seconds(2))
        #expect(
            HangDetector.bugsnag.settings(threshold: .milliseconds(249), commonModes: modes).threshold == .seconds(2))
        #expect(
            HangDetector.bugsnag.settings(threshold: .milliseconds(250), commonModes: modes).threshold
                == .milliseconds(250))
        let kscrash = HangDetector.kscrash.settings(threshold: .seconds(2), commonModes: modes)
        #expect(kscrash.threshold == .milliseconds(250) && kscrash.refusedThreshold == .seconds(2))
    }

    @Test("a 300 ms timer callout at 10 s: KSCrash reports it at 250 ms, the 2 s detectors let it pass unlisted")
    func shortHang() {
        let events = Self.recording([Self.iteration(wake: 10_000, busy: 300)], end: 20_000)
        let kscrash = Self.replay(.kscrash, events)
        #expect(
            kscrash.reports == [
                Report(
                    detector: .kscrash, loop: "T", windowStart: Self.at(10_000), reportedAt: Self.at(10_250),
                    mode: "default", asleep: .zero, longestBusy: .milliseconds(250))
            ])
        #expect(kscrash.missed.isEmpty)
        for detector in [HangDetector.sentry, .matrix, .bugsnag] {
            let outcome = Self.replay(detector, events)
            #expect(outcome.reports.isEmpty && outcome.missed.isEmpty, "\(detector)")
        }
        let bugsnag = Self.replay(.bugsnag, events, threshold: .milliseconds(250))
        #expect(bugsnag.reports.map(\.reportedAt) == [Self.at(10_250)])
    }

    @Test("a 3 s hang: each detector reports it while it lasts, at the time its algorithm looks")
    func longHang() {
        let events = Self.recording([Self.iteration(wake: 10_100, busy: 3_000)], end: 20_000)
        let times = HangDetector.allCases.map { detector in
            Self.replay(detector, events).reports.map { [$0.windowStart, $0.reportedAt] }
        }
        #expect(
            times == [
                // Sentry: pings every 400 ms from 0; the first not run is sent at 10.4 s, the fifth look after it.
                [[Self.at(10_400), Self.at(12_400)]],
                // Matrix: looks every second from 5 s; at 12 s the window is 1.9 s old, at 13 s 2.9 s.
                [[Self.at(10_100), Self.at(13_000)]],
                // Bugsnag: the unit's deadline, 2 s after afterWaiting.
                [[Self.at(10_100), Self.at(12_100)]],
                // KSCrash: its timer's first fire, 250 ms after afterWaiting.
                [[Self.at(10_100), Self.at(10_350)]],
            ])
        for detector in HangDetector.allCases {
            let outcome = Self.replay(detector, events)
            #expect(outcome.missed.isEmpty && outcome.reports.allSatisfy { $0.asleep == .zero }, "\(detector)")
        }
    }

    @Test("a loop that never sleeps for 3.5 s, 100 ms an iteration: Bugsnag's beforeSources cuts every unit short")
    func neverSleeps() {
        var iterations: [LoopEvent] = [Self.event(10_000, .afterWaiting)]
        for step in 0..<35 {
            let ms = 10_000 + Double(step) * 100
            iterations += [Self.event(ms, .beforeTimers), Self.event(ms, .beforeSources)]
        }
        iterations += [Self.event(13_500, .beforeWaiting), Self.last(13_500)]
        let events = Self.recording([iterations], end: 20_000)
        let bugsnag = Self.replay(.bugsnag, events)
        #expect(bugsnag.reports.isEmpty)
        #expect(
            bugsnag.missed == [
                .init(
                    detector: .bugsnag, loop: "T", start: Self.at(10_000), end: Self.at(13_500),
                    reason: .windowsCut(longest: .milliseconds(100), by: .beforeSources))
            ])
        let sentry = Self.replay(.sentry, events)
        #expect(sentry.reports.isEmpty)
        #expect(sentry.missed.map(\.reason) == [.pingsAnswered(longestWait: .milliseconds(100))])
        // Matrix compares strictly: at 12 s the window is exactly 2 s old, not more.
        #expect(Self.replay(.matrix, events).reports.map(\.reportedAt) == [Self.at(13_000)])
        #expect(Self.replay(.kscrash, events).reports.map(\.reportedAt) == [Self.at(10_250)])
    }

    @Test("a nested run of a private mode asleep for 3 s: every detector reports a hang the loop did not have")
    func asleepInPrivateMode() {
        let nested: [LoopEvent] = [
            Self.event(10_000, .afterWaiting), Self.event(10_000, .beforeTimers), Self.event(10_000, .beforeSources),
            Self.event(10_010, .entry, depth: 2, mode: "private"),
            Self.event(10_010, .beforeTimers, depth: 2, mode: "private"),
            Self.event(10_010, .beforeSources, depth: 2, mode: "private"),
            Self.event(10_010, .beforeWaiting, depth: 2, mode: "private"), Self.last(10_010, depth: 2, mode: "private"),
            Self.event(13_010, .afterWaiting, depth: 2, mode: "private"),
            Self.event(13_010, .exit, depth: 2, mode: "private"),
            Self.event(13_020, .beforeWaiting), Self.last(13_020),
        ]
        let events = Self.recording([nested], end: 20_000)
        for detector in HangDetector.allCases {
            let outcome = Self.replay(detector, events)
            #expect(outcome.reports.count == 1, "\(detector)")
            let settings = detector.settings(threshold: nil, commonModes: HangDetector.defaultCommonModes)
            #expect(outcome.reports.allSatisfy { !$0.isBusy(settings.threshold) }, "\(detector)")
            #expect(outcome.missed.isEmpty, "\(detector)")
        }
        let bugsnag = Self.replay(.bugsnag, events).reports[0]
        #expect(bugsnag.mode == "private" && bugsnag.asleep == .milliseconds(1_990))
        #expect(bugsnag.longestBusy == .milliseconds(10))
    }

    @Test("beforeWaiting observers that hold 300 ms: KSCrash's window ends at order 0, Bugsnag's at INT_MAX")
    func heldByBeforeWaitingObservers() {
        let events = Self.recording([Self.iteration(wake: 10_000, busy: 50, observers: 300)], end: 20_000)
        #expect(
            Self.replay(.kscrash, events).missed == [
                .init(
                    detector: .kscrash, loop: "T", start: Self.at(10_000), end: Self.at(10_350),
                    reason: .windowsCut(longest: .milliseconds(50), by: .beforeWaiting))
            ])
        let bugsnag = Self.replay(.bugsnag, events, threshold: .milliseconds(250))
        #expect(bugsnag.reports.map(\.reportedAt) == [Self.at(10_300)])
        #expect(bugsnag.missed.isEmpty)
    }

    @Test("Matrix looks once a second after 5 s: a 2.5 s window between looks, and one before its first look")
    func matrixLooks() {
        let events = Self.recording(
            [Self.iteration(wake: 1_000, busy: 2_500), Self.iteration(wake: 7_100, busy: 2_500)], end: 20_000)
        let matrix = Self.replay(.matrix, events)
        #expect(matrix.reports.isEmpty)
        #expect(
            matrix.missed.map(\.reason) == [
                .beforeFirstLook(.seconds(5)), .lookedTooLate(window: .milliseconds(2_500), period: .seconds(1)),
            ])
    }

    @Test("Sentry needs five pings in a row not run: a 2.1 s hang is answered in time, a 2.5 s one is not")
    func sentryPings() {
        let short = Self.recording([Self.iteration(wake: 1_010, busy: 2_100)], end: 20_000)
        #expect(Self.replay(.sentry, short).reports.isEmpty)
        #expect(Self.replay(.sentry, short).missed.map(\.reason) == [.pingsAnswered(longestWait: .milliseconds(1_910))])
        let long = Self.recording([Self.iteration(wake: 1_010, busy: 2_500)], end: 20_000)
        #expect(
            Self.replay(.sentry, long).reports.map { [$0.windowStart, $0.reportedAt] } == [
                [Self.at(1_200), Self.at(3_200)]
            ])
    }

    @Test(
        "a run of a mode no detector observes, begun after a wake: Matrix's exit stopped its window, the others' stay open"
    )
    func unobservedMode() {
        let run: [LoopEvent] = [
            Self.event(10_000, .afterWaiting), Self.event(10_000, .beforeTimers), Self.event(10_000, .beforeSources),
            Self.event(10_000, .beforeWaiting), Self.last(10_000),
            Self.event(10_050, .afterWaiting), Self.event(10_050, .exit), Self.last(10_050),
            Self.event(10_100, .entry, mode: "private"), Self.event(10_100, .beforeTimers, mode: "private"),
            Self.event(13_100, .beforeSources, mode: "private"), Self.event(13_100, .beforeWaiting, mode: "private"),
            Self.last(13_100, mode: "private"),
        ]
        let events = Self.recording([run], end: 20_000)
        let matrix = Self.replay(.matrix, events)
        #expect(matrix.reports.isEmpty)
        #expect(matrix.missed.map(\.reason) == [.notObserved(mode: "private")])
        // Bugsnag does not observe exit, KSCrash neither, and the main queue is not served in "private": their
        // windows from the wake at 10.05 s are still open, and the loop is busy.
        let times = [HangDetector.sentry, .bugsnag, .kscrash].map { Self.replay($0, events).reports.map(\.reportedAt) }
        #expect(times == [[Self.at(12_400)], [Self.at(12_050)], [Self.at(10_300)]])
    }

    @Test("notes while beforeWaiting's observers run (stack samples) do not end the hang: every detector sees it whole")
    func notesWhileClosing() {
        var events = Self.recording([Self.iteration(wake: 10_000, busy: 50, observers: 3_000)], end: 20_000)
        // A sample between the first observer of beforeWaiting and the last.
        let closing = events.firstIndex { $0.kind == .beforeWaiting && $0.time == Self.at(10_050) }!
        events.insert(
            BusySegmentTests.event(
                11_000, .note, name: "stack", fact: .stack(LoopEvent.StackSample(frames: [1]))),
            at: closing + 1)
        var finder = BusySegment.Finder(keepingAtLeast: .zero)
        for event in events { finder.add(event) }
        #expect(finder.finish().longest == .milliseconds(3_050))
        #expect(Self.replay(.bugsnag, events).reports.map(\.reportedAt) == [Self.at(12_050)])
    }

    @Test("a trace that ends inside a hang (a killed process): the detector's miss still comes, at the last event")
    func endsInsideAHang() {
        let events =
            Self.recording([], end: 1_000) + [
                Self.event(10_000, .afterWaiting), Self.event(10_000, .beforeTimers),
                Self.event(10_000, .beforeSources), Self.event(20_000, .note),
            ]
        // Bugsnag reports it at its deadline; a trace cut before the deadline is a miss it never had the time for.
        #expect(Self.replay(.bugsnag, events).reports.map(\.reportedAt) == [Self.at(12_000)])
        let short = Array(events.dropLast()) + [Self.event(11_000, .note)]
        #expect(Self.replay(.kscrash, short).reports.map(\.reportedAt) == [Self.at(10_250)])
        #expect(Self.replay(.bugsnag, short).reports.isEmpty)
    }

    @Test("a threshold of a nanosecond and a trace of days: Sentry's looks are bounded, the replay ends at once")
    func boundedLooks() {
        let events = [
            Self.event(0, .entry), Self.event(0, .beforeTimers), Self.event(0, .beforeSources),
            Self.event(86_400_000, .beforeWaiting), Self.last(86_400_000), Self.event(172_800_000, .afterWaiting),
        ]
        let settings = HangDetector.sentry.settings(threshold: .nanoseconds(1), commonModes: ["default"])
        #expect(settings.period == .milliseconds(1))
        var replay = HangDetector.Replay(.sentry, settings: settings)
        for event in events { replay.add(event) }
        let outcome = replay.finish()
        #expect(outcome.reports.count == 1)
        #expect(outcome.reports.first?.windowStart == Self.at(0))
    }
}
