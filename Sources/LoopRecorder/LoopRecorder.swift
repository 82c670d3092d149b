import CLoopSampler
import CoreFoundation
import Foundation

/// Records one run loop of a real program into a loopviz trace (JSONL, version 1), for `loopviz FILE.jsonl`,
/// `loopviz hangs` and every command that reads a trace.
///
///     let recorder = try LoopRecorder.start(on: .main, to: URL(fileURLWithPath: "/tmp/app.jsonl"))
///     LoopRecorder.mark("decode image")      // anywhere: names the program's own work in the trace
///     recorder.stop()                        // writes what is left and closes the file
///
/// Two observers bracket every other observer of the loop, as hang monitors do: one at the lowest order records
/// each activity as it begins, one at the highest order records when the last observer of `beforeWaiting` and
/// `exit` is done (the moment the loop really sleeps, or leaves the run). An observer sees activities, not which
/// source or timer fired: marks (`mark`, `begin`/`end`) say that. Events go through a bounded buffer to a writer
/// thread; when the buffer is full they are dropped, counted, and the count is written as an event.
///
/// Whatever happens to the process or the disk, the file stays readable by `loopviz hangs` and every command
/// that reads a trace: the file the URL names is written in place (a symbolic link is followed, a FIFO or a
/// device written to, never replaced by a new file); after a failed write nothing more is written and the file is
/// cut back to its last complete line; names are cut to ``maximumNameLength`` and depths bounded by
/// ``maximumDepth``, so that no line breaks the reader's limits.
public final class LoopRecorder: @unchecked Sendable {
    /// What one recording wrote.
    public struct Summary: Sendable, Equatable {
        /// Events written to the file (the drop reports included).
        public var events: Int
        /// Events dropped because the buffer was full.
        public var dropped: Int
        /// True when a write to the file failed (a full disk, a closed FIFO): nothing was written after it, and
        /// the file holds the ``events`` written before it, every line complete (a regular file is cut back to the
        /// last complete line).
        public var writeFailed: Bool

        public init(events: Int, dropped: Int, writeFailed: Bool) {
            self.events = events
            self.dropped = dropped
            self.writeFailed = writeFailed
        }
    }

    /// The default buffer: 65,536 events, about 8 MB, several seconds of a loop spinning flat out.
    public static let defaultCapacity = 65_536

    /// The largest buffer: 1,048,576 events, about 128 MB. A larger `capacity` (up to `Int.max`) is bounded to it.
    public static let maximumCapacity = RecordBuffer.maximumCapacity

    /// The shortest and longest time between two writes: a `flushInterval` outside is bounded to it (0 would make
    /// the writer spin), and one that is not a number (NaN) is the default, 0.05 s.
    public static let flushIntervals: ClosedRange<TimeInterval> = 0.001...3600

    /// The most Unicode scalars of a mark's label, a thread's or a mode's name written: a longer one is cut at a
    /// character and ends with `…`. Escaped, a scalar takes at most 6 bytes, so no line of the recording comes near
    /// the 65,536 bytes a trace reader takes per line.
    public static let maximumNameLength = 1_000

    /// The deepest nesting written as it is: the depth a trace reader accepts (LoopEngine's nesting limit, 256).
    /// Runs nested deeper are written at this depth, and a mark says so at the first of them.
    public static let maximumDepth = 256

    /// The recorder that `mark`, `begin` and `end` write to.
    private static let current = RecorderLocked<LoopRecorder?>(nil)

    /// The most loops one recording holds: the first and at most 63 added with ``addCurrentThreadLoop(thread:)``.
    public static let maximumLoops = 64

    private let modes: [CFRunLoopMode]
    private let buffer: RecordBuffer
    private let writer: RecordWriter
    private let tracker: LoopTracker
    private let sampler: StackSampler?
    private let summary = RecorderLocked<Summary?>(nil)
    /// Every loop recorded, the first one's first, with its observers and the thread (`pthread_self`) whose
    /// marks go to it; and whether the loop limit was marked.
    private let loops: RecorderLocked<Loops>

