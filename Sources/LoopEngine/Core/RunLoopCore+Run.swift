extension RunLoopCore {
    /// CF's limit above which a time interval means "forever" (about 16 years).
    static let timeIntervalLimit: Double = 504_911_232.0

    /// How many runs may be active on one loop at once (runs nested in callouts). CF has no limit: a callout that
    /// re-enters the loop without end overflows the thread's stack. The engine refuses the run beyond this depth
    /// and halts its backend with a ``NestingLimit`` instead; real programs nest a few runs (a modal session, a
    /// menu), never hundreds. A run costs a few kilobytes of stack, so 256 fit in a hosted thread's stack
    /// (`HostedThread.stackSize`) with room to spare.
    public static let maximumNestingDepth = 256

    /// One call of `CFRunLoopRunInMode(mode, seconds, returnAfterSourceHandled)` (docs/cfrunloop.md §2).
    ///
    /// - Parameters:
    ///   - mode: the mode to run; a mode with no sources or timers returns `finished` at once (§4).
    ///   - seconds: `<= 0` runs one polling iteration; above ~16 years (or infinity, NaN) means no time limit.
    ///   - returnAfterSourceHandled: return `handledSource` after the first iteration that performed a source.
    /// - Returns: why the run ended. When the backend halts (the virtual clock reached its horizon) the run
    ///   unwinds without further callouts and returns `finished`.
    @discardableResult
    public func run(mode: ModeName, seconds: Double, returnAfterSourceHandled: Bool = false) -> RunResult {
        lock.lock()
        defer { lock.unlock() }
        return runLocked(mode: mode, seconds: seconds, rash: returnAfterSourceHandled)
    }

    /// `CFRunLoopRunSpecific` (docs/cfrunloop.md §2.1).
    func runLocked(mode modeName: ModeName, seconds: Double, rash: Bool) -> RunResult {
        if isHalted { return .finished }
        if runs.count >= Self.maximumNestingDepth {
            let limit = NestingLimit(thread: name, callout: latestCallout(), depth: runs.count)
            waiter.halt(atNestingLimit: limit)
            return .finished
        }
        // CF's loop belongs to the thread it was made for; ours to the thread that runs it.
        if runs.isEmpty { recordRunThread() }
        emitRunStart(modeName, seconds: seconds, rash: rash)
        guard modeName != .common, let mode = modes[modeName], !isEmptyLocked(mode) else {
            emitResult(.finished, depth: runs.count + 1, mode: modeName.rawValue, iteration: 0)
            return .finished
        }
        if !armsTimerPort(of: modeName) { armTimerPortLate(mode) }
        // Its queue in order and its port up to date before the run looks at either.
        wake(mode)
        mode.activeRuns += 1
        // A nested run of the same mode keeps it running; one of another mode suspends the outer run's mode.
        let outer = runs.last
        let sameMode = outer.flatMap { $0.mode === mode ? $0.modeRunningSince : nil }
        let record = PerRunRecord(mode: mode, startedAt: clock.now, runningSince: sameMode ?? clock.now)
        var active = runs  // out, change, back in: see `RunLoopCore.runs`
        runs = []
        active.append(record)
        runs = active
        defer {
            var active = runs
            runs = []
            active.removeLast()
            runs = active
            mode.activeRuns -= 1
            if let outer, outer.mode !== mode { outer.modeRunningSince = clock.now }
        }
        doObservers(mode, .entry)
        guard let result = runBody(record, seconds: seconds, rash: rash) else { return .finished }
        record.isExiting = true
        doObservers(mode, .exit)
        if isHalted { return .finished }
        emitResult(result, depth: runs.count, mode: modeName.rawValue, iteration: record.iteration)
        return result
    }

    /// `__CFRunLoopRun` (docs/cfrunloop.md §2.2): steps S1-S4 and L1-L14. Returns nil when the backend halted.
    private func runBody(_ record: PerRunRecord, seconds: Double, rash: Bool) -> RunResult? {
        let mode = record.mode
        let start = clock.now
        if isHalted { return nil }
        // S1: a stop from an entry observer, or the mode's sticky stop.
        if record.stopped {
            record.stopped = false
            return .stopped
        }
        if mode.stoppedSticky {
            mode.stoppedSticky = false
            return .stopped
        }
        // S2: the main queue is serviced only on the main thread, outside a drain, in a common mode.
        let mainPort =
            (mainQueuePort != nil && !isDrainingMainQueue && commonModes.contains(mode.name)) ? mainQueuePort : nil
        // S3: the time limit; a limited run is woken at its deadline by a timer that calls wakeUp().
        let pollOnly = seconds <= 0  // NaN is not: CF treats it as "no limit"
        var timeoutAction: ScheduledAction?
        if pollOnly {
            record.deadline = .zero
        } else if seconds <= Self.timeIntervalLimit {
            record.deadline = start + .secondsValue(seconds)
            let run = ObjectIdentifier(record)
            timeoutAction = waiter.schedule(at: record.deadline) { [weak self] in self?.timeLimitReached(run) }
        } else {
            record.deadline = .distantFuture
        }
        defer { if let timeoutAction { waiter.cancel(timeoutAction) } }
        // S4
        var didDrainMainQueueLastTime = true
        // The cost model: what each iteration's own work costs on this clock (virtual only; see `iterationCost`).
        let chargesIterations = clock.iterationCost > .zero
        // The time limit's wake-up, held back by a timer pass at the limit's instant, lands in the next iteration.
        var limitWakeUpDue = false

        while true {
            // L1
            record.iteration += 1
            record.ignoreWakeUps = false
            if limitWakeUpDue {
                limitWakeUpDue = false
                wakeUpLocked(reason: .timeout)
            }
            // L2, L3
            doObservers(mode, .beforeTimers)
            doObservers(mode, .beforeSources)
            // L4, L5
            doBlocks(mode)
            var handled = doSources0(mode, stopAfterHandle: rash)
            if handled { doBlocks(mode) }
            if isHalted { return nil }
            // L6
            let poll = handled || pollOnly
            var outcome = WaitOutcome.nothing
            var peekedMainQueue = false
            // L7: after an iteration that did not drain, peek at the main queue without sleeping. A queue holding
            // only jobs on their way back from the global executor may not have them yet (a race): then neither the
            // peek nor a poll right after it sees them, and a sleep wakes when they come.
            var hopLate = false
            let peeks = mainPort != nil && !didDrainMainQueueLastTime
            // A stale write on the port is seen whatever is on its way; the drain then decides the race.
            var staleWriteRead = false
            if let mainPort, peeks {
                hopLate = !mainQueueHasStaleWrite && !hopArrivesBeforeLook()
                let peek = hopLate ? WaitOutcome.nothing : waiter.poll(mainPort)
                if case .port = peek {
                    outcome = peek
                    peekedMainQueue = true
                    staleWriteRead = takeMainQueuePortRead()
                }
            }
            if !peekedMainQueue {
                // L8, L9
                didDrainMainQueueLastTime = false
                // A poll with no peek before it (a run's first iteration, or one after a drain) is the look: the same
                // race, with the poll's other ports still seen (fuzz seed 77 case 2579: `acceptInput before
                // distantPast` right after a run whose drain yielded; CF polled before the rest came back).
                if poll, mainPort != nil, !peeks { hopLate = !mainQueueHasStaleWrite && !hopArrivesBeforeLook() }
                if !poll { doObservers(mode, .beforeWaiting) }
                if isHalted { return nil }
                sleeping = true
                // The main-queue port joins the wait set for this wait only (a nested run must not service it).
                let mainPortInWait = hopLate && poll ? nil : mainPort
                if let mainPortInWait { waiter.insert(mainPortInWait, into: mode.portSet) }
                emit(.sleep, nil, self.sleepFact(mode, record: record, poll: poll))
                // The clock is read around the wait only where the answer is used: a sleep's bounds, and a main
                // loop's jobs on their way back from the global executor (a poll of another loop reads nothing).
                let readsClock = !poll || mainQueuePort != nil
                let sleptAt = readsClock ? clock.now : .zero
                // L10: the only place the loop blocks.
                lock.unlock()
                outcome = waiter.wait(on: mode.portSet, poll: poll)
                lock.lock()
                let wokeAt = readsClock ? clock.now : .zero
                if !poll { record.lastSleep = (sleptAt, wokeAt) }
                if let mainPortInWait { waiter.remove(mainPortInWait, from: mode.portSet) }
                if case .port(let port, _) = outcome, port == mainPortInWait {
                    staleWriteRead = takeMainQueuePortRead()
                }
                // A wait that blocked gave the jobs on their way back from the global executor the time to come.
                if wokeAt > sleptAt { landHops() }
                // L11
                record.ignoreWakeUps = true
                sleeping = false
                if outcome == .halted || isHalted { return nil }
                emit(.wake, nil, self.wakeFact(outcome, mode: mode))
                if !poll { doObservers(mode, .afterWaiting) }
            }
            // L12
            record.ignoreWakeUps = true
            if case .port(let port, let messages) = outcome {
                if port == wakeUpPort {
                    // Its only job was to end the wait.
                } else if port == mode.timerPort {
                    wakeLateForTimersDueSoon(mode)
                    if isHalted { return nil }
                    if !doTimers(mode, limit: clock.now) {
                        // Nothing was due: forget the armed deadline so the port is armed again.
                        mode.armedSoft = nil
                        mode.armedHard = nil
                        armNextTimer(mode)
                    }
                } else if let mainPort, port == mainPort {
                    drainMainQueue(afterStaleWrite: staleWriteRead)
                    handled = true
                    didDrainMainQueueLastTime = true
                } else if let source = mode.portSources[port] {
                    handled = doSource1(source, messages: messages) || handled
                }
            }
            // L13
            doBlocks(mode)
            if isHalted { return nil }
            // §13.1: a timer pass at the limit's instant that took no time ends before CF's limit, which is a little
            // later; one that worked past it met the limit's wake-up while wake-ups were ignored.
            var limitSlips = false
            if record.limitAfterTimerPass {
                record.limitAfterTimerPass = false
                if case .port(let port, _) = outcome, port == mode.timerPort, clock.now == record.deadline {
                    limitSlips = true
                    limitWakeUpDue = true
                } else {
                    wakeUpLocked(reason: .timeout)
                }
            }
            // The iteration's own cost, paid before the decision, so a loop that never sleeps still reaches its time
            // limit. Without the lock: on a virtual clock other threads run meanwhile and outside events happen.
            if chargesIterations {
                lock.unlock()
                clock.spendIteration()
                lock.lock()
                if isHalted { return nil }
            }
            // L14: the first match wins.
            if handled && rash { return .handledSource }
            if clock.now >= record.deadline && !limitSlips { return .timedOut }
            if record.stopped {
                record.stopped = false
                return .stopped
            }
            if mode.stoppedSticky {
                mode.stoppedSticky = false
                return .stopped
            }
            if isEmptyLocked(mode) { return .finished }
        }
    }

    /// The run's time limit has come (S3, docs/cfrunloop.md §13.1). CF's limit is a dispatch timer that calls
    /// `CFRunLoopWakeUp`; its timer ports are timerfds, armed for the timers' own dates. When the run sleeps and its
    /// mode's timer port is due at this very instant, the wait takes the timer port (CF started the run, and so set
    /// its limit, a little after the instant the engine gives it), and the limit's wake-up comes after that timer
    /// pass. Only the virtual kernel can tell (`readyPort`); on real threads the kernel decides.
    func timeLimitReached(_ run: ObjectIdentifier) {
        let held = lock.withLock {
            guard sleeping, let record = runs.last, ObjectIdentifier(record) == run,
                case .port(let port, _)? = waiter.readyPort(in: record.mode.portSet), port == record.mode.timerPort
            else { return false }
            record.limitAfterTimerPass = true
            return true
        }
        if !held { wakeUp(reason: .timeout) }
    }

    private func emitRunStart(_ mode: ModeName, seconds: Double, rash: Bool) {
        guard let sink = sinkStorage else { return }
        sink.record(
            LoopEvent(
                time: clock.now, loop: name, depth: runs.count + 1, mode: mode.rawValue, iteration: 0,
                kind: .runStart, name: mode.rawValue,
                fact: .run(LoopEvent.RunLimit(seconds: seconds), returnAfterSourceHandled: rash)))
    }

    private func emitResult(_ result: RunResult, depth: Int, mode: String, iteration: Int) {
        guard let sink = sinkStorage else { return }
        sink.record(
            LoopEvent(
                time: clock.now, loop: name, depth: depth, mode: mode, iteration: iteration, kind: .result,
                name: result.description, fact: .result(result)))
    }

    private func sleepFact(_ mode: LoopModeState, record: PerRunRecord, poll: Bool) -> LoopEvent.Fact {
        if poll { return .wait(.poll) }
        let next = mode.timers.firstNotFiring().map { LoopEvent.TimerDeadline(name: $0.name, fireTime: $0.fireTime) }
        let limit = record.deadline == .distantFuture ? nil : record.deadline
        // What the wait will take at once, if the kernel can tell: a message, a timer port armed for now or
        // earlier (a stale one too, docs/cfrunloop.md §9.2), a wake-up written earlier (§10.1).
        var ready = waiter.readyPort(in: mode.portSet).map { wakeCause($0, mode: mode) }
        // Jobs on their way back from the global executor come during the sleep: not ready yet.
        if ready == .mainQueue, !mainQueueHasStaleWrite, onlyHopsInFlight() { ready = nil }
        return .wait(.sleep(nextTimer: next, timeLimit: limit, ready: ready))
    }

    private func wakeFact(_ outcome: WaitOutcome, mode: LoopModeState) -> LoopEvent.Fact {
        .woken(wakeCause(outcome, mode: mode))
    }

    private func wakeCause(_ outcome: WaitOutcome, mode: LoopModeState) -> LoopEvent.WakeCause {
        guard case .port(let port, let messages) = outcome else { return .nothing }
        if port == wakeUpPort { return .wakeUpPort }
        if port == mode.timerPort { return .timerPort }
        if port == mainQueuePort { return .mainQueue }
        if let source = mode.portSources[port] { return .port(source.name, messages: messages) }
        return .unknownPort(port.rawValue)
    }
}

