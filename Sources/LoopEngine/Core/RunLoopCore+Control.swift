extension RunLoopCore {
    /// `CFRunLoopWakeUp`: writes the wake-up port unless the innermost run ignores wake-ups (no run active, or
    /// between the end of a wait and the start of the next iteration, docs/cfrunloop.md §10.1).
    ///
    /// The decision is taken under the engine lock, the write is made after releasing it. On real threads the
    /// woken loop thread often preempts the writer right after the write and then has to sleep on the lock the
    /// writer still holds: two more context switches, a one-way wake-up ~1.5× slower than CF's (`loopviz bench`).
    /// Which wait the write ends was already a matter of timing: a wait that returns for another port just before
    /// the write leaves the wake-up for the next wait, with the lock held or not, so no trace becomes possible that
    /// was not before; on the virtual clock nothing runs between the release and the write.
    public func wakeUp() {
        if lock.withLock({ wakeUpDecisionLocked(reason: nil) }) { waiter.send(wakeUpPort) }
    }

    func wakeUp(reason: LoopEvent.WakeUpCaller) {
        if lock.withLock({ wakeUpDecisionLocked(reason: reason) }) { waiter.send(wakeUpPort) }
    }

    func wakeUpLocked(reason: LoopEvent.WakeUpCaller?) {
        if wakeUpDecisionLocked(reason: reason) { waiter.send(wakeUpPort) }
    }

    /// Emits the `wakeUp` event and says whether the port is to be written (false: the wake-up is ignored).
    private func wakeUpDecisionLocked(reason: LoopEvent.WakeUpCaller?) -> Bool {
        guard let run = runs.last, !run.ignoreWakeUps else {
            emit(.wakeUp, nil, .wakeUp(reason, ignored: runs.isEmpty ? .noRun : .afterTheWait))
            return false
        }
        emit(.wakeUp, nil, reason.map { .wakeUp($0, ignored: nil) })
        return true
    }

    /// `CFRunLoopStop`: stops the innermost active run at the end of its current iteration. A stop with no run
    /// active is forgotten.
    public func stop() {
        lock.withLock {
            guard let run = runs.last else {
                emit(.stop, nil, .ignored(.noRun))
                return
            }
            run.stopped = true
            // Iteration 0: an entry observer's stop, which ends the run at once (S1, docs/cfrunloop.md §10.2); in the
            // exit observers the result is decided and the stop is discarded with the run's record (§2.1 step 8).
            let point: LoopEvent.StopPoint = run.isExiting ? .exit : run.iteration == 0 ? .entry : .iteration
            emit(.stop, nil, .stop(point))
            wakeUpLocked(reason: .stop)
        }
    }

    /// `_CFRunLoopStopMode`: a sticky stop that ends the next run of `mode` at once, even if it is not running.
    /// Like CF it creates the mode (`CFRunLoopCopyAllModes` lists it), so the stop waits for a mode not made yet.
    package func stopMode(_ modeName: ModeName) {
        lock.withLock {
            guard let mode = modeLocked(modeName, create: true) else { return }
            mode.stoppedSticky = true
            emit(.stop, nil, .mode(modeName.rawValue))
            wakeUpLocked(reason: .stop)
        }
    }

    /// Records a note (a scenario's `say`) in the trace.
    package func note(_ text: String) {
        note(.say(text))
    }

    /// Records something the engine has to say about the scenario in the trace.
    func note(_ note: LoopEvent.Note) {
        lock.withLock { emit(.note, nil, .note(note)) }
    }

    /// Records an event about this loop's thread that the loop itself does not make (a thread created, ended).
    func record(_ kind: LoopEvent.Kind, _ item: String?, fact: LoopEvent.Fact?) {
        lock.withLock { emit(kind, item, fact) }
    }

    // MARK: - The wrappers users meet

    /// `CFRunLoopRun()`: runs the default mode with no time limit until a run is stopped or finishes.
    @discardableResult
    public func runUntilStopped() -> RunResult {
        while true {
            let result = run(mode: .default, seconds: 1.0e10, returnAfterSourceHandled: false)
            if result == .stopped || result == .finished || isHalted { return result }
        }
    }

    /// Foundation's `RunLoop.run(mode:before:)`: false without running when the mode is empty; otherwise one
    /// `CFRunLoopRunInMode(mode, limit - now, true)` and true, whatever its result.
    @discardableResult
    package func runFoundation(mode: ModeName, before limit: LoopInstant) -> Bool {
        if isHalted { return false }
        if isFinished(mode: mode) {
            // CF calls no observer here, so nothing else in the trace would show why the call came back.
            note(.emptyModeReturned(mode: mode.rawValue))
            return false
        }
        run(mode: mode, seconds: secondsUntil(limit), returnAfterSourceHandled: true)
        return true
    }

    /// Foundation's `RunLoop.acceptInput(forMode:before:)`: `CFRunLoopRunInMode(mode, limit - now, true)`, with
    /// no emptiness check first (an empty mode returns finished from the run itself) and nothing returned.
    package func acceptInput(forMode mode: ModeName, before limit: LoopInstant) {
        if isHalted { return }
        run(mode: mode, seconds: secondsUntil(limit), returnAfterSourceHandled: true)
    }

    /// `limitDate.timeIntervalSinceReferenceDate - CFAbsoluteTimeGetCurrent()`, as Foundation computes a run's
    /// seconds: in floating point, so that the distant past and future stay far out of range instead of wrapping.
    ///
    /// On Linux `Date()` reads nanoseconds and `CFAbsoluteTimeGetCurrent()` whole microseconds (`gettimeofday`),
    /// so a limit of "now" is usually still ahead of CF's clock: `acceptInput(forMode:before: Date())` slept in
    /// 77–80 % of 20,000 runs here, `run(mode:before: Date())` in 26–36 % (docs/cfrunloop.md §13.2). A limit at
    /// most a microsecond past is therefore a race (`LoopWaiter.clockReadsBeforeLimit(loop:)`): the default polls,
    /// the other waits out the rest of the limit's microsecond.
    func secondsUntil(_ limit: LoopInstant) -> Double {
        if limit == .distantFuture { return .infinity }
        if limit == .distantPast { return -.infinity }
        let past = clock.now.nanoseconds - limit.nanoseconds
        if profile == .linux, (0..<Self.clockTick).contains(past),
            lock.withLock({ waiter.clockReadsBeforeLimit(loop: name) })
        {
            return Double(Self.clockTick - past) / 1e9
        }
        return Double(limit.nanoseconds) / 1e9 - Double(clock.now.nanoseconds) / 1e9
    }

    /// The tick of `CFAbsoluteTimeGetCurrent()` on Linux, in nanoseconds: a microsecond.
    static let clockTick: Int64 = 1_000

    /// Foundation's `RunLoop.run()`: `while run(mode: .default, before: .distantFuture) {}`. A stop only ends one
    /// inner run; this returns only when the default mode is empty - why `-[NSRunLoop run]` "cannot be stopped".
    package func runFoundationForever() {
        while runFoundation(mode: .default, before: .distantFuture) {}
    }

    /// Foundation's `RunLoop.limitDate(forMode:)`: polls `mode` once (`CFRunLoopRunInMode(mode, -10, true)`,
    /// which fires due timers), then returns nil if the mode is empty, the next timer's deadline, or
    /// `distantFuture` when it has no timer.
    package func limitDate(forMode mode: ModeName) -> LoopInstant? {
        run(mode: mode, seconds: -10, returnAfterSourceHandled: true)
        if isHalted || isFinished(mode: mode) { return nil }
        return nextTimerFireDate(in: mode) ?? .distantFuture
    }

    /// Foundation's `RunLoop.run(until:)`: the same loop, which also ends once `limit` has passed
    /// (`while run(mode: .default, before: limit) && limit > now {}`: a date already past still runs once).
    package func runFoundation(until limit: LoopInstant) {
        while runFoundation(mode: .default, before: limit) && clock.now < limit {}
    }
}
