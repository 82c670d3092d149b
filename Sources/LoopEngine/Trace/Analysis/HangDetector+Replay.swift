extension HangDetector {
    /// Replays one detector over a trace, one event at a time (a recording of hours is not kept): the detector's
    /// own state, its thread's looks at their times between events, and what the loop really did (its sleeps in the
    /// kernel and its busy stretches), so that each report can be judged and each stretch it let pass explained.
    ///
    /// The detectors watch the main thread: the loop named `main`, or the first loop of a trace that has none (or
    /// the loop the caller names).
    /// The detector starts with the loop's first event. Its thread's looks cost nothing and come on time; a
    /// main-queue ping is run at the loop's next look at the main queue in a run of a common mode: at once while
    /// it sleeps (the ping wakes it), else at the end of its next sources pass (CF polls the main queue's port after
    /// the version-0 sources) or when it goes to sleep.
    package struct Replay {
        /// The most reports and misses kept; later ones are counted.
        package static let maxKept = 10_000
        /// The most loops followed until the main one is known.
        static let maxLoops = 64

        package let detector: HangDetector
        package let settings: Settings
        private var loops: [String: LoopState] = [:]
        private var firstLoop: String?

        /// The loop watched, when the caller knows which is the main thread (a scenario's `main`).
        private let watching: String?

        package init(_ detector: HangDetector, settings: Settings, watching: String? = nil) {
            self.detector = detector
            self.settings = settings
            self.watching = watching
        }

        /// What a replay found on the main thread.
        package struct Outcome: Hashable, Sendable {
            /// The loop watched; nil when the trace had no events.
            package var loop: String?
            package var reports: [Report]
            package var missed: [Missed]
            /// Reports and misses past ``maxKept``, counted only.
            package var reportsNotKept: Int
            package var missesNotKept: Int
        }

        /// The trace's next event.
        package mutating func add(_ event: LoopEvent) {
            let name = event.loop
            if let watching, name != watching { return }
            if firstLoop == nil { firstLoop = name }
            // Once the main thread is known, only it is followed.
            if name != "main", loops["main"] != nil { return }
            if name == "main", loops["main"] == nil, loops.count > 0 { loops = [:] }
            if loops[name] == nil {
                guard loops.count < Self.maxLoops || name == "main" else { return }
                loops[name] = LoopState(detector: detector, settings: settings, loop: name, start: event.time)
            }
            loops[name]!.add(event)
        }

        /// The outcome, once every event is added: the windows still open end with the trace.
        package mutating func finish() -> Outcome {
            guard let name = loops["main"] != nil ? "main" : firstLoop, var state = loops[name] else {
                return Outcome(loop: nil, reports: [], missed: [], reportsNotKept: 0, missesNotKept: 0)
            }
            state.finish()
            return Outcome(
                loop: name, reports: state.reports, missed: state.missed, reportsNotKept: state.reportsNotKept,
                missesNotKept: state.missesNotKept)
        }
    }
}

extension HangDetector.Replay {
    /// `beforeWaiting` or `exit` seen, its observers still running: the last observer's time is the activity's end
    /// for a high-order observer, and (for `beforeWaiting`) when the loop went to sleep.
    struct Closing {
        var kind: LoopEvent.Kind
        var depth: Int
        var last: LoopInstant
    }

    /// A window a detector is timing, with what the loop really did inside it.
    struct Window {
        var start: LoopInstant
        var asleep: Duration = .zero
        var longestBusy: Duration = .zero
        var reported = false
    }

    /// One loop's replay.
    struct LoopState {
        let detector: HangDetector
        let settings: HangDetector.Settings
        let loop: String
        let origin: LoopInstant

        // What the loop did.
        var mode: String?
        /// Since when the loop has been awake (nil while it sleeps).
        var awakeSince: LoopInstant?
        var asleepSince: LoopInstant?
        var closing: Closing?
        /// Per depth: a sources pass (from `beforeSources`) has begun and not ended.
        var inSources: [Bool] = []
        var stretch: Stretch?
        /// The latest event's time: where the trace ends for this loop.
        var lastTime: LoopInstant

        // The detector.
        var window: Window?
        /// The activity that last ended or restarted a window.
        var lastCut: LoopEvent.Kind?
        var nextLook: LoopInstant
        /// Matrix: `g_bRun`, and whether `g_tvRun` was ever set; its looks' interval in periods, and the one before.
        var running = false
        var lookInterval = (last: 1, current: 1)
        /// Sentry: pings sent and not yet run, counted since the main queue last ran one.
        var ticks = 0
        var pingAtSleep = false