extension RunLoopCore {
    /// How long a job takes to come back from the global executor, as the engine counts it: the main thread's
    /// own time (work, iteration costs) past this lands it; less is a race the waiter decides. Probed here, the
    /// rest of a main-actor task after `Task.yield()` reached the main queue tens of microseconds after the
    /// yield (docs/concurrency.md, rule 4).
    static let hopLatency = Duration.microseconds(50)

    /// Lands the jobs back from the global executor for `hopLatency` or more; then true when the main queue holds
    /// jobs and every one is still on its way.
    func onlyHopsInFlight() -> Bool {
        landHops(olderThan: Self.hopLatency)
        return !mainQueue.isEmpty && mainQueue.allSatisfy { $0.hopSince != nil }
    }

    /// Engine lock held, before the peek at the main queue: true unless every job queued there is on its way back
    /// from the global executor and the waiter lets the peek come first (docs/concurrency.md, rule 4). A wait that
    /// blocks lands them all (`landHops`).
    func hopArrivesBeforeLook() -> Bool {
        guard onlyHopsInFlight(), let first = mainQueue.first else { return true }
        if waiter.hopArrivesBeforeLook(first.name, loop: name) {
            landHops()
            return true
        }
        return false
    }

    /// The jobs on their way back from the global executor for at least `age` are on the main queue now.
    func landHops(olderThan age: Duration = .zero) {
        for index in mainQueue.indices {
            guard let since = mainQueue[index].hopSince, clock.now - since >= age else { continue }
            mainQueue[index].hopSince = nil
        }
    }
}
