/// Outside events: what happens at a given time as if on another thread (a script's `at`, a poke, a scheduled
/// wake-up), and moving time over them.
extension VirtualWorld {
    /// Schedules an outside event: `action` runs at `time` as if on another thread.
    public func at(_ time: LoopInstant, _ action: @escaping () -> Void) {
        let sequence = nextSequence()
        happenings.set(sequence, key: HappeningOrder(time: time, sequence: sequence), value: action)
    }

    /// `at(_:_:)` of an event addressed to the loop of thread `target`: a branch point names it so.
    package func at(_ time: LoopInstant, target: String, _ action: @escaping () -> Void) {
        let sequence = nextSequence()
        happeningTargets[sequence] = target
        happenings.set(sequence, key: HappeningOrder(time: time, sequence: sequence), value: action)
    }

    /// Performs `action` as an outside event at the first moment from now when another thread could act - when a
    /// loop next releases the engine lock (a callout, a wait, an iteration's end) - or at `time` if that is later.
    /// What a poke made after an event on screen needs: before it, the loop holds its lock, as CF's does.
    package func perform(after time: LoopInstant, _ action: @escaping () -> Void) {
        if time > current {
            at(time, action)
        } else {
            duePokes.append(action)
            hasDuePokes = true
        }
    }

    /// Performs the outside events waiting for the lock (``perform(after:_:)``), in the order they came.
    func performDuePokes() {
        while hasDuePokes, haltReason == nil {
            let due = duePokes
            duePokes = []
            hasDuePokes = false
            outsideDepth += 1
            for action in due { action() }
            outsideDepth -= 1
        }
    }

    /// Stops the world now: every run unwinds without further callouts.
    public func halt() {
        if haltReason == nil { haltReason = .requested }
    }

    /// Stops the world because a loop reached the nesting limit (the first reason to stop is the one kept).
    public func halt(atNestingLimit limit: NestingLimit) {
        if haltReason == nil { haltReason = .nestingLimit(limit) }
    }

    /// True when outside events are still scheduled.
    package var hasPendingEvents: Bool { !happenings.isEmpty }

    /// Moves time forward to `target` (never backwards), performing the outside events on the way.
    package func advance(to target: LoopInstant) {
        while haltReason == nil, let first = happenings.min, first.key.time <= target {
            if first.key.time > horizon { break }
            happenings.popMin()
            happeningTargets[first.key.sequence] = nil
            if first.key.time > current { current = first.key.time }
            outsideDepth += 1
            first.value()
            outsideDepth -= 1
        }
        guard haltReason == nil else { return }
        if target > horizon {
            if horizon > current { current = horizon }
            haltReason = .horizon
        } else if target > current {
            current = target
        }
    }

    public func schedule(at instant: LoopInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledAction {
        let sequence = nextSequence()
        happenings.set(sequence, key: HappeningOrder(time: instant, sequence: sequence), value: action)
        return ScheduledAction(rawValue: sequence)
    }

    public func cancel(_ action: ScheduledAction) {
        happenings.remove(action.rawValue)
    }

    /// An outside event is always outside; with hosted threads, so is every virtual thread but the loop's own.
    public func callerIsOutside(_ loop: RunLoopCore) -> Bool {
        if outsideDepth > 0 { return true }
        guard let running = runningThread, let own = loop.waiterThread else { return false }
        return running.rawValue != own
    }

    /// Forgets every outside event still scheduled (their closures may hold what holds this world).
    func discardPendingEvents() {
        happenings.removeAll()
        happeningTargets = [:]
        duePokes = []
        hasDuePokes = false
    }
}