        var reports: [HangDetector.Report] = []
        var missed: [HangDetector.Missed] = []
        var reportsNotKept = 0
        var missesNotKept = 0

        /// A busy stretch of the loop: from a wake or an entry to its sleep or the outermost exit.
        struct Stretch {
            var start: LoopInstant
            var reported = false
            var longestWindow: Duration = .zero
            /// The activities that last ended or restarted a window inside it, and when (the later first).
            var cut: (kind: LoopEvent.Kind, time: LoopInstant)?
            var previousCut: (kind: LoopEvent.Kind, time: LoopInstant)?
            var unobservedMode: String??

            /// What cut a window short inside the stretch ending at `end`: a window's end at the stretch's own end
            /// is no cut.
            func cutBy(endingAt end: LoopInstant) -> LoopEvent.Kind? {
                if let cut, cut.time < end { return cut.kind }
                return previousCut?.kind
            }
        }

        init(detector: HangDetector, settings: HangDetector.Settings, loop: String, start: LoopInstant) {
            self.detector = detector
            self.settings = settings
            self.loop = loop
            origin = start
            lastTime = start
            nextLook = start + settings.firstLook
            awakeSince = start
            // Bugsnag's unit and KSCrash's window are open from the start (a launch hang is caught).
            if detector == .bugsnag || detector == .kscrash { window = Window(start: start) }
        }

        var observed: Bool { settings.modes.contains(mode ?? "") }

        /// The window the detector is timing now: Matrix's start (`g_tvRun`) is kept while it is not running.
        var measuring: Window? { detector == .matrix && !running ? nil : window }

        mutating func add(_ event: LoopEvent) {
            lastTime = max(lastTime, event.time)
            // A note (a mark, a stack sample) changes nothing of the loop's: observers still running go on.
            if event.kind == .note, closing != nil { return }
            let continuesClosing =
                event.kind == .sleep
                || (event.kind == .observer && closing.map { event.fact == .activity(Self.activity($0.kind)) } ?? false)
            if closing != nil && !continuesClosing { endClosing() }
            advance(to: event.time)
            if continuesClosing, closing != nil {
                closing!.last = event.time
                return
            }
            if let mode = event.mode { self.mode = mode }
            let depth = max(0, event.depth)
            switch event.kind {
            case .entry:
                beginStretch(at: event.time)
                setSources(false, depth: depth)
                if observed && detector == .matrix { running = true }
            case .afterWaiting:
                wake(at: event.time)
                beginStretch(at: event.time)
                setSources(false, depth: depth)
                guard observed else { break }
                switch detector {
                case .matrix: matrixBegin(at: event.time)
                case .bugsnag, .kscrash: restartWindow(at: event.time, cutBy: .afterWaiting)
                case .sentry: break
                }
            case .beforeTimers:
                endSourcesPass(at: event.time, depth: depth)
                if observed && detector == .matrix { matrixBegin(at: event.time) }
            case .beforeSources:
                setSources(true, depth: depth)
                guard observed else { break }
                if detector == .matrix { matrixBegin(at: event.time) }
                if detector == .bugsnag { restartWindow(at: event.time, cutBy: .beforeSources) }
            case .beforeWaiting:
                endSourcesPass(at: event.time, depth: depth)
                if observed && detector == .kscrash { endWindow(at: event.time, cutBy: .beforeWaiting) }
                closing = Closing(kind: .beforeWaiting, depth: depth, last: event.time)
            case .exit:
                endSourcesPass(at: event.time, depth: depth)
                closing = Closing(kind: .exit, depth: depth, last: event.time)
            default:
                break
            }
            if stretch != nil && !observed { stretch!.unobservedMode = .some(mode) }
        }

        mutating func finish() {
            if closing != nil { endClosing() }
            let last = lastTime
            advance(to: last)
            if let measuring { closeWindow(measuring, at: last) }
            endStretch(at: last)
        }

        private static func activity(_ kind: LoopEvent.Kind) -> Activity {
            kind == .exit ? .exit : .beforeWaiting
        }

        // MARK: The loop

        private mutating func setSources(_ value: Bool, depth: Int) {
            guard depth < 256 else { return }
            while inSources.count <= depth { inSources.append(false) }
            inSources[depth] = value
        }

        /// The end of a sources pass: CF has polled the main queue's port (in a common mode).
        private mutating func endSourcesPass(at time: LoopInstant, depth: Int) {
            let was = depth < inSources.count && inSources[depth]
            setSources(false, depth: depth)
            if was && detector == .sentry && observed { runPings(at: time) }
        }

