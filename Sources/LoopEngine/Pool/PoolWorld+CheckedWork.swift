/// How a synchronous operation's work with check points ended.
enum CheckedWork: Equatable {
    /// It worked its whole duration (a cancel after the last check point goes unseen).
    case worked
    /// A check point saw `isCancelled`: it stops there.
    case cancelled
    /// The world halted meanwhile: the run is over and the operation did not finish.
    case halted
}

extension PoolWorld {
    /// Works for `duration`, looking at `isCancelled` every `every` (the check points; not at the end).
    ///
    /// The default works slice by slice. A check point missed because the thread came back late (a real sleep
    /// overshoots) is not made up for: the next check is at the next check point still to come, as a real
    /// polling loop that looks at its clock does; so `check every 1ns` costs what real polls cost, not 10⁹ sleeps.
    func work(_ duration: Duration, checkingEvery every: Duration, isCancelled: @escaping () -> Bool) -> CheckedWork {
        workInSlices(duration, checkingEvery: every, isCancelled: isCancelled)
    }

    /// The slice-by-slice way of ``work(_:checkingEvery:isCancelled:)``.
    func workInSlices(_ duration: Duration, checkingEvery every: Duration, isCancelled: () -> Bool) -> CheckedWork {
        let start = clock.now
        let end = start + duration
        let step = max(every.nanosecondsClamped, 1)
        var point = start
        while true {
            point = Self.checkPoint(after: point, notBefore: clock.now, start: start, every: step, end: end)
            let left = point - clock.now
            if left > .zero { work(left) }
            if kernel.isHalted { return .halted }
            if point >= end || clock.now >= end { return .worked }
            if isCancelled() { return .cancelled }
        }
    }

    /// The first check point (`start + k·every`, k ≥ 1) later than `passed` and not before `now`; `end` when
    /// there is none before it.
    static func checkPoint(
        after passed: LoopInstant, notBefore now: LoopInstant, start: LoopInstant, every: Int64, end: LoopInstant
    ) -> LoopInstant {
        let afterPassed = (passed.nanoseconds - start.nanoseconds) / every + 1
        let sinceStart = now.nanoseconds - start.nanoseconds
        let notBefore = sinceStart <= 0 ? 1 : (sinceStart + every - 1) / every
        let (offset, overflow) = max(afterPassed, notBefore).multipliedReportingOverflow(by: every)
        if overflow { return end }
        return min(start + .nanoseconds(offset), end)
    }
}
