#if os(Linux)
import CLoopKernel
import Glibc
import LoopEngine
import SnapshotSupport
import Synchronization
import Testing

extension Real {
    /// `LoopThread` started, given tasks and stopped thousands of times, from several threads at once: every task
    /// accepted runs once and in order, every stop returns, and a wait that hangs fails the test naming its cycle
    /// (the watchdog halts that thread's backend to end it) instead of hanging the test runner. The default size
    /// keeps `swift test` to a few seconds; `LOOPVIZ_THREAD_CYCLES=10000 swift test --filter Stress` (or
    /// `Scripts/tsan-real.sh`, which runs 10,000 under ThreadSanitizer) for the full run.
    @Suite("stress: LoopThread start, perform and stop cycles")
    struct LoopThreadStressTests {
        static let drivers = 4

        /// Start-perform-stop cycles in all, shared out among the drivers.
        static var cycles: Int {
            if let text = getenv("LOOPVIZ_THREAD_CYCLES"), let count = Int(String(cString: text)), count > 0 {
                return count
            }
            return 5_000
        }

        /// What one driver saw go wrong; kept to a few lines each, with a count of the rest.
        final class Findings: @unchecked Sendable {
            // @unchecked Sendable: `lines` and `count` are guarded by `lock`.
            private let lock = LoopLock()
            private var lines: [String] = []
            private var count = 0

            func add(_ line: String) {
                lock.withLock {
                    count += 1
                    if lines.count < 20 { lines.append(line) }
                }
            }

            var summary: (count: Int, lines: [String]) { lock.withLock { (count, lines) } }
        }

        @Test("thousands of start, perform and stop cycles from several threads: nothing hangs, nothing is lost")
        func startPerformStopCycles() {
            // Four drivers load both cores (most of all under ThreadSanitizer): the tests that time real runs must
            // not share the machine with it (a lesson on real threads saw a 0.1 s time limit delivered 57 ms late).
            RealTimeGate.exclusive { Self.cycleFromSeveralThreads() }
        }

        private static func cycleFromSeveralThreads() {
            let total = Self.cycles
            let watchdog = Watchdog()
            defer { watchdog.stop() }
            let findings = Findings()
            let done = Atomic<Int>(0)
            let start = Real.monotonic()
            let drivers = (0..<Self.drivers).map { driver in
                TestThread {
                    var cycle = driver
                    while cycle < total {
                        Self.runCycle(cycle, watchdog: watchdog, findings: findings)
                        done.add(1, ordering: .relaxed)
                        cycle += Self.drivers
                    }
                }
            }
            // Every wait inside is bounded; this one too: while cycles keep finishing, however slowly.
            let finished = Real.eventually(
                stallingAfter: Real.hangLimit * 2, progress: { done.load(ordering: .relaxed) }
            ) {
                done.load(ordering: .relaxed) == total
            }
            if finished {
                for driver in drivers { driver.join() }
            } else {
                // Never join a thread that does not end: leave it behind, and say so.
                Real.abandon(drivers)
            }
            #expect(finished, "the drivers stalled after \(done.load(ordering: .relaxed)) of \(total) cycles")
            let (count, lines) = findings.summary
            #expect(count == 0, "\(count) problems in \(total) cycles; the first:\n\(lines.joined(separator: "\n"))")
            let elapsed = Duration.nanoseconds(Real.monotonic() - start)
            print("LoopThread stress: \(total) start-perform-stop cycles on \(Self.drivers) threads in \(elapsed)")
        }

        @Test("a wait that hangs is ended by the watchdog, which says it hung: a run asleep for ever is halted")
        func watchdogEndsAHang() {
            let waiter = EpollWaiter()
            let loop = waiter.makeLoop(named: "stuck")
            loop.add(LoopSource(portNamed: "keepAlive", on: waiter) { _ in }, to: .default)
            let watchdog = Watchdog()
            defer { watchdog.stop() }
            var result: RunResult?
            let inTime = watchdog.bounded(within: .milliseconds(50), rescue: { waiter.halt() }) {
                result = loop.run(mode: .default, seconds: .infinity)
            }
            #expect(!inTime)
            #expect(result == .finished)
        }