        private mutating func endClosing() {
            guard let closing else { return }
            self.closing = nil
            if closing.kind == .beforeWaiting {
                if observed {
                    switch detector {
                    case .matrix: matrixEnd(at: closing.last, newStart: true)
                    case .bugsnag: endWindow(at: closing.last, cutBy: .beforeWaiting)
                    case .sentry: if ticks > 0 { runPings(at: closing.last) }
                    case .kscrash: break
                    }
                }
                sleep(at: closing.last)
            } else {
                if observed && detector == .matrix { matrixEnd(at: closing.last, newStart: false) }
                if closing.depth <= 1 { endStretch(at: closing.last) }
            }
        }

        private mutating func sleep(at time: LoopInstant) {
            if let awake = awakeSince, var open = window {
                open.longestBusy = max(open.longestBusy, time - max(awake, open.start))
                window = open
            }
            awakeSince = nil
            asleepSince = time
            endStretch(at: time)
        }

        private mutating func wake(at time: LoopInstant) {
            if let since = asleepSince, var open = window {
                open.asleep += time - max(since, open.start)
                window = open
            }
            asleepSince = nil
            awakeSince = time
        }

        private mutating func beginStretch(at time: LoopInstant) {
            if stretch == nil { stretch = Stretch(start: time) }
        }

        private mutating func endStretch(at time: LoopInstant) {
            guard var ended = stretch else { return }
            stretch = nil
            if let measuring {
                ended.longestWindow = max(ended.longestWindow, time - max(measuring.start, ended.start))
            }
            let length = time - ended.start
            guard !ended.reported, detector.reaches(length, settings.threshold) else { return }
            let reason: HangDetector.Miss
            if detector == .sentry {
                reason =
                    ended.longestWindow >= settings.threshold
                    ? .lookedTooLate(window: ended.longestWindow, period: settings.period ?? .zero)
                    : .pingsAnswered(longestWait: ended.longestWindow)
            } else if detector.reaches(ended.longestWindow, settings.threshold) {
                reason =
                    time <= origin + settings.firstLook && settings.firstLook > .zero
                    ? .beforeFirstLook(settings.firstLook)
                    : .lookedTooLate(window: ended.longestWindow, period: settings.period ?? .zero)
            } else if let unobserved = ended.unobservedMode, ended.cutBy(endingAt: time) == nil {
                reason = .notObserved(mode: unobserved)
            } else {
                reason = .windowsCut(longest: ended.longestWindow, by: ended.cutBy(endingAt: time))
            }
            guard missed.count < HangDetector.Replay.maxKept else {
                missesNotKept += 1
                return
            }
            missed.append(
                HangDetector.Missed(detector: detector, loop: loop, start: ended.start, end: time, reason: reason))
        }

        // MARK: The detector's windows

        private mutating func restartWindow(at time: LoopInstant, cutBy kind: LoopEvent.Kind) {
            if let window { closeWindow(window, at: time, cutBy: kind) }
            window = Window(start: time)
        }

        private mutating func endWindow(at time: LoopInstant, cutBy kind: LoopEvent.Kind) {
            guard let window else { return }
            closeWindow(window, at: time, cutBy: kind)
            self.window = nil
        }

        private mutating func closeWindow(_ window: Window, at time: LoopInstant, cutBy kind: LoopEvent.Kind? = nil) {
            guard var current = stretch else { return }
            current.longestWindow = max(current.longestWindow, time - max(window.start, current.start))
            if let kind {
                current.previousCut = current.cut
                current.cut = (kind, time)
            }
            stretch = current
        }

        private mutating func matrixBegin(at time: LoopInstant) {
            guard !running else { return }
            running = true
            window = Window(start: time)
        }

        /// Matrix's `LONG_MAX` observer: `beforeWaiting` sets a new start (`g_tvRun`) and stops the window,
        /// `exit` stops it and keeps the start, which a later `entry` takes up again.
        private mutating func matrixEnd(at time: LoopInstant, newStart: Bool) {
            if running, let window { closeWindow(window, at: time, cutBy: newStart ? .beforeWaiting : .exit) }
            running = false
            if newStart { window = Window(start: time) }
        }

        // MARK: The detector's thread