    // @unchecked Sendable: CF's run loops and observers are safe to use from any thread.
    private struct Loops: @unchecked Sendable {
        var recorded: [(tracker: LoopTracker, observers: [CFRunLoopObserver], thread: Int?)]
        var names: Set<String>
        var markedLimit = false
        /// True once the recorder stopped: no loop is added after that.
        var stopped = false
    }

    /// Starts recording `loop` (it must be `RunLoop.main` or the calling thread's `RunLoop.current`: Foundation
    /// on Linux does not hand out another thread's CFRunLoop) in `modes` into the file at `url`. With
    /// `sampleInterval`, the loop's thread's stack is sampled that often while the loop is busy (Linux; see
    /// ``start(on:modes:to:thread:capacity:flushInterval:sampleInterval:)``).
    @discardableResult
    public static func start(
        on loop: RunLoop = .current, modes: [RunLoop.Mode] = [.common], to url: URL,
        sampleInterval: TimeInterval? = nil
    )
        throws -> LoopRecorder
    {
        let isMain = loop === RunLoop.main
        guard isMain || loop === RunLoop.current else {
            throw CocoaError(
                .featureUnsupported,
                userInfo: [NSLocalizedDescriptionKey: "start the recorder on the loop's own thread"])
        }
        let cfLoop: CFRunLoop = isMain ? CFRunLoopGetMain() : CFRunLoopGetCurrent()
        return try start(
            on: cfLoop, modes: modes.map(Self.cfMode), to: url, thread: isMain ? "main" : nil,
            sampleInterval: sampleInterval)
    }

    /// Starts recording a CFRunLoop. `thread` names the loop in the trace (default: `main` for the main loop, else
    /// the current thread's name); `capacity` bounds the buffer (2 to ``maximumCapacity`` events); the writer
    /// wakes every `flushInterval` seconds (within ``flushIntervals``).
    ///
    /// `sampleInterval` (nil: none) samples the stack of the loop's thread that often while the loop has been busy
    /// that long (bounded to ``sampleIntervals``): a signal to that thread whose handler unwinds its stack, on Linux
    /// only (elsewhere no samples are taken). Sampling needs the main loop, or `start` on the loop's own thread.
    /// Each sample is written as an event, with the objects loaded in the process, and `loopviz hangs` names the
    /// functions when it reads the recording. A sample interrupts a system call the thread is in; one the kernel
    /// does not restart (`nanosleep`, `poll`) returns `EINTR`, as for any signal.
    @discardableResult
    public static func start(
        on loop: CFRunLoop, modes: [CFRunLoopMode] = [kCFRunLoopCommonModes], to url: URL, thread: String? = nil,
        capacity: Int = defaultCapacity, flushInterval: TimeInterval = 0.05, sampleInterval: TimeInterval? = nil
    ) throws -> LoopRecorder {
        let name = thread ?? (CFEqual(loop, CFRunLoopGetMain()) ? "main" : Self.threadName())
        // The recorder running now is stopped first, its file closed, before this one opens its own: both may
        // name the same file, which is written in place (the old writer's last lines and header would land in the
        // new recording).
        let previous = current.withLock { current in
            defer { current = nil }
            return current
        }
        previous?.stop()
        let buffer = RecordBuffer(capacity: capacity)
        let info = ProcessInfo.processInfo
        let interval =
            flushInterval.isNaN ? 0.05 : min(max(flushInterval, flushIntervals.lowerBound), flushIntervals.upperBound)
        let writer = try RecordWriter(
            url: url, buffer: buffer, thread: RecordedEvent.bounded(name),
            process: RecordedEvent.bounded(info.processName), pid: info.processIdentifier, interval: interval)
        // The thread to sample: the main thread's id is the process's; another loop only from its own thread.
        var threadID: Int64?
        if sampleInterval != nil {
            if CFEqual(loop, CFRunLoopGetMain()) {
                threadID = Int64(info.processIdentifier)
            } else if CFEqual(loop, CFRunLoopGetCurrent()) {
                threadID = loop_sampler_thread_id()
            }
        }
        let recorder = LoopRecorder(
            loop: loop, name: RecordedEvent.bounded(name), modes: modes, buffer: buffer, writer: writer,
            sampling: threadID.flatMap { id in sampleInterval.map { (id, $0) } })
        writer.start()
        if let sampler = recorder.sampler {
            // On the loop's own thread, the signal is let through (a thread started from a dispatch worker
            // inherits a mask that blocks it); the main thread's, from another thread, is as the program left it.
            if CFEqual(loop, CFRunLoopGetCurrent()) { loop_sampler_unblock() }
            sampler.start()
        }
        let replaced = current.withLock { current in
            defer { current = recorder }
            return current
        }
        // Another thread's start between the two: that recorder is stopped too (there is one per process).
        replaced?.stop()
        return recorder
    }

