#if os(Linux)
import CLoopKernel
import CoreFoundation
import LoopEngine

#if canImport(Glibc)
import Glibc
#endif

/// Row 3: a 10 ms repeating timer, left to run for a few seconds. Each fire's lateness is how far after its
/// grid point (first deadline + k · 10 ms) the callout read the clock; CPU is the loop thread's own
/// (`RUSAGE_THREAD`) over the run's wall time.
///
/// The baseline is a thread that arms a timerfd at each absolute `CLOCK_MONOTONIC` deadline and waits for it in
/// `ppoll` (what CF and the engine's real backend do underneath, with no loop around it).
enum TimerLatenessBench {
    static let interval: Int64 = 10_000_000

    struct Round {
        /// Lateness of each fire, in microseconds.
        var lateness: [Double] = []
        /// The loop thread's CPU time over wall time, in percent.
        var cpuPercent = 0.0
    }

    /// Microseconds from the last grid point at or before `now` (the deadline being served) to `now`.
    static func lateness(at now: Int64, first: Int64) -> Double {
        guard now >= first else { return 0 }
        return Double((now - first) % interval) / 1_000
    }

    /// The raw baseline: timerfd + ppoll on one thread.
    static func rawTimerfd(seconds: Double) -> Round {
        var round = Round()
        BenchThread.run {
            let fd = lv_timerfd_create()
            precondition(fd >= 0, "timerfd_create failed")
            defer { close(fd) }
            let before = BenchPlatform.threadUsage()
            let start = BenchPlatform.now()
            let end = start + Int64(seconds * 1e9)
            let first = start + interval
            var deadline = first
            _ = lv_timerfd_arm(fd, deadline)
            while deadline <= end {
                _ = lv_ppoll_one(fd, -1)
                _ = lv_read_counter(fd)
                let now = BenchPlatform.now()
                round.lateness.append(lateness(at: now, first: first))
                deadline = first + ((now - first) / interval + 1) * interval
                _ = lv_timerfd_arm(fd, deadline)
            }
            let used = BenchPlatform.threadUsage() - before
            round.cpuPercent = Double(used.cpuNanoseconds) / Double(BenchPlatform.now() - start) * 100
        }
        return round
    }

    /// LoopEngine: a `LoopTimer` every 10 ms in one `run(mode: .default, seconds:)`.
    static func engine(_ engine: BenchEngine, seconds: Double) -> Round {
        var round = Round()
        BenchThread.run {
            let loop = engine.makeLoop(named: "timer")
            let clock = loop.clock
            let first = clock.now + .nanoseconds(interval)
            var lateness: [Double] = []
            lateness.reserveCapacity(Int(seconds * 1e9) / Int(interval) + 8)
            let timer = LoopTimer(name: "tick", fireDate: first, interval: .nanoseconds(interval)) { _ in
                lateness.append(Self.lateness(at: clock.now.nanoseconds, first: first.nanoseconds))
            }
            loop.add(timer, to: .default)
            let before = BenchPlatform.threadUsage()
            let start = BenchPlatform.now()
            loop.run(mode: .default, seconds: seconds)
            let used = BenchPlatform.threadUsage() - before
            round.cpuPercent = Double(used.cpuNanoseconds) / Double(BenchPlatform.now() - start) * 100
            timer.invalidate()
            round.lateness = lateness
        }
        return round
    }

    /// The real CFRunLoop: a `CFRunLoopTimer` every 10 ms in one `CFRunLoopRunInMode(default, seconds, false)`.
    static func cf(seconds: Double) -> Round {
        var round = Round()
        BenchThread.run {
            let loop = CFRunLoopGetCurrent()!
            var lateness: [Double] = []
            lateness.reserveCapacity(Int(seconds * 1e9) / Int(interval) + 8)
            // CF takes an absolute (wall-clock) fire date and converts it to the monotonic clock at once.
            let first = BenchPlatform.now() + interval
            let fireDate = CFAbsoluteTimeGetCurrent() + Double(interval) / 1e9
            let timer = BenchCF.timer(fireDate: fireDate, interval: Double(interval) / 1e9) {
                lateness.append(Self.lateness(at: BenchPlatform.now(), first: first))
            }
            CFRunLoopAddTimer(loop, timer, kCFRunLoopDefaultMode)
            let before = BenchPlatform.threadUsage()
            let start = BenchPlatform.now()
            BenchCF.runDefault(seconds: seconds)
            let used = BenchPlatform.threadUsage() - before
            round.cpuPercent = Double(used.cpuNanoseconds) / Double(BenchPlatform.now() - start) * 100
            CFRunLoopTimerInvalidate(timer)
            round.lateness = lateness
        }
        return round
    }
}
#endif
