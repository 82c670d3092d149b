#if os(Linux)
import Glibc

/// Real-time scheduling for the oracle's threads, where the process may use it (root, or `RLIMIT_RTPRIO`).
///
/// The engine's times are exact; the real CFRunLoop's are late by the time a woken thread waits for a CPU. On a
/// busy machine that wait reaches tens of milliseconds per wake-up, and a conversation between threads (lesson 39:
/// a start and four hand-overs, each one's lateness added to the next) goes beyond the tolerance; `nice` cannot
/// help where the kernel shares the CPU between sessions (autogroups). Under `SCHED_FIFO` a woken oracle thread
/// runs at once, so the times measure CF, not the machine's load. What CF does is not changed: only when a thread
/// gets the CPU. The scenario threads (declared, started, detached, outside events) run at priority 1 and the
/// time keeper at 2, so that a scenario spinning on every core is still halted at its limit (and the kernel keeps
/// 5% of each second for the other processes). Refused (not permitted), every thread keeps its normal policy.
enum OracleScheduling {
    static let scenarioPriority: Int32 = 1
    static let keeperPriority: Int32 = 2

    /// Puts the calling thread under `SCHED_FIFO` at `priority`, for good (a thread the oracle made).
    static func raiseCurrentThread(to priority: Int32) {
        var parameter = sched_param()
        parameter.sched_priority = priority
        _ = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &parameter)
    }

    /// Runs `body` with the calling thread (not the oracle's: the process's main thread, a test's thread) raised to
    /// `priority`, then gives it its policy back.
    static func raised<Result>(to priority: Int32, _ body: () throws -> Result) rethrows -> Result {
        var policy: Int32 = 0
        var saved = sched_param()
        let known = pthread_getschedparam(pthread_self(), &policy, &saved) == 0
        if known { raiseCurrentThread(to: priority) }
        defer { if known { _ = pthread_setschedparam(pthread_self(), policy, &saved) } }
        return try body()
    }
}
#endif