    /// The shortest and longest time between two stack samples: a `sampleInterval` outside is bounded to it.
    public static let sampleIntervals: ClosedRange<TimeInterval> = StackSampler.intervals

    private init(
        loop: CFRunLoop, name: String, modes: [CFRunLoopMode], buffer: RecordBuffer, writer: RecordWriter,
        sampling: (thread: Int64, interval: TimeInterval)?
    ) {
        self.modes = modes
        self.buffer = buffer
        self.writer = writer
        let tracker = LoopTracker(loop: loop, buffer: buffer)
        self.tracker = tracker
        sampler = sampling.flatMap { StackSampler(tracker: tracker, threadID: $0.thread, interval: $0.interval) }
        let observers = Self.observe(tracker, in: modes)
        // The main loop's marks come from any thread that has no loop of its own recorded; another loop's from the
        // thread that started the recorder on it.
        let thread = CFEqual(loop, CFRunLoopGetMain()) ? nil : Self.callingThread()
        loops = RecorderLocked(Loops(recorded: [(tracker, observers, thread)], names: [name]))
    }

    /// The two observers that record `tracker`'s loop, added to it in `modes`.
    private static func observe(_ tracker: LoopTracker, in modes: [CFRunLoopMode]) -> [CFRunLoopObserver] {
        let first = CFRunLoopObserverCreateWithHandler(
            nil, CFRunLoopActivity.allActivities.rawValue, true, CFIndex.min
        ) { _, activity in
            tracker.first(activity)
        }!
        let lastActivities = CFRunLoopActivity.beforeWaiting.rawValue | CFRunLoopActivity.exit.rawValue
        let last = CFRunLoopObserverCreateWithHandler(nil, lastActivities, true, CFIndex.max) { _, activity in
            tracker.last(activity)
        }!
        let observers = [first, last]
        for mode in modes {
            for observer in observers { CFRunLoopAddObserver(tracker.loop, observer, mode) }
        }
        return observers
    }

    /// Records the calling thread's run loop too, into the same file, in the recorder's modes: its events carry
    /// `thread` (default: the thread's name, or `thread`; a name already in the recording gets a number), the
    /// marks made on this thread go to it, and with `sampleInterval` its stack is sampled as the first loop's is.
    /// Call it on the loop's own thread (Foundation on Linux does not hand out another thread's CFRunLoop), before
    /// the loop runs (`loopviz record --all-threads` does it at each thread's first run). Returns false, recording
    /// nothing, when the loop is already recorded, the recorder has stopped, or ``maximumLoops`` are recorded (the
    /// first time, a mark says which thread was left out).
    @discardableResult
    public func addCurrentThreadLoop(thread: String? = nil) -> Bool {
        let loop = CFRunLoopGetCurrent()!
        let wanted = RecordedEvent.bounded(thread ?? Self.threadName())
        let added: LoopTracker? = loops.withLock { loops in
            guard !loops.stopped, !loops.recorded.contains(where: { CFEqual($0.tracker.loop, loop) }) else {
                return nil
            }
            guard loops.recorded.count < Self.maximumLoops else {
                if !loops.markedLimit {
                    loops.markedLimit = true
                    tracker.mark(
                        "LoopRecorder: \(Self.maximumLoops) loops are recorded, the limit: the loop of thread "
                            + "\(wanted) and of every thread after it is not", .point)
                }
                return nil
            }
            var name = wanted
            var number = 2
            while loops.names.contains(name) {
                name = RecordedEvent.bounded("\(wanted) \(number)")
                number += 1
            }
            loops.names.insert(name)
            let added = LoopTracker(loop: loop, index: writer.addThread(name), buffer: buffer, origin: tracker.start)
            loops.recorded.append((added, Self.observe(added, in: modes), Self.callingThread()))
            return added
        }
        guard let added else { return false }
        if let sampler {
            loop_sampler_unblock()
            sampler.add(tracker: added, threadID: loop_sampler_thread_id())
        }
        return true
    }

