import CoreFoundation
import Foundation
import Synchronization

/// What the recorder knows of the loop between callouts: the runs that are active (from `entry` and `exit`),
/// each with its mode and iteration, and the clock. The observers and the marks stamp their events with it.
final class LoopTracker: @unchecked Sendable {
    enum MarkKind: String { case point, begin, end }

    private struct Run {
        var mode: String
        var iteration: Int
    }

    private struct State {
        var runs: [Run] = []
        /// True once a run nested deeper than `LoopRecorder.maximumDepth` was marked.
        var markedTooDeep = false
        /// The last mode seen and its name, so a callout in the same mode does not convert a CFString again.
        var modeRef: CFString?
        var modeName = ""
    }

    let loop: CFRunLoop
    /// The loop's index in the recording (`RecordedEvent.loop`).
    let index: Int
    private let buffer: RecordBuffer
    private let origin: Int64
    private let state = RecorderLocked(State())
    /// Since when the loop has been busy (nanoseconds of the recording, plus one), or 0 while it sleeps or runs
    /// no run: the stack sampler reads it without a lock.
    let busySince = Atomic<Int64>(0)

    /// `origin`: the recording's start on the monotonic clock, shared by every loop of one recording.
    init(loop: CFRunLoop, index: Int = 0, buffer: RecordBuffer, origin: Int64 = LoopTracker.monotonic()) {
        self.loop = loop
        self.index = index
        self.buffer = buffer
        self.origin = origin
    }

    /// Nanoseconds since the recording began, on the monotonic clock.
    var now: Int64 { Self.monotonic() - origin }

    /// The recording's start on the monotonic clock, for the trackers of loops added later.
    var start: Int64 { origin }

    /// `CLOCK_MONOTONIC` in nanoseconds: read on every event, through the vDSO (no system call).
    static func monotonic() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The lowest-order observer: the activity begins (before every other observer of it).
    func first(_ activity: CFRunLoopActivity) {
        let time = now
        if activity == .afterWaiting || activity == .entry, busySince.load(ordering: .relaxed) == 0 {
            busySince.store(time + 1, ordering: .relaxed)
        }
        var tooDeep: RecordedEvent?
        let event: RecordedEvent? = state.withLock { state in
            let kind: RecordedEvent.Kind
            switch activity {
            case .entry:
                state.runs.append(Run(mode: currentMode(&state), iteration: 0))
                if state.runs.count > LoopRecorder.maximumDepth && !state.markedTooDeep {
                    state.markedTooDeep = true
                    tooDeep = stamped(time, .note, state)
                }
                kind = .entry
            case .beforeTimers:
                guard !state.runs.isEmpty else { return nil }
                state.runs[state.runs.count - 1].iteration += 1
                kind = .beforeTimers
            case .beforeSources: kind = .beforeSources
            case .beforeWaiting: kind = .beforeWaiting
            case .afterWaiting: kind = .afterWaiting
            case .exit: kind = .exit
            default: return nil
            }
            return stamped(time, kind, state)
        }
        if var note = tooDeep {
            note.name =
                "LoopRecorder: runs nested deeper than \(LoopRecorder.maximumDepth) are recorded at depth \(LoopRecorder.maximumDepth)"
            note.fact = .mark(MarkKind.point.rawValue)
            buffer.append(note)
        }
        if let event { buffer.append(event) }
    }

    /// The highest-order observer: every other observer of `beforeWaiting` or `exit` is done. After an `exit` the
    /// run is over.
    func last(_ activity: CFRunLoopActivity) {
        let time = now
        let event: RecordedEvent? = state.withLock { state in
            let name = activity == .exit ? "exit" : "beforeWaiting"
            var event = stamped(time, .observer, state)
            event.name = "LoopRecorder"
            event.fact = .activity(UInt32(truncatingIfNeeded: activity.rawValue), name)
            if activity == .exit, !state.runs.isEmpty { state.runs.removeLast() }
            // The loop sleeps now, or has left its outermost run.
            if activity == .beforeWaiting || state.runs.isEmpty { busySince.store(0, ordering: .relaxed) }
            return event
        }
        if let event { buffer.append(event) }
    }

    /// A program's mark, in the innermost run (depth 0 outside any).
    func mark(_ label: String, _ kind: MarkKind) {
        let time = now
        var event = state.withLock { stamped(time, .note, $0) }
        // Cut here, not only when written: a flood of huge labels must not fill the buffer's memory either.
        event.name = RecordedEvent.bounded(label)
        event.fact = .mark(kind.rawValue)
        buffer.append(event)
    }

    /// An event of the stack sampler's (a sample, a loaded object), stamped with the run it was taken in.
    func sampled(_ time: Int64, name: String?, fact: RecordedEvent.Fact) {
        var event = state.withLock { stamped(time, .note, $0) }
        event.name = name.map(RecordedEvent.bounded)
        event.fact = fact
        buffer.append(event)
    }

    private func stamped(_ time: Int64, _ kind: RecordedEvent.Kind, _ state: State) -> RecordedEvent {
        let run = state.runs.last
        return RecordedEvent(
            nanoseconds: time, depth: state.runs.count, mode: run?.mode, iteration: run?.iteration ?? 0, kind: kind,
            loop: index)
    }

    /// The loop's current mode in the trace's words (`default` for CF's default mode).
    private func currentMode(_ state: inout State) -> String {
        guard let mode = CFRunLoopCopyCurrentMode(loop) else { return state.runs.last?.mode ?? "default" }
        if let known = state.modeRef, CFEqual(known, mode) { return state.modeName }
        let name = CFEqual(mode, kCFRunLoopDefaultMode) ? "default" : Self.string(mode)
        state.modeRef = mode
        state.modeName = name
        return name
    }

    private static func string(_ text: CFString) -> String {
        let length = CFStringGetMaximumSizeForEncoding(CFStringGetLength(text), CFStringBuiltInEncodings.UTF8.rawValue)
        var bytes = [CChar](repeating: 0, count: Int(length) + 1)
        guard CFStringGetCString(text, &bytes, length + 1, CFStringBuiltInEncodings.UTF8.rawValue) else { return "?" }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
