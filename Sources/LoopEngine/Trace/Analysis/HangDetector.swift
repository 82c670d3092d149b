/// A hang detector of an SDK engineers ship, replayed over a trace: each watches the main thread's run loop its
/// own published way (docs/recording.md, "The detector lab", cites the source files read). A trace has the loop's
/// activities, so each detector's observers are placed at the recorded activity of their order: the first
/// observer's time for a low order (`LONG_MIN`, 0), the last observer's of `beforeWaiting` and `exit` for a high one
/// (`INT_MAX`, `LONG_MAX`); other activities have only the first.
package enum HangDetector: String, CaseIterable, Hashable, Sendable {
    /// sentry-cocoa's `SentryANRTrackerV1` (macOS and every platform without UIKit): a thread pings the main queue
    /// every threshold/5 and reports when five pings in a row were not run. (On iOS its V2 times missing screen
    /// frames, which a run loop trace does not have.)
    case sentry
    /// Tencent Matrix's `WCBlockMonitorMgr`: observers of every activity at `LONG_MIN` (a window begins at the first
    /// `beforeTimers`, `beforeSources` or `afterWaiting` after an end; `entry` reopens it with the old start) and
    /// `LONG_MAX` (`beforeWaiting` ends it with a new start time, `exit` without), checked by a thread every second
    /// after a first sleep of 5 s; a window longer than the threshold (strictly) is reported.
    case matrix
    /// bugsnag-cocoa's `BSGAppHangDetector`: one observer at `INT_MAX` of `afterWaiting` and `beforeSources` (each
    /// begins a unit of work, ending the one before) and `beforeWaiting` (ends it); a thread waits for the unit's end
    /// with a timeout of the threshold and reports at that deadline.
    case bugsnag
    /// KSCrash's watchdog monitor (`KSCrashMonitor_Watchdog.c`, its develop branch): one observer at order 0 of
    /// `afterWaiting` (a window begins) and `beforeWaiting` (it ends); a timer every 250 ms from the window's start
    /// reports once 250 ms have passed.
    case kscrash

    /// How a detector is set: its threshold, how often it looks, the modes its observers (or the main queue) are
    /// in.
    package struct Settings: Hashable, Sendable {
        /// A window at least this long is a hang (Matrix: longer than it).
        package var threshold: Duration
        /// How often its thread looks (Sentry's pings, Matrix's checks, KSCrash's timer); Bugsnag's wait ends at
        /// each unit's deadline, so it has none.
        package var period: Duration?
        /// When its thread first looks, after it starts (Matrix sleeps 5 s first).
        package var firstLook: Duration
        /// The threshold the user asked for, when the SDK refuses it (or has no setting for it) and keeps its
        /// own.
        package var refusedThreshold: Duration?
        /// The modes its observers are added to (`kCFRunLoopCommonModes`'s members; Matrix also observes
        /// `UIInitializationRunLoopMode`); for Sentry's pings, the modes in which the main loop serves the main
        /// queue (CF serves it in common modes only).
        package var modes: Set<String>
    }

    /// The modes of `kCFRunLoopCommonModes` the detectors assume when none are given: the default mode (as
    /// LoopRecorder and the language name it, and CF's names of it) and Apple's tracking and modal-panel modes.
    package static let defaultCommonModes: Set<String> = [
        "default", "kCFRunLoopDefaultMode", "NSDefaultRunLoopMode", "UITrackingRunLoopMode",
        "NSEventTrackingRunLoopMode", "NSModalPanelRunLoopMode",
    ]

    /// The detector's settings: its SDK's defaults, or `threshold` where the SDK accepts it (Sentry any positive
    /// time; Matrix 400 ms to 2 s in steps of 100 ms, with its check period half of it; Bugsnag 250 ms or more;
    /// KSCrash has no setting).
    package func settings(threshold asked: Duration?, commonModes: Set<String>) -> Settings {
        let hundred = Duration.milliseconds(100)
        switch self {
        case .sentry:
            let threshold = asked ?? .seconds(2)
            // A ping at least every millisecond apart: the replay's looks are bounded by time, not the threshold.
            return Settings(
                threshold: threshold, period: max(threshold / 5, .milliseconds(1)), firstLook: .zero,
                refusedThreshold: nil, modes: commonModes)
        case .matrix:
            var settings = Settings(
                threshold: .seconds(2), period: .seconds(1), firstLook: .seconds(5), refusedThreshold: nil,
                modes: commonModes.union(["UIInitializationRunLoopMode"]))
            if let asked, asked != settings.threshold {
                let steps = asked.nanosecondsClamped / hundred.nanosecondsClamped
                if asked >= .milliseconds(400) && asked <= .seconds(2) && asked == hundred * Int(steps) {
                    settings.threshold = asked
                    settings.period = asked / 2
                } else {
                    settings.refusedThreshold = asked
                }
            }
            return settings
        case .bugsnag:
            var settings = Settings(
                threshold: .seconds(2), period: nil, firstLook: .zero, refusedThreshold: nil, modes: commonModes)
            if let asked {
                if asked >= .milliseconds(250) { settings.threshold = asked } else { settings.refusedThreshold = asked }
            }
            return settings
        case .kscrash:
            let fixed = Duration.milliseconds(250)
            return Settings(
                threshold: fixed, period: fixed, firstLook: .zero,
                refusedThreshold: asked.flatMap { $0 == fixed ? nil : $0 }, modes: commonModes)
        }
    }

    /// True when a window of `length` is long enough to report: Matrix compares strictly.
    package func reaches(_ length: Duration, _ threshold: Duration) -> Bool {
        self == .matrix ? length > threshold : length >= threshold
    }

    /// One report of a detector: when it reported and what window it had timed.
    package struct Report: Hashable, Sendable {
        package var detector: HangDetector
        package var loop: String
        /// The start of the window it timed (Sentry: its first ping of the five not run).
        package var windowStart: LoopInstant
        package var reportedAt: LoopInstant
        /// The mode of the run the loop was in when it reported.
        package var mode: String?
        /// How long the loop slept in the kernel inside the window, up to the report.
        package var asleep: Duration
        /// The longest stretch inside the window, up to the report, in which the loop did not sleep.
        package var longestBusy: Duration

        package init(
            detector: HangDetector, loop: String, windowStart: LoopInstant, reportedAt: LoopInstant, mode: String?,
            asleep: Duration, longestBusy: Duration
        ) {
            self.detector = detector
            self.loop = loop
            self.windowStart = windowStart
            self.reportedAt = reportedAt
            self.mode = mode
            self.asleep = asleep
            self.longestBusy = longestBusy
        }

        /// The window's length at the report.
        package var measured: Duration { reportedAt - windowStart }
    }

    /// Why a detector did not report a busy stretch at least as long as its threshold.
    package enum Miss: Hashable, Sendable {
        /// Its windows inside the stretch were all shorter than its threshold (the longest given): the activity
        /// named began a new window or ended one, though the loop did not sleep (nil: no window was open for
        /// long).
        case windowsCut(longest: Duration, by: LoopEvent.Kind?)
        /// A window was long enough, but its thread did not look between the threshold and the window's end (it
        /// looks every `period`).
        case lookedTooLate(window: Duration, period: Duration)
        /// The stretch ended before its thread's first look, that long after it started.
        case beforeFirstLook(Duration)
        /// The main queue ran one of its pings at least every threshold (the longest wait given), so five were
        /// never missed in a row.
        case pingsAnswered(longestWait: Duration)
        /// The loop ran it in a run of this mode, which its observers (or the main queue) are not in.
        case notObserved(mode: String?)
    }

    /// A busy stretch (from a wake or an entry to the loop's sleep, or the outermost exit) at least as long as a
    /// detector's threshold that the detector did not report.
    package struct Missed: Hashable, Sendable {
        package var detector: HangDetector
        package var loop: String
        package var start: LoopInstant
        package var end: LoopInstant
        package var reason: Miss

        package init(detector: HangDetector, loop: String, start: LoopInstant, end: LoopInstant, reason: Miss) {
            self.detector = detector
            self.loop = loop
            self.start = start
            self.end = end
            self.reason = reason
        }
    }
}