        /// One cycle; which shape it takes depends on its number. Every wait is bounded by `watchdog`.
        private static func runCycle(_ cycle: Int, watchdog: Watchdog, findings: Findings) {
            if cycle % 6 == 3 {
                dropTheLastReference(cycle, watchdog: watchdog, findings: findings)
                return
            }
            let worker = LoopThread(name: "cycle")
            let waiter = worker.loop.waiter as? EpollWaiter
            let log = Shared<[Int]>([])
            let tasks = 1 + cycle % 4
            func bounded(_ what: String, _ wait: () -> Void) {
                if !watchdog.bounded(rescue: { waiter?.halt() }, wait) {
                    findings.add("cycle \(cycle): \(what) did not return within \(Real.hangLimit) (backend halted)")
                }
            }
            func expectLog(_ expected: [Int], _ shape: String) {
                let seen = log.value
                if seen != expected { findings.add("cycle \(cycle) (\(shape)): tasks ran as \(seen), not \(expected)") }
            }
            switch cycle % 6 {
            case 0:
                // The hang's shape: tasks queued without waiting, then a stop behind them.
                for index in 0..<tasks { worker.perform("task \(index)") { log.update { $0.append(index) } } }
                bounded("stop() after \(tasks) queued tasks") { worker.stop() }
                expectLog(Array(0..<tasks), "queued, then stop")
            case 1:
                // Waiting and not waiting, alternately, then a stop.
                for index in 0..<tasks {
                    let wait = index % 2 == 0
                    var accepted = false
                    bounded("perform(task \(index), waitUntilDone: \(wait))") {
                        accepted = worker.perform("task \(index)", waitUntilDone: wait) {
                            log.update { $0.append(index) }
                        }
                    }
                    if !accepted { findings.add("cycle \(cycle): task \(index) refused by a running thread") }
                }
                bounded("stop() after waited tasks") { worker.stop() }
                expectLog(Array(0..<tasks), "waited, then stop")
            case 2:
                // A task stops the thread while a caller waits for the task behind it: run, or released with false.
                worker.perform("stopper") { [weak worker] in worker?.stop() }
                var ran = false
                bounded("perform(after the stopper, waitUntilDone: true)") {
                    ran = worker.perform("after", waitUntilDone: true) { log.update { $0.append(1) } }
                }
                bounded("stop() after a stop from a task") { worker.stop() }
                expectLog(ran ? [1] : [], "stopped from a task")
            case 4:
                // The shape of the hang that was found: a burst of tasks, the last one waited for, then a stop. Each
                // task's wake-up races the loop's read of the one before.
                for index in 0..<32 { worker.perform("task \(index)") { log.update { $0.append(index) } } }
                bounded("perform(last of a burst, waitUntilDone: true)") {
                    _ = worker.perform("last", waitUntilDone: true) { log.update { $0.append(32) } }
                }
                bounded("stop() after a burst") { worker.stop() }
                expectLog(Array(0...32), "a burst, then stop")
            default:
                // Two stops race: one from a task, one from this thread.
                for index in 0..<tasks { worker.perform("task \(index)") { log.update { $0.append(index) } } }
                worker.perform("stopper") { [weak worker] in worker?.stop() }
                bounded("stop() racing a stop from a task") { worker.stop() }
                expectLog(Array(0..<tasks), "two stops")
            }
            if worker.isRunning { findings.add("cycle \(cycle): still running after stop()") }
            if worker.perform("late", { log.update { $0.append(-1) } }) {
                findings.add("cycle \(cycle): a task was accepted after stop()")
            }
        }

        /// The cycle that ends by dropping the last reference: deinit stops the thread and joins it.
        private static func dropTheLastReference(_ cycle: Int, watchdog: Watchdog, findings: Findings) {
            var thread: LoopThread? = LoopThread(name: "cycle")
            let waiter = thread?.loop.waiter as? EpollWaiter
            let log = Shared<[Int]>([])
            var ran = false
            let waited = watchdog.bounded(rescue: { waiter?.halt() }) {
                ran = thread?.perform("task", waitUntilDone: true) { log.update { $0.append(0) } } ?? false
            }
            if !waited { findings.add("cycle \(cycle): perform(task, waitUntilDone: true) did not return in time") }
            if !watchdog.bounded(rescue: { waiter?.halt() }, { thread = nil }) {
                findings.add("cycle \(cycle): dropping the last reference (deinit's stop and join) did not return")
            }
            if !ran || log.value != [0] { findings.add("cycle \(cycle) (dropped): tasks ran as \(log.value), not [0]") }
        }
    }
}
#endif
