extension RunLoopCore {
    /// The name of the version-0 source that serves tasks sent with ``performTask(_:modes:_:)``.
    package static let performSourceName = "performSelector"

    /// Foundation's `performSelector:onThread:withObject:waitUntilDone:NO` (Darwin): queues `action` for this
    /// loop and signals the loop's perform source (a version-0 source in `modes`, common modes by default), then
    /// wakes the loop. The task runs in the next source0 pass of a run in one of `modes`.
    ///
    /// Waiting until done is the caller's business: a thread that waits for its own loop would deadlock, so
    /// Foundation runs the task inline instead (see `ScriptInterpreter`).
    ///
    /// No request is lost between threads: the task is queued and the source (re-)added under one lock, and the
    /// source removes itself only when it finds the queue empty under that lock, so a queued task always has its
    /// source in the modes; the signal comes before the wake-up, so a wake-up dropped because the loop is between
    /// the end of its wait and its next iteration (§10.1) is harmless: that iteration's source0 pass sees the signal.
    package func performTask(_ name: String, modes: [ModeName] = [.common], _ action: @escaping () -> Void) {
        lock.lock()
        let source: LoopSource
        var scheduled: [ModeName] = []
        if let existing = performSource {
            source = existing
        } else {
            source = LoopSource(name: Self.performSourceName) { [weak self] in self?.runPerformTasks() }
            performSource = source
        }
        for mode in modes {
            scheduled += addLocked(source, to: mode)
            if !performSourceModes.contains(mode) { performSourceModes.append(mode) }
        }
        performTasks.append(PendingBlock(name: name, modes: modes, action: action))
        noteHandOver(.perform(name))
        lock.unlock()
        runScheduleCallouts(source, scheduled)
        source.signal()
        wakeUp()
    }

    /// The perform source's callout: runs the queued tasks whose modes match the current mode, in order; the
    /// others stay queued (and keep the source signalled). With nothing left queued the source removes itself
    /// from its modes, as Apple's run-loops chapter says a perform-selector source does ("unlike port-based
    /// sources, a perform selector source removes itself from the run loop after it performs its selector"):
    /// the next request adds it again. A thread whose only source it was then has an empty mode.
    private func runPerformTasks() {
        lock.lock()
        guard let mode = runs.last?.mode else {
            lock.unlock()
            return
        }
        let queued = performTasks
        performTasks = []
        var kept: [PendingBlock] = []
        for task in queued {
            if isHalted || !blockMatches(task, mode.name) {
                kept.append(task)
                continue
            }
            emit(.perform, task.name)
            callout(.perform, task.name) { task.action() }
        }
        performTasks = kept + performTasks
        let stillPending = !performTasks.isEmpty
        var removed: [ModeName] = []
        if !stillPending, let source = performSource {
            for mode in performSourceModes { removed += removeLocked(source, from: mode) }
            performSourceModes = []
        }
        lock.unlock()
        if stillPending { performSource?.signal() }
        if let source = performSource { runCancelCallouts(source, removed.map { (self, $0) }) }
    }
}
