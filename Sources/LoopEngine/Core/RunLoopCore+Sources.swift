extension RunLoopCore {
    /// `CFRunLoopAddSource`. Adding a source a mode already holds (or an *equal* one, docs/cfrunloop.md §7.7) does
    /// nothing. The source's schedule callout runs once per concrete mode it is newly inserted into.
    public func add(_ source: LoopSource, to mode: ModeName) {
        lock.lock()
        if refusesAfterMainThreadExitLocked(source.name, source.version == .one ? .source1 : .source0) {
            lock.unlock()
            return
        }
        let inserted = addLocked(source, to: mode)
        lock.unlock()
        runScheduleCallouts(source, inserted)
    }

    /// Returns the concrete modes the source was newly inserted into (for the schedule callouts).
    func addLocked(_ source: LoopSource, to modeName: ModeName) -> [ModeName] {
        // Binding first: a source of another backend is guarded by another lock, so it cannot join this loop.
        guard source.binding.bind(lock), source.isValidStorage else { return [] }
        waiter.spendWork(1)
        if modeName == .common {
            commonSources.append(source)
            // In CF's set order, as its schedule callouts come (docs/cfrunloop.md §11.1).
            return commonModeSet.modes.flatMap { addLocked(source, to: $0) }
        }
        guard let mode = modeLocked(modeName, create: true) else { return [] }
        switch source.version {
        case .zero:
            guard !mode.containsSource0EqualForCF(source) else { return [] }
            mode.appendSource0(source)
        case .one:
            guard let port = source.port, mode.sources1.append(source) else { return [] }
            mode.portSources[port] = source
            waiter.insert(port, into: mode.portSet)
        }
        var memberships = source.memberships  // out, change, back in: see `RunLoopCore.runs`
        source.memberships = []
        memberships.append(.init(loop: self, mode: modeName, state: mode))
        source.memberships = memberships
        // With a callout, its event comes right before it (`runScheduleCallouts`): CF calls each mode's callout
        // as it inserts the source there, before the next common mode.
        if source.scheduleCallout == nil { emit(.schedule, source.name, .mode(modeName.rawValue)) }
        return [modeName]
    }

    func runScheduleCallouts(_ source: LoopSource, _ modes: [ModeName]) {
        guard let schedule = source.scheduleCallout else { return }
        for mode in modes {
            lock.withLock { emit(.schedule, source.name, .mode(mode.rawValue)) }
            schedule(self, mode)
        }
    }

    func runCancelCallouts(_ source: LoopSource, _ removals: [(RunLoopCore, ModeName)]) {
        guard let cancel = source.cancelCallout else { return }
        for (loop, mode) in removals {
            loop.lock.withLock { loop.emit(.cancel, source.name, .mode(mode.rawValue)) }
            cancel(loop, mode)
        }
    }

    /// `CFRunLoopRemoveSource`. The cancel callout runs once per concrete mode the source leaves.
    public func remove(_ source: LoopSource, from mode: ModeName) {
        lock.lock()
        let removed = removeLocked(source, from: mode)
        lock.unlock()
        runCancelCallouts(source, removed.map { (self, $0) })
    }

    func removeLocked(_ source: LoopSource, from modeName: ModeName) -> [ModeName] {
        waiter.spendWork(1)
        if modeName == .common {
            guard commonSources.remove(source) else { return [] }
            return commonModeSet.modes.flatMap { removeLocked(source, from: $0) }
        }
        guard let mode = modes[modeName] else { return [] }
        switch source.version {
        case .zero:
            guard let index = mode.sources0.firstIndex(where: { $0 === source }) else { return [] }
            mode.removeSource0(at: index)
        case .one:
            guard let port = source.port, mode.sources1.remove(source) else { return [] }
            mode.portSources[port] = nil
            waiter.remove(port, from: mode.portSet)
        }
        var memberships = source.memberships  // out, change, back in: see `RunLoopCore.runs`
        source.memberships = []
        memberships.removeAll { $0.loop === self && $0.mode == modeName }
        source.memberships = memberships
        // With a callout, its event comes right before it (`runCancelCallouts`), one mode after the other.
        if source.cancelCallout == nil { emit(.cancel, source.name, .mode(modeName.rawValue)) }
        return [modeName]
    }

    /// `CFRunLoopContainsSource` (true also for a source *equal* to one in the mode).
    public func contains(_ source: LoopSource, in modeName: ModeName) -> Bool {
        lock.withLock {
            if modeName == .common { return commonSources.contains { $0 === source } }
            guard let mode = modes[modeName] else { return false }
            return (mode.sources0 + mode.sources1.elements).contains { $0.isEqualForCF(source) }
        }
    }

    // MARK: - Observers

    /// `CFRunLoopAddObserver`. Ignored when the observer is invalid or belongs to another loop (an `addDeclined`
    /// note says so).
    public func add(_ observer: LoopObserver, to mode: ModeName) {
        lock.withLock {
            if refusesAfterMainThreadExitLocked(observer.name, .observer) { return }
            addLocked(observer, to: mode)
        }
    }

    func addLocked(_ observer: LoopObserver, to modeName: ModeName) {
        guard observer.binding.bind(lock), observer.isValidStorage else { return }
        waiter.spendWork(1)
        if let holder = observer.loop, holder !== self {
            // CF's `rlo->_runLoop != rl`: an observer belongs to one loop until it leaves its last mode there.
            emit(.note, observer.name, .note(.addDeclined(item: observer.name, kind: .observer, holder: holder.name)))
            return
        }
        if modeName == .common {
            commonObservers.append(observer)
            for name in commonModes { addLocked(observer, to: name) }
            return
        }
        guard let mode = modeLocked(modeName, create: true), !observer.modes.contains(modeName) else { return }
        observer.loop = self
        observer.modes.append(modeName)
        mode.insertSorted(observer)
    }

    /// `CFRunLoopRemoveObserver`.
    public func remove(_ observer: LoopObserver, from mode: ModeName) {
        lock.withLock { removeLocked(observer, from: mode) }
    }

    func removeLocked(_ observer: LoopObserver, from modeName: ModeName) {
        if modeName == .common {
            guard commonObservers.remove(observer) else { return }
            for name in commonModes { removeLocked(observer, from: name) }
            return
        }
        guard let mode = modes[modeName] else { return }
        mode.removeObserver(observer)
        observer.modes.removeAll { $0 == modeName }
        if observer.modes.isEmpty { observer.loop = nil }
    }

    /// `CFRunLoopObserverInvalidate`: removes it from every mode; a pass in progress skips it.
    func invalidateLocked(_ observer: LoopObserver) {
        guard observer.isValidStorage else { return }
        observer.isValidStorage = false
        commonObservers.remove(observer)
        for name in observer.modes { modes[name]?.removeObserver(observer) }
        observer.modes = []
    }

    // MARK: - Common modes

    /// `CFRunLoopAddCommonMode`: makes `mode` common and adds every common item to it.
    public func addCommonMode(_ modeName: ModeName) {
        guard modeName != .common else { return }
        lock.lock()
        guard !commonModes.contains(modeName) else {
            lock.unlock()
            return
        }
        commonModes.append(modeName)
        commonModeSet.insert(modeName)
        // CF creates the mode only by adding the common items to it: with none, it does not exist yet.
        var scheduled: [(LoopSource, [ModeName])] = []
        for source in commonSources { scheduled.append((source, addLocked(source, to: modeName))) }
        for observer in commonObservers { addLocked(observer, to: modeName) }
        for timer in commonTimers { addLocked(timer, to: modeName) }
        lock.unlock()
        for (source, modes) in scheduled { runScheduleCallouts(source, modes) }
    }

    // MARK: - Blocks and the main queue

    /// `CFRunLoopPerformBlock`: queues `action` for the next blocks pass of a run in one of `modes`
    /// (`.common` matches whatever is common then). Does not wake the loop.
    public func perform(_ name: String, modes: [ModeName], _ action: @escaping () -> Void) {
        lock.withLock {
            if refusesAfterMainThreadExitLocked(name, .block) { return }
            for mode in modes where mode != .common { _ = modeLocked(mode, create: true) }
            // CF creates a mode of every name it is given, `kCFRunLoopCommonModes` too (it is never run).
            if modes.contains(.common) { hasCommonModesMode = true }
            var queued = blocks  // out, change, back in: see `RunLoopCore.runs`
            blocks = []
            queued.append(PendingBlock(name: name, modes: modes, action: action))
            blocks = queued
            noteHandOver(.block(name))
            emit(.enqueue, name, .modes(modes.map(\.rawValue)))
        }
    }

    /// `DispatchQueue.main.async` for the main thread's loop (docs/cfrunloop.md §14). Writes the main-queue port, which
    /// wakes a main-thread run of a common mode. `afterHop`: the job comes back from the global executor (the rest of
    /// a main-actor task after `Task.yield()`, docs/concurrency.md rule 4), tens of microseconds after this call on
    /// a real machine, so the loop's next look at the main queue without a wait may come before it (a race the
    /// waiter decides, `LoopWaiter/hopArrivesBeforeLook(_:loop:)`).
    package func performOnMainQueue(
        _ name: String, job: MainQueueJob? = nil, afterHop: Bool = false, _ action: @escaping () -> Void
    ) {
        guard let mainQueuePort else { preconditionFailure("\(self.name) is not the main thread's loop") }
        lock.withLock {
            mainQueueWrites &+= 1
            let pending = PendingBlock(
                name: name, modes: [], action: action, job: job, hopSince: afterHop ? clock.now : nil,
                write: mainQueueWrites)
            var queue = mainQueue  // out, change, back in: see `RunLoopCore.runs`
            mainQueue = []
            // Queued behind a job still on its way back from the global executor: two hops in flight at once (two
            // yields in one drain) may come back in either order (fuzz seed 7 case 119), and a job queued straight
            // on the queue may land first (seed 9 case 2259): a race the waiter decides.
            if let last = queue.last, let since = last.hopSince, clock.now - since < Self.hopLatency,
                waiter.overtakesHop(name, isHop: afterHop, ahead: last.name, loop: self.name)
            {
                queue.insert(pending, at: queue.count - 1)
            } else {
                queue.append(pending)
            }
            mainQueue = queue
            noteHandOver(.mainQueue(name))
        }
        waiter.send(mainQueuePort)
    }

    /// A main-queue job queued at `instant` by a libdispatch timer (`asyncAfter`, the end of a `Task.sleep`):
    /// the timer is not the loop's, so it runs as another thread would (docs/concurrency.md, rules 5 and 7).
    package func performOnMainQueue(
        at instant: LoopInstant, _ name: String, job: MainQueueJob, _ action: @escaping () -> Void
    ) {
        let queued = UncheckedAction(action)
        _ = waiter.schedule(at: instant) { [weak self] in
            self?.performOnMainQueue(name, job: job, queued.action)
        }
    }
}
