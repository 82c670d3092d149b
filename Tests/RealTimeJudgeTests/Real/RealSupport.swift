#if os(Linux)
import CLoopKernel
import Glibc
import LoopEngine
import Testing

/// The tests of the real backend: real threads, the real clock, the kernel's eventfds, timerfds and epoll. They
/// assert on traces and counts, never on exact times; where time matters they allow wide margins (`slack`), since
/// CI machines are small and busy. Every suite is nested here so that
/// `swift test --filter 'RealTimeJudgeTests\.Real/'` selects them.
@Suite("real backend", .serialized, .timeLimit(.minutes(10)))
enum Real {
    /// How late a real event may be before a test calls it a failure: generous, as the machine may be loaded
    /// (parallel tests, ThreadSanitizer).
    static let slack: Duration = .milliseconds(250)

    /// How long a test waits for something that should happen at once before it gives up.
    static let patience: Duration = .seconds(10)

    /// Polls `condition` every millisecond until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    static func eventually(within timeout: Duration = patience, _ condition: () -> Bool) -> Bool {
        let deadline = lv_monotonic_ns() + timeout.nanosecondsClamped
        while !condition() {
            if lv_monotonic_ns() > deadline { return false }
            sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Polls until `done` holds, for as long as `progress` keeps changing: returns false only after `window`
    /// without any progress (a stall), however long the whole takes.
    static func eventually(
        stallingAfter window: Duration = .seconds(3), progress: () -> Int, _ done: () -> Bool
    ) -> Bool {
        var last = progress()
        var lastChange = lv_monotonic_ns()
        while !done() {
            let now = lv_monotonic_ns()
            let current = progress()
            if current != last {
                last = current
                lastChange = now
            } else if now - lastChange > window.nanosecondsClamped {
                return false
            }
            sleep(for: .milliseconds(1))
        }
        return true
    }

    static func sleep(for duration: Duration) {
        lv_sleep_until(lv_monotonic_ns() + duration.nanosecondsClamped)
    }

    /// Nanoseconds of `CLOCK_MONOTONIC`, for measuring how long something took.
    static func monotonic() -> Int64 { lv_monotonic_ns() }

    /// The process's resident set size in bytes (from `/proc/self/statm`), 0 if it cannot be read.
    static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return 0 }
        let fields = String(decoding: bytes[0..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// The CF-observable steps of `events` (activities, callouts, run starts and results).
    static func observableSteps(_ events: [LoopEvent]) -> [String] {
        events.filter(\.isCFObservable).map(\.step)
    }
}

/// A bare OS thread for tests, joined explicitly (joining is what gives the test a happens-before edge to
/// everything the thread did).
final class TestThread: @unchecked Sendable {
    // @unchecked Sendable: `handle` is written once before the thread is shared; `joined` is guarded by `lock`.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var handle = pthread_t()
    private let lock = LoopLock()
    private var joined = false

    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(
            &handle, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed (\(result))")
    }

    deinit { join() }

    func join() {
        let first = lock.withLock {
            defer { joined = true }
            return !joined
        }
        if first { pthread_join(handle, nil) }
    }
}

/// A value several threads share in a test.
///
/// Guarded by a pthread mutex (`LoopLock`), not `Synchronization.Mutex`: on Linux the latter waits on a futex
/// inside the precompiled library, where ThreadSanitizer cannot see it, and would report false races.
final class Shared<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `storage` is only touched with `lock` held.
    private let lock = LoopLock()
    private var storage: Value

    init(_ value: Value) { storage = value }

    var value: Value { lock.withLock { storage } }

    func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&storage) } }
}

/// One real loop with a recorder, run on the test's own thread; what other threads do is scheduled with `at`.
///
/// `at(ms)` acts like the virtual clock's outside events, with one difference the real world forces: it waits
/// until the loop is asleep (at or after that time) before it acts, because a virtual loop does everything between
/// two waits in no time at all, and a real one does not. Tests that need an action *during* a callout are not for
/// this harness.
final class RealHarness: @unchecked Sendable {
    // @unchecked Sendable: `recorder` is only touched with the engine lock held (the loop records under it, and
    // the harness reads under it); `helpers` is a `Shared`; the rest is immutable or thread-safe.
    let waiter: EpollWaiter
    let loop: RunLoopCore
    private let recorder = TraceRecorder()
    private let helpers = Shared<[TestThread]>([])

    init(profile: PlatformProfile = .linux) {
        waiter = EpollWaiter(profile: profile)
        loop = waiter.makeLoop(named: "T")
        loop.sink = recorder
    }

    deinit { finish() }

    func ms(_ value: Int) -> LoopInstant { .zero + .milliseconds(value) }

    /// Runs `action` on another thread once `milliseconds` have passed since the harness was made and the loop is
    /// asleep (or after `Real.patience`, if it never sleeps again).
    func at(_ milliseconds: Int, _ action: @escaping @Sendable () -> Void) {
        let loop = loop
        let deadline = loop.clock.now + .milliseconds(milliseconds)
        let thread = TestThread {
            Real.sleep(for: max(deadline - loop.clock.now, .zero))
            Real.eventually { loop.isWaiting }
            action()
        }
        helpers.update { $0.append(thread) }
    }

    /// Joins every helper thread: after this, nothing but the test touches the loop.
    func finish() {
        let threads = helpers.update { threads in
            defer { threads = [] }
            return threads
        }
        for thread in threads { thread.join() }
    }

    var events: [LoopEvent] { waiter.engineLock.withLock { recorder.events } }
    var steps: [String] { Real.observableSteps(events) }
}
#endif