        /// Runs the detector's looks due before `time`, the loop as it is now.
        private mutating func advance(to time: LoopInstant) {
            switch detector {
            case .bugsnag:
                if var open = window, !open.reported, open.start + settings.threshold <= time {
                    open.reported = true
                    window = open
                    report(window: open, at: open.start + settings.threshold)
                }
            case .kscrash:
                if var open = window, !open.reported, open.start + settings.threshold <= time {
                    open.reported = true
                    window = open
                    report(window: open, at: open.start + settings.threshold)
                }
            case .matrix:
                // The state cannot change between two events: after a few looks every further one finds what the
                // last found (its interval only grows), so the rest are skipped to the last before `time`.
                var looks = 0
                while nextLook < time, looks < Self.looksBeforeSkipping {
                    looks += 1
                    matrixLook(at: nextLook)
                }
                skipLooks(before: time, every: (settings.period ?? .seconds(1)) * lookInterval.current)
            case .sentry:
                guard let period = settings.period, period > .zero else { return }
                var looks = 0
                while nextLook < time, looks < Self.looksBeforeSkipping {
                    looks += 1
                    sentryLook(at: nextLook)
                    nextLook = nextLook + period
                }
                // Past five unanswered pings (reported) or with the pings answered at once, each look is the last.
                let skipped = skipLooks(before: time, every: period)
                if ticks > 0 { ticks = min(ticks + skipped, 1_000_000) }
            }
        }

        /// Looks made one by one between two events; the rest are skipped in closed form.
        static let looksBeforeSkipping = 16

        /// Takes the looks left before `time`, on a grid of `period` from the next one, as made (each would find
        /// what the last found), moves the next look to the first at or after `time`, and returns how many there
        /// were.
        @discardableResult
        private mutating func skipLooks(before time: LoopInstant, every period: Duration) -> Int {
            guard time > nextLook, period > .zero else { return 0 }
            let gap = (time - nextLook).nanosecondsClamped
            let step = period.nanosecondsClamped
            let skipped = gap / step + (gap % step == 0 ? 0 : 1)
            nextLook = nextLook + .nanoseconds(skipped.multipliedReportingOverflow(by: step).partialValue)
            return Int(clamping: skipped)
        }

        private mutating func matrixLook(at time: LoopInstant) {
            let period = settings.period ?? .seconds(1)
            let wasRunningWindow =
                window.map { running && detector.reaches(time - $0.start, settings.threshold) } ?? false
            if wasRunningWindow, var open = window {
                if !open.reported {
                    open.reported = true
                    window = open
                    report(window: open, at: time)
                    lookInterval = (1, 1)
                } else {
                    // The same stack again (a recording has none, so loopviz takes it to be the same through a
                    // window): no report, and the next look comes later, 2, 3, 5… periods on.
                    lookInterval = (lookInterval.current, lookInterval.last + lookInterval.current)
                }
            } else {
                // No lag: Matrix forgets the last stack, so a window taken up again (`exit`, then `entry`) is
                // reported again at its next lag.
                lookInterval = (1, 1)
                window?.reported = false
            }
            nextLook = time + period * lookInterval.current
        }

        private mutating func sentryLook(at time: LoopInstant) {
            // The look after the sleep that followed the previous ping.
            if ticks >= 5, var open = window, !open.reported {
                open.reported = true
                window = open
                report(window: open, at: time)
            }
            ticks += 1
            if ticks == 1 { window = Window(start: time) }
            if observed && (asleepSince != nil || closing?.kind == .beforeWaiting) {
                if asleepSince != nil { runPings(at: time) } else { pingAtSleep = true }
            }
        }

        /// The main queue ran every ping sent: Sentry's count starts again, and its window ends.
        private mutating func runPings(at time: LoopInstant) {
            guard ticks > 0 else { return }
            ticks = 0
            pingAtSleep = false
            if let window { closeWindow(window, at: time, cutBy: nil) }
            window = nil
        }

        private mutating func report(window open: Window, at time: LoopInstant) {
            var asleep = open.asleep
            var longest = open.longestBusy
            if let since = asleepSince { asleep += time - max(since, open.start) }
            if let awake = awakeSince { longest = max(longest, time - max(awake, open.start)) }
            let report = HangDetector.Report(
                detector: detector, loop: loop, windowStart: open.start, reportedAt: time, mode: mode, asleep: asleep,
                longestBusy: longest)
            if report.isBusy(settings.threshold), stretch != nil { stretch!.reported = true }
            guard reports.count < HangDetector.Replay.maxKept else {
                reportsNotKept += 1
                return
            }
            reports.append(report)
        }
    }
}

extension HangDetector.Report {
    /// True when the loop was busy for a threshold's time inside the window: a true report. Otherwise the loop
    /// slept in the kernel inside it, and the detector did not see the sleep (a mode it does not observe).
    package func isBusy(_ threshold: Duration) -> Bool {
        asleep == .zero || longestBusy >= threshold
    }
}
