/// A synchronous pool operation's check points, as the scheduler of hosted threads sees them.
///
/// `work 1s check every 1ns` has 10⁹ check points. A check point only reads `isCancelled`, which only another
/// thread or an outside event can set, and then only at an instant when it runs: between two such instants every
/// check sees false and changes nothing. So the working thread does not take the baton at each check point: it
/// waits in one phase until its work ends, and the scheduler wakes it at a check point only when `isCancelled`
/// holds there. The cost is then that of the events of the run, not of its check points, and the trace is the one
/// that looking at every check point gives (a thread reached at its check point, uncancelled, has had its turn
/// there: ``passed``).
struct CheckPoints {
    let start: LoopInstant
    /// The interval between check points, in nanoseconds (at least 1).
    let every: Int64
    /// The end of the work; there is no check there.
    let end: LoopInstant
    /// The latest check point already looked at (``start`` before the first).
    var passed: LoopInstant
    let isCancelled: () -> Bool

    /// The check point the thread looks at next at `now` or later; ``end`` when there is none before it.
    func pending(at now: LoopInstant) -> LoopInstant {
        VirtualWorld.checkPoint(after: passed, notBefore: now, start: start, every: every, end: end)
    }

    /// True when `now` is a check point not looked at yet (not the end).
    func isAtCheckPoint(_ now: LoopInstant) -> Bool {
        now < end && pending(at: now) == now
    }

    /// The thread goes on at `now`: its work is over, or a check point sees the cancel.
    func canGoOn(at now: LoopInstant) -> Bool {
        now >= end || (isAtCheckPoint(now) && isCancelled())
    }

    /// When the thread goes on if nothing else happens first: at the next check point if it is cancelled, else at
    /// the end of its work (whatever could cancel it is an event of its own, which comes first).
    func nextTime(from now: LoopInstant) -> LoopInstant {
        isCancelled() ? pending(at: now) : end
    }
}

extension VirtualWorld {
    /// A synchronous operation's work with check points: see ``CheckPoints``. Unhosted callers (a world driven by
    /// its caller, an outside event) work slice by slice.
    func work(_ duration: Duration, checkingEvery every: Duration, isCancelled: @escaping () -> Bool) -> CheckedWork {
        guard let thread = hostedCaller else {
            return workInSlices(duration, checkingEvery: every, isCancelled: isCancelled)
        }
        if haltReason != nil { return .halted }
        let start = now
        let end = start + duration
        guard end > start else { return .worked }
        if nothingElseHappens(until: end, besides: thread) {
            // Nobody could cancel it meanwhile: every check point would see false; spend only moves the clock.
            spend(duration)
            return .worked
        }
        let checks = CheckPoints(
            start: start, every: max(every.nanosecondsClamped, 1), end: end, passed: start, isCancelled: isCancelled)
        suspend(thread, as: .checking(checks))
        if haltReason != nil { return .halted }
        return now >= end ? .worked : .cancelled
    }
}
