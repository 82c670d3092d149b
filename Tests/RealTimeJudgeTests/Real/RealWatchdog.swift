#if os(Linux)
import LoopEngine
import Testing

extension Real {
    /// How long a wait that should end at once may take before a test calls it hung: far beyond any stop or
    /// perform on a loaded machine under ThreadSanitizer (milliseconds), far below the CI step's limit.
    static let hangLimit: Duration = .seconds(20)

    /// A time limit for the waits that have none of their own: `LoopThread.stop()` joins the thread, and
    /// `perform(waitUntilDone: true)` and dropping the last reference wait for it too. A test runs such a wait
    /// through ``bounded(within:rescue:_:)``; if it outlives its limit, the watchdog's thread runs the rescue (halting
    /// the loop's backend: its runs unwind and its thread ends, so the wait returns), and the test reports which wait
    /// hung instead of hanging the test runner. Issues are recorded by the caller, on the test's own thread.
    final class Watchdog: @unchecked Sendable {
        // @unchecked Sendable: `armed`, `nextID` and `running` are guarded by `lock`.
        private struct Entry {
            let deadline: Int64
            let rescue: @Sendable () -> Void
        }

        private let lock = LoopLock()
        private var armed: [Int: Entry] = [:]
        private var nextID = 0
        private var running = true
        private var thread: TestThread?

        init() {
            thread = TestThread { [self] in watch() }
        }

        /// Ends the watchdog's thread (it holds the watchdog until then).
        func stop() {
            lock.withLock { running = false }
            thread?.join()
            thread = nil
        }

        /// Runs `wait`; past `limit`, runs `rescue` on the watchdog's thread, which must make `wait` return.
        /// Returns false if the rescue was needed: the wait hung.
        func bounded(
            within limit: Duration = Real.hangLimit, rescue: @escaping @Sendable () -> Void, _ wait: () -> Void
        ) -> Bool {
            let id = lock.withLock {
                nextID += 1
                armed[nextID] = Entry(deadline: Real.monotonic() + limit.nanosecondsClamped, rescue: rescue)
                return nextID
            }
            wait()
            // Still armed: it returned in time. Gone: the watchdog took it and rescued it.
            return lock.withLock { armed.removeValue(forKey: id) != nil }
        }

        private func watch() {
            while lock.withLock({ running }) {
                let now = Real.monotonic()
                let due = lock.withLock {
                    let ids = armed.filter { $0.value.deadline <= now }.map(\.key)
                    return ids.compactMap { armed.removeValue(forKey: $0)?.rescue }
                }
                for rescue in due { rescue() }
                Real.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Threads a test could not join because they never ended: held for the rest of the process and never joined
    /// (`TestThread` joins in its deinit), so that the test can end and report instead of hanging.
    private static let abandoned = Shared<[TestThread]>([])

    static func abandon(_ threads: [TestThread]) { abandoned.update { $0 += threads } }

    /// Runs `wait` (a stop, a perform that waits, a join of threads that stop or perform) within `limit`: past
    /// it, `thread`'s backend is halted (its run unwinds, the thread ends, and so the wait returns) and the test
    /// fails, saying which wait hung.
    @discardableResult
    static func bounded<T>(
        _ what: String, on thread: LoopThread, within limit: Duration = hangLimit, _ wait: () -> T
    ) -> T {
        let watchdog = Watchdog()
        defer { watchdog.stop() }
        let waiter = thread.loop.waiter as? EpollWaiter
        var result: T?
        let inTime = watchdog.bounded(within: limit, rescue: { waiter?.halt() }) { result = wait() }
        #expect(inTime, "\(what) did not return within \(limit): the thread's backend was halted to end it")
        return result!
    }
}
#endif
