extension RunLoopCore {
    /// Fires the timers of `mode` that are due by `limit`, in deadline order (docs/cfrunloop.md §9.3). Timers that
    /// become due during the batch wait for the next one. Returns true when at least one callout ran.
    func doTimers(_ mode: LoopModeState, limit: LoopInstant) -> Bool {
        let batch = mode.timers.due(by: limit)
        var fired = false
        for timer in batch {
            if isHalted { break }
            fired = doTimer(mode, timer) || fired
        }
        return fired
    }

    private func doTimer(_ mode: LoopModeState, _ timer: LoopTimer) -> Bool {
        guard timer.isValidStorage, timer.fireTime <= clock.now, !timer.isFiring, timer.loop === self else {
            return false
        }
        let oneShot = !timer.isRepeating
        timer.isFiring = true
        timer.rescheduledDuringCallout = false
        // Forget the armed deadline so the next timer (possibly with the same deadline) is armed afresh.
        mode.armedSoft = nil
        mode.armedHard = nil
        let scheduledFor = timer.fireTime
        armNextTimer(mode)
        timer.fireCountStorage += 1
        emit(.timer, timer, lateness(of: timer, due: scheduledFor, in: mode))
        callout(timer) { timer.callout(timer) }
        if oneShot { invalidateLocked(timer) }
        timer.isFiring = false
        guard timer.isValidStorage else { return true }
        if timer.rescheduledDuringCallout {
            // setNextFireDate inside the callout wins (CF honours any date set then, docs/cfrunloop.md §9.3).
            timer.rescheduledDuringCallout = false
            armNextTimer(mode)
        } else {
            // The missed-fire rule: the next point of the original grid strictly after now.
            timer.fireTime = Self.nextGridPoint(after: clock.now, from: scheduledFor, every: timer.interval)
            timer.dateStorage = timer.fireTime
            repositionInAllModes(timer)
        }
        return true
    }

    /// How late a fire is: no fact when it is on time, which on a real clock includes the few microseconds a
    /// wake takes. CF itself only knows the missed-fire rule: a repeating timer that missed a tick of its grid
    /// fires once, and the ticks are dropped (docs/cfrunloop.md §9.3).
    private func lateness(of timer: LoopTimer, due: LoopInstant, in mode: LoopModeState) -> LoopEvent.Fact? {
        let overdue = clock.now.nanoseconds - due.nanoseconds
        let missed: Int? =
            timer.isRepeating ? Int(overdue / max(timer.interval.nanosecondsClamped, 1)) : nil
        guard (missed ?? 0) > 0 || overdue >= Self.lateThreshold.nanosecondsClamped else { return nil }
        return .late(due: due, missed: missed, cause: lateCause(of: timer, due: due, in: mode))
    }

    /// Why a late fire could not come at its deadline, from what the loop was doing then, first match wins: the
    /// timer was not in this mode yet; the run of one of its modes was the innermost at the deadline - this one, or
    /// an outer one whose callout went on to start the nested runs - and slept across it, or was busy; else none
    /// of its modes was running (another mode, a nested run of another mode, no run).
    private func lateCause(of timer: LoopTimer, due: LoopInstant, in mode: LoopModeState) -> LoopEvent.LateCause {
        if let joined = timer.joinedAt[mode.name], joined > due { return .addedAfterDue }
        for index in runs.indices.reversed() {
            let run = runs[index]
            // The span in which this run was the innermost one: from its (re)start to its first nested run.
            let until = index + 1 < runs.count ? runs[index + 1].startedAt : .distantFuture
            guard run.modeRunningSince <= due, due < until else { continue }
            guard run.mode === mode || run.mode.timers.contains(timer) else { return .modeNotRunning }
            if let sleep = run.lastSleep, sleep.start <= due, sleep.end > due { return .sleptPast }
            return .busy
        }
        return .modeNotRunning
    }

    /// How far past its deadline a fire that missed no tick must come to count as late: far above a real
    /// loop's wake latency (tens of microseconds when idle), far below what a busy callout in a lesson costs.
    package static let lateThreshold: Duration = .milliseconds(1)

