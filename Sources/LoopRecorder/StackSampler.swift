import CLoopSampler
import Foundation
import Synchronization

/// Samples the recorded loops' threads' stacks while their loops are busy (Linux): a thread of its own looks every
/// `interval` whether a loop has been awake that long, and if so interrupts that loop's thread with a signal whose
/// handler unwinds its stack (`CLoopSampler`). Each sample is written as an event, and each object its frames lie
/// in once, with where it was loaded, so that `loopviz hangs` can name the functions when it reads the recording:
/// nothing is looked up while the program runs. One thread samples every loop of a recording, one at a time (the
/// signal handler has one place for a stack).
///
/// While a loop sleeps the sampler looks at it less and less often, down to every 20 ms, so an idle program is not
/// woken 1,000 times a second. A sample interrupts a system call the thread is in: one that the kernel does not
/// restart (`nanosleep`, `poll`, `epoll_wait`) returns `EINTR`, as it would for any signal.
final class StackSampler: @unchecked Sendable {
    /// The shortest and longest time between two samples: an interval outside is bounded to it.
    static let intervals: ClosedRange<TimeInterval> = 0.001...1
    /// The longest wait between two looks while the loop sleeps.
    static let idleLook: Int64 = 20_000_000
    /// The most loaded objects written, and the fewest samples between two looks for new ones.
    static let maximumModules = 4_096

    /// A loop sampled, and the sampler thread's state for it.
    private struct Target {
        var tracker: LoopTracker
        var threadID: Int64
        /// The time from the last look to the next.
        var wait: Int64
        var lastLook: Int64
        var wasBusy = false
        var due: Int64 { lastLook + wait }
    }

    private let interval: Int64
    /// Loops to sample from the next look on (the first one's and each one ``add(tracker:threadID:)`` adds).
    private let added: RecorderLocked<[(LoopTracker, Int64)]>
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// The loaded objects written so far, by the extent of their segments (touched by the sampler's thread only).
    private var known: [(low: UInt64, high: UInt64)] = []
    private var written: Set<UInt64> = []
    private var lastScan: Int64 = .min

    /// A sampler of the thread `threadID` (a kernel thread id), or nil where samples cannot be taken (not Linux,
    /// or no signal free for it).
    init?(tracker: LoopTracker, threadID: Int64, interval: TimeInterval) {
        guard loop_sampler_install() == 0 else { return nil }
        added = RecorderLocked([(tracker, threadID)])
        let bounded = interval.isNaN ? 0.01 : min(max(interval, Self.intervals.lowerBound), Self.intervals.upperBound)
        self.interval = Int64(bounded * 1e9)
    }

    /// Samples another loop's thread too (a kernel thread id), from the next look on.
    func add(tracker: LoopTracker, threadID: Int64) {
        added.withLock { $0.append((tracker, threadID)) }
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "LoopRecorder stack sampler"
        thread.start()
    }

    /// Stops sampling; returns once the sampler's thread has ended (at most one look and one sample later).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
    }

    /// The shortest overrun of the sampler's own wait written as a pause.
    static let pauseThreshold: Int64 = 100_000_000

    private func run() {
        var targets: [Target] = []
        while !stopped.load(ordering: .relaxed) {
            let new = added.withLock { added in
                defer { added = [] }
                return added
            }
            for (tracker, threadID) in new {
                targets.append(Target(tracker: tracker, threadID: threadID, wait: interval, lastLook: tracker.now))
            }
            let now = targets.first?.tracker.now ?? 0
            Self.sleep(max(0, (targets.map(\.due).min() ?? now + interval) - now))
            if stopped.load(ordering: .relaxed) { break }
            for index in targets.indices where targets[index].tracker.now >= targets[index].due {
                look(at: &targets[index])
            }
        }
    }

    /// One look at a loop whose time to be looked at has come: a sample if it has been busy for an interval.
    private func look(at target: inout Target) {
        let tracker = target.tracker
        let since = tracker.busySince.load(ordering: .relaxed)
        // The sampler's thread came back long after its wait (from the last look, whose sample takes
        // microseconds): the process did not run — stopped, or no CPU. Said when the loop was busy, where it
        // would lengthen a hang.
        let look = tracker.now
        let overrun = look - target.lastLook - target.wait
        if overrun >= Self.pauseThreshold && (target.wasBusy || since != 0) {
            tracker.sampled(look, name: "paused", fact: .paused(overrun))
        }
        target.lastLook = look
        target.wasBusy = since != 0
        guard since != 0 else {
            target.wait = min(target.wait * 2, max(interval, Self.idleLook))
            return
        }
        target.wait = interval
        guard look - (since - 1) >= interval else { return }
        sample(target.threadID, of: tracker, at: look)
    }

    private func sample(_ threadID: Int64, of tracker: LoopTracker, at look: Int64) {
        var frames = [UInt64](repeating: 0, count: Int(LOOP_SAMPLER_MAX_FRAMES))
        let count = frames.withUnsafeMutableBufferPointer {
            loop_sampler_capture(threadID, $0.baseAddress, LOOP_SAMPLER_MAX_FRAMES, 20_000)
        }
        guard count > 0 else { return }
        // Stamped once taken: the loop's own events since the look come before it in the file.
        let time = max(look, tracker.now)
        frames.removeLast(frames.count - Int(count))
        // The loop may have gone to sleep between the look and the signal: a sample of its wait is no hang's.
        guard tracker.busySince.load(ordering: .relaxed) != 0 else { return }
        if frames.contains(where: { frame in !known.contains { frame >= $0.low && frame < $0.high } }),
            known.isEmpty || time &- lastScan >= 1_000_000_000
        {
            lastScan = time
            writeModules(at: time, to: tracker)
        }
        tracker.sampled(time, name: "stack", fact: .stack(frames))
    }

    /// Writes every loaded object not written yet.
    private func writeModules(at time: Int64, to tracker: LoopTracker) {
        var found: [Module] = []
        withUnsafeMutablePointer(to: &found) { pointer in
            loop_sampler_modules(pointer) { context, path, base, low, high, identity, length in
                let list = context!.assumingMemoryBound(to: [Module].self)
                let buildID = identity.map { bytes in
                    (0..<Int(length)).map { String(bytes[$0], radix: 16).leftPadded }.joined()
                }
                list.pointee.append(
                    Module(
                        path: path.map { String(cString: $0) } ?? "", base: base, low: low, high: high, buildID: buildID
                    ))
            }
        }
        for module in found where !written.contains(module.low) && written.count < Self.maximumModules {
            written.insert(module.low)
            known.append((module.low, module.high))
            let path = module.path.isEmpty ? Self.executablePath() : module.path
            tracker.sampled(
                time, name: path,
                fact: .module(base: module.base, low: module.low, high: module.high, buildID: module.buildID))
        }
    }

    /// A loaded object as `loop_sampler_modules` reports it; `buildID` in hexadecimal.
    private struct Module {
        var path: String
        var base: UInt64
        var low: UInt64
        var high: UInt64
        var buildID: String?
    }

    private static func executablePath() -> String {
        var bytes = [CChar](repeating: 0, count: 4_096)
        let length = readlink("/proc/self/exe", &bytes, bytes.count - 1)
        guard length > 0 else { return CommandLine.arguments.first ?? "" }
        return String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func sleep(_ nanoseconds: Int64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}

extension String {
    /// A byte's two hexadecimal digits.
    fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
