/// The run loop's view of a hang candidate: whether the loop was busy or asleep in its wait, and which step of
/// the loop held the time. A recording has only the observer activities (LoopRecorder's lowest-order observer of
/// each, and its highest-order one of `beforeWaiting` and `exit`), so a phase is the stretch between two of them
/// and named by what CFRunLoop does there (docs/cfrunloop.md, one iteration of `__CFRunLoopRun`).
package struct HangAnalysis: Hashable, Sendable {
    package enum Verdict: Hashable, Sendable {
        /// The loop did not sleep in its wait: something on its thread held it.
        case busy
        /// The loop slept in the kernel (a `beforeWaiting` … `afterWaiting` pair) for this long inside the
        /// candidate: that time is no hang (the false positive of monitors that time a window, not the loop).
        case asleep(Duration)
        /// The process did not run for this long inside the candidate, half of it or more (the recorder's sampler
        /// said so: the process was stopped, or had no CPU): not the program's work.
        case paused(Duration)
    }

    /// A stretch between two activities, by what CFRunLoop runs there.
    package enum Phase: Hashable, Sendable {
        /// `entry` → `beforeTimers`: the observers of `entry`.
        case entryObservers
        /// `beforeTimers` → `beforeSources`: the observers of `beforeTimers` (no timer fires here).
        case timerObservers
        /// `beforeSources` → `beforeWaiting`: the observers of `beforeSources`, the blocks and the version-0
        /// sources.
        case sourcesAndBlocks
        /// `beforeSources` → the next `beforeTimers` or `exit` with no wait: blocks and version-0 sources, then
        /// what the poll found ready (a timer, a port, the main queue) and the blocks after it.
        case polledWork
        /// `beforeWaiting` → the last observer of it: the other observers of `beforeWaiting`.
        case waitingObservers
        /// Asleep in the kernel, from the last observer of `beforeWaiting` to `afterWaiting`.
        case asleep
        /// `afterWaiting` → `beforeTimers` or `exit`: the observers of `afterWaiting`, then what woke the loop (a
        /// timer, a port, the main queue) and the blocks after it.
        case wakeUpWork
        /// `exit` → the last observer of it: the other observers of `exit`.
        case exitObservers
        /// A run nested in a callout, in its mode, from its `entry` until the outer run's next activity (its sleeps
        /// are ``asleep``).
        case nestedRun(mode: String?)
    }

    /// One phase's time inside the candidate.
    package struct Share: Hashable, Sendable {
        package var phase: Phase
        package var time: Duration

        package init(phase: Phase, time: Duration) {
            self.phase = phase
            self.time = time
        }
    }

    package var verdict: Verdict
    /// Each phase's time, the longest first (ties in the order they began); they add up to the candidate's length.
    package var shares: [Share]
    package var length: Duration

    /// The phase that held most of the time, if any time passed.
    package var heldBy: Phase? { shares.first?.phase }

    /// Analyses the events of `loop` between `start` and `end` (indices into `events`, inclusive): `depth` is the
    /// depth of the run the candidate belongs to; deeper events are a nested run's.
    ///
    /// `pauses`: the recorder's pause notes of the loop written after the candidate's last event (the sampler
    /// writes one when the process runs again, after the loop may already have moved on): each counts for the part
    /// of its time inside the candidate, as the notes inside it do.
    package init(
        events: some RandomAccessCollection<LoopEvent>, loop: String, depth: Int, from start: Int, to end: Int,
        pauses: [LoopEvent] = []
    ) {
        var own: [LoopEvent] = []
        var index = events.index(events.startIndex, offsetBy: max(0, start))
        let last = events.index(events.startIndex, offsetBy: min(end, events.count - 1))
        while index <= last {
            if events[index].loop == loop { own.append(events[index]) }
            index = events.index(after: index)
        }
        var times: [Phase: Duration] = [:]
        var order: [Phase] = []
        var phase: Phase?
        var nestedMode: String?
        for (position, event) in own.enumerated() {
            if event.depth > depth {
                if event.kind == .entry && event.depth == depth + 1 { nestedMode = event.mode }
                // A nested run's sleep is the thread's sleep in the kernel too.
                let inner = Self.phase(after: event, following: own[(position + 1)...], depth: event.depth)
                phase = inner == .asleep ? .asleep : .nestedRun(mode: nestedMode)
            } else if let next = Self.phase(after: event, following: own[(position + 1)...], depth: depth) {
                phase = next
            }
            guard position + 1 < own.count, let phase else { continue }
            let time = own[position + 1].time - event.time
            if times[phase] == nil { order.append(phase) }
            times[phase, default: .zero] += time
        }
        let asleep = times[.asleep] ?? .zero
        length = (own.last?.time ?? .zero) - (own.first?.time ?? .zero)
        // Each pause note closes the time the process did not run, up to it: the part of that time inside the
        // candidate counts.
        let opened = own.first?.time ?? .zero
        let closed = own.last?.time ?? .zero
        let pausedSum = (own + pauses).reduce(Duration.zero) { total, event in
            guard case .paused(let time) = event.fact else { return total }
            let overlap = min(event.time, closed) - max(event.time - time, opened)
            return overlap > .zero ? total + overlap : total
        }
        // The sampler's pauses follow one another; bounded by the candidate all the same.
        let paused = min(pausedSum, length)
        if asleep > .zero {
            verdict = .asleep(asleep)
        } else if paused > .zero, paused * 2 >= length {
            verdict = .paused(paused)
        } else {
            verdict = .busy
        }
        shares = order.enumerated()
            .sorted { (times[$0.element]!, -$0.offset) > (times[$1.element]!, -$1.offset) }
            .map { Share(phase: $0.element, time: times[$0.element]!) }
    }

    /// Analyses a busy segment of `events` (the events it was found in).
    package init(_ segment: BusySegment, in events: some RandomAccessCollection<LoopEvent>) {
        self.init(
            events: events, loop: segment.loop, depth: segment.depth, from: segment.startIndex,
            to: segment.endIndex)
    }

    /// The name of LoopRecorder's own observer events in a recording.
    package static let recorderObserver = "LoopRecorder"

    /// The phase that begins at `event` (of the candidate's own run), or nil when `event` does not change it (a
    /// mark, a callout of an engine trace).
    package static func phase(after event: LoopEvent, following: ArraySlice<LoopEvent>, depth: Int) -> Phase? {
        switch event.kind {
        case .entry: return .entryObservers
        case .beforeTimers: return .timerObservers
        case .beforeSources:
            // Whether the loop goes on to wait: its next activity at this depth.
            let next = following.first { $0.depth == depth && $0.kind.isActivity }
            return next?.kind == .beforeWaiting ? .sourcesAndBlocks : .polledWork
        case .beforeWaiting: return .waitingObservers
        case .afterWaiting: return .wakeUpWork
        case .exit: return .exitObservers
        // LoopRecorder's highest-order observer: every observer of beforeWaiting is done, the loop sleeps. (Another
        // observer's callout of it, in an engine trace, is still the observers' phase; `sleep` starts the wait.)
        case .observer where event.fact == .activity(.beforeWaiting) && event.name == recorderObserver: return .asleep
        // A poll looks at the ports and does not sleep: the work around it goes on.
        case .sleep where event.fact != .wait(.poll): return .asleep
        default: return nil
        }
    }
}