    /// `from + k·interval` with the smallest `k >= 1` that lies strictly after `now` (saturating at the end of
    /// time): missed ticks are dropped, never replayed.
    static func nextGridPoint(after now: LoopInstant, from start: LoopInstant, every interval: Duration) -> LoopInstant
    {
        let step = max(interval.nanosecondsClamped, 1)
        let behind = max(now.nanoseconds - start.nanoseconds, 0)
        let (steps, overflow1) = (behind / step + 1).multipliedReportingOverflow(by: step)
        let (next, overflow2) = start.nanoseconds.addingReportingOverflow(steps)
        return overflow1 || overflow2 ? .distantFuture : LoopInstant(nanoseconds: next)
    }

    /// Re-sorts `timer` in every mode it belongs to and re-arms those modes' timer ports. Only the modes whose port
    /// the loop arms are touched (`armedSlots`); the others read the move from `moveStamp` when asked. Resting modes
    /// are moved as one group each (`restingSlots`; `RunLoopCore+RestingModes.swift`).
    func repositionInAllModes(_ timer: LoopTimer) {
        // A move is a new deadline, computed now.
        let stamp = timer.stampDeadline()
        timer.moveStamp = stamp
        waiter.spendWork(1 + timer.armedSlots.count + timer.restingSlots.count)
        var restless: [LoopModeState] = []
        for armed in timer.armedSlots {
            let mode = armed.mode
            // One of a resting mode's own timers moved (`RunLoopCore+RestingModes.swift`): it wakes first.
            if mode.resting != nil { wake(mode) }
            mode.timers.reposition(armed.slot, stamp: stamp)
            timerMovesInModes += 1
            armNextTimer(mode)
            if mode.activeRuns == 0, countIdleMove(mode) { restless.append(mode) }
        }
        for resting in timer.restingSlots { moveResting(resting, stamp: stamp) }
        // After every move: a mode joins a group whose window is this fire's.
        for mode in restless { rest(mode) }
    }

    /// `__CFArmNextTimerInMode`: arms the mode's timer port for the earliest timer that is not firing, if that
    /// deadline differs from the one remembered. With no timer left the port is disarmed only on darwin; on
    /// linux it stays armed and wakes the loop once more for nothing (docs/cfrunloop.md §9.2).
    func armNextTimer(_ mode: LoopModeState) {
        let decision = armingDecision(mode.timers, soft: mode.armedSoft, hard: mode.armedHard)
        if let instant = decision.arm { waiter.arm(mode.timerPort, at: instant) }
        mode.armedSoft = decision.soft
        mode.armedHard = decision.hard
    }

    /// What ``armNextTimer(_:)`` does for a queue whose port was last armed for `soft` and `hard`: the window to
    /// remember, and the arm to make (`arm` nil: none; `.some(nil)`: disarm).
    func armingDecision(
        _ queue: TimerQueue, soft armedSoft: TimerQueue.Order?, hard armedHard: TimerQueue.Order?
    )
        -> (soft: TimerQueue.Order?, hard: TimerQueue.Order?, arm: LoopInstant??)
    {
        let honourTolerance = profile == .darwin
        let window = queue.armingWindow(honourTolerance: honourTolerance)
        if let window {
            guard window.soft != armedSoft || window.hard != armedHard else { return (window.soft, window.hard, nil) }
            // Darwin hands the whole window to the kernel; the virtual kernel fires at its end, which is where
            // coalescing shows.
            return (window.soft, window.hard, .some(honourTolerance ? window.hard.fireTime : window.soft.fireTime))
        }
        return (nil, nil, profile == .darwin ? .some(nil) : nil)
    }

    // MARK: - Adding and removing timers

    /// `CFRunLoopAddTimer`. Ignored when the timer is invalid or belongs to another loop (the trace says so with an
    /// `addDeclined` note: CF itself says nothing).
    public func add(_ timer: LoopTimer, to mode: ModeName) {
        lock.withLock {
            if refusesAfterMainThreadExitLocked(timer.name, .timer) { return }
            addLocked(timer, to: mode)
        }
    }