    /// Records the calling thread's run loop in the recording in progress (``addCurrentThreadLoop(thread:)``);
    /// false when there is none.
    @discardableResult
    public static func addCurrentThreadLoop(thread: String? = nil) -> Bool {
        current.withLock { $0 }?.addCurrentThreadLoop(thread: thread) ?? false
    }

    /// The loop that the calling thread's marks go to: its own when it is recorded, else the first.
    private var markTracker: LoopTracker {
        loops.withLock { loops in
            guard loops.recorded.count > 1 else { return tracker }
            let thread = Self.callingThread()
            return loops.recorded.first { $0.thread == thread }?.tracker ?? tracker
        }
    }

    /// The calling thread, as a number to compare.
    private static func callingThread() -> Int { Int(bitPattern: pthread_self()) }

    /// Stops recording: removes the observers, writes every buffered event and closes the file. Later calls return
    /// the same summary.
    @discardableResult
    public func stop() -> Summary {
        summary.withLock { summary in
            if let summary { return summary }
            let recorded = loops.withLock { loops in
                loops.stopped = true
                return loops.recorded.map(\.observers)
            }
            for observer in recorded.joined() { CFRunLoopObserverInvalidate(observer) }
            sampler?.stop()
            writer.stopAndWait()
            let result = Summary(
                events: writer.written, dropped: buffer.droppedTotal, writeFailed: writer.writeFailed)
            summary = result
            Self.current.withLock { current in
                if current === self { current = nil }
            }
            return result
        }
    }

    /// Stops the recorder that marks go to, if any.
    @discardableResult
    public static func stop() -> Summary? {
        current.withLock { $0 }?.stop()
    }

    /// Records a point in time with the program's own words (what it is about to do, which source fired).
    /// With several loops recorded, a mark made on a recorded loop's thread goes to that loop, any other to the
    /// first loop.
    public static func mark(_ label: String) { current.withLock { $0 }?.markTracker.mark(label, .point) }

    /// Records the start of a named piece of work; `end(_:)` with the same label records its end.
    public static func begin(_ label: String) { current.withLock { $0 }?.markTracker.mark(label, .begin) }

    /// Records the end of the work `begin(_:)` started.
    public static func end(_ label: String) { current.withLock { $0 }?.markTracker.mark(label, .end) }

    /// Runs `work` between a `begin` and an `end` of `label`.
    @discardableResult
    public static func interval<T>(_ label: String, _ work: () throws -> T) rethrows -> T {
        begin(label)
        defer { end(label) }
        return try work()
    }

    private static func cfMode(_ mode: RunLoop.Mode) -> CFRunLoopMode {
        switch mode {
        case .common: kCFRunLoopCommonModes
        case .default: kCFRunLoopDefaultMode
        default: CFStringCreateWithCString(nil, mode.rawValue, CFStringBuiltInEncodings.UTF8.rawValue)
        }
    }

    /// The calling thread's name; `thread` and its kernel id when it has none of its own (on Linux a new thread
    /// is named as the process until it names itself, and a name given to a `Thread` before `start()` does not
    /// reach it).
    private static func threadName() -> String {
        if let name = Thread.current.name, !name.isEmpty,
            name != String(ProcessInfo.processInfo.processName.prefix(15))
        {
            return name
        }
        let id = loop_sampler_thread_id()
        return id > 0 ? "thread \(id)" : "thread"
    }
}
