#if os(Linux)
import CLoopKernel

/// The real clock: `CLOCK_MONOTONIC`, the clock CF's timers and time limits use on Linux.
///
/// Instants count from the moment the clock was made (its `origin`), so a real trace starts near zero like a
/// virtual one, and the kernel's absolute deadlines are `origin + instant`.
public final class MonotonicClock: LoopClock, Sendable {
    /// `CLOCK_MONOTONIC` in nanoseconds at `LoopInstant.zero`.
    package let origin: Int64

    /// A clock whose zero is now.
    public init() {
        origin = lv_monotonic_ns()
    }

    /// The time since the clock was made.
    public var now: LoopInstant { LoopInstant(nanoseconds: lv_monotonic_ns() &- origin) }

    /// Nothing: a real iteration takes the time it takes.
    public var iterationCost: Duration { .zero }

    /// Nothing: the core never asks, the cost being zero.
    public func spendIteration() {}

    /// Keeps the calling thread away from its loop for `duration`, as a callout doing real work would.
    ///
    /// It sleeps rather than spins: the loop's thread is unavailable either way, and a spinning callout would
    /// take a whole core from the threads a test or a scenario is trying to observe.
    public func spend(_ duration: Duration) {
        guard duration > .zero else { return }
        lv_sleep_until(absolute(now + duration))
    }

    /// The `CLOCK_MONOTONIC` time of `instant`, clamped to what the kernel accepts for a deadline: at least 1 ns
    /// (0 would disarm a timerfd; an instant before the origin has passed anyway) and at most about 146 years
    /// after boot (`distantFuture` and beyond).
    func absolute(_ instant: LoopInstant) -> Int64 {
        let (sum, overflow) = origin.addingReportingOverflow(instant.nanoseconds)
        if overflow { return instant.nanoseconds < 0 ? 1 : Self.latestDeadline }
        return min(max(sum, 1), Self.latestDeadline)
    }

    static let latestDeadline: Int64 = .max / 2
}
#endif