    func addLocked(_ timer: LoopTimer, to modeName: ModeName) {
        // Binding first: until then the timer's fields are not ours to read.
        guard timer.binding.bind(lock), timer.isValidStorage else { return }
        if let holder = timer.loop, holder !== self {
            // CF's `rlt->_runLoop != rl`: a timer belongs to one loop until it leaves its last mode there.
            emit(.note, timer.name, .note(.addDeclined(item: timer.name, kind: .timer, holder: holder.name)))
            return
        }
        if modeName == .common {
            commonTimers.append(timer)
            for name in commonModes { addLocked(timer, to: name) }
            return
        }
        // The mode's own heap says whether the timer is in it: one lookup, where `timer.modes` is a list as long as
        // the modes it is in.
        guard let mode = modeLocked(modeName, create: true), !mode.timers.contains(timer) else { return }
        waiter.spendWork(1)
        wake(mode)
        if timer.loop == nil {
            // A loop that went away with the timer in its modes left them here (CF's loop removes its timers as it
            // is deallocated): its slots are gone with it.
            timer.modes = []
            timer.armedSlots = []
            timer.restingSlots = []
            timer.joinedAt = [:]
            timer.loop = self
            timer.sequence = nextSequence()
            // A timer made without its creation time is read as if created now (CF reads the date at creation).
            if !timer.fireDateReadAtCreation {
                timer.fireTime = LoopTimer.deadline(timer.fireTime, createdAt: clock.now)
                timer.stampDeadline()
            }
        }
        timer.modes.append(modeName)
        timer.joinedAt[modeName] = clock.now
        // Among equal deadlines, where its deadline's computation puts it, not where this add comes.
        let slot = mode.timers.insert(timer, stamp: timer.dateStamp)
        mode.timerSignature.add(timer)
        guard armsTimerPort(of: modeName) else { return }
        timer.linkArmed(slot, in: mode)
        armNextTimer(mode)
    }

    /// `CFRunLoopRemoveTimer`.
    public func remove(_ timer: LoopTimer, from mode: ModeName) {
        lock.withLock { removeLocked(timer, from: mode) }
    }

    func removeLocked(_ timer: LoopTimer, from modeName: ModeName) {
        if modeName == .common {
            guard commonTimers.remove(timer) else { return }
            for name in commonModes { removeLocked(timer, from: name) }
            return
        }
        guard let mode = modes[modeName], let slot = mode.timers.slot(of: timer) else { return }
        waiter.spendWork(1)
        wake(mode)
        // Its slot there goes: whatever the loop arms now, no fire may move it.
        timer.unlinkArmed(slot)
        mode.timers.remove(timer)
        mode.timerSignature.remove(timer)
        timer.modes.removeAll { $0 == modeName }
        timer.joinedAt[modeName] = nil
        if timer.modes.isEmpty { timer.loop = nil }
        guard armsTimerPort(of: modeName) else { return }
        armNextTimer(mode)
    }

    /// `CFRunLoopTimerInvalidate`: removes the timer from every mode; it never fires again.
    func invalidateLocked(_ timer: LoopTimer) {
        guard timer.isValidStorage else { return }
        timer.isValidStorage = false
        commonTimers.remove(timer)
        waiter.spendWork(timer.modes.count)
        for name in timer.modes {
            guard let mode = modes[name], mode.timers.contains(timer) else { continue }
            wake(mode)
            mode.timers.remove(timer)
            mode.timerSignature.remove(timer)
            if armsTimerPort(of: name) { armNextTimer(mode) }
        }
        timer.modes = []
        timer.armedSlots = []
        timer.joinedAt = [:]
    }

    /// `CFRunLoopTimerSetNextFireDate`. A date in the past means "now". From another thread it also wakes the loop.
    func setNextFireDateLocked(_ timer: LoopTimer, _ date: LoopInstant) {
        guard timer.isValidStorage else { return }
        timer.fireTime = max(date, clock.now)
        timer.dateStorage = date
        timer.stampDeadline()
        if timer.isFiring { timer.rescheduledDuringCallout = true }
        guard timer.loop === self else { return }
        repositionInAllModes(timer)
        if waiter.callerIsOutside(self) { wakeUpLocked(reason: .setNextFireDate) }
    }

    /// `CFRunLoopGetNextTimerFireDate`: the date CF reports (`LoopTimer.reportedFireDate`) of the first timer of
    /// `mode` by deadline, if any - during that timer's callout, the date it fires for.
    public func nextTimerFireDate(in mode: ModeName) -> LoopInstant? {
        lock.withLock {
            guard let state = modes[mode] else { return nil }
            // A resting mode's own queue is not in order, and its group holds only the timers it shares.
            let first =
                state.resting != nil || !armsTimerPort(of: mode) ? state.timers.liveFirst : state.timers.first
            return first?.dateStorage
        }
    }
}
