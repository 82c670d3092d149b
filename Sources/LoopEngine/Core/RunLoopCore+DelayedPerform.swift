extension RunLoopCore {
    /// The name of the one-shot timers that send delayed performs (`timer delayedPerform` in the trace; the
    /// `perform` event after it names the task).
    package static let delayedPerformTimerName = "delayedPerform"

    /// `performSelector:withObject:afterDelay:` (`modes` = default) or `…afterDelay:inModes:` (Darwin's NSObject;
    /// Linux Foundation has none). Apple documents a timer on the current thread's loop, in those modes, that
    /// performs the message when it fires and the loop runs in one of them; a delay of 0 still goes through the
    /// timer. GNUstep makes one `NSTimer` per request. Modelled with CF's own parts (docs/cfrunloop.md, "Delayed
    /// performs"): the request joins the loop's list and a one-shot timer `delayedPerform`, due `delay` from now,
    /// is added to `modes`. An empty `modes` does nothing, as Apple documents.
    package func performAfterDelay(
        _ task: String, target: String, delay: Duration, modes: [ModeName], _ action: @escaping () -> Void
    ) {
        guard !modes.isEmpty else { return }
        lock.lock()
        let now = clock.now
        let timer = LoopTimer(
            name: Self.delayedPerformTimerName, fireDate: now + max(delay, .zero), createdAt: now
        ) { [weak self] timer in self?.runDelayedPerform(timer, action) }
        var requests = delayedPerforms
        delayedPerforms = []
        requests.append(DelayedPerform(task: task, target: target, delay: delay, timer: timer))
        delayedPerforms = requests
        for mode in modes { addLocked(timer, to: mode) }
        lock.unlock()
    }

    /// `cancelPreviousPerformRequestsWithTarget:selector:object:` (`task` given) or
    /// `cancelPreviousPerformRequestsWithTarget:` (nil): the matching delayed performs of this loop are invalidated
    /// (their timers leave every mode). Ordered performs are not touched, as on both Darwin and GNUstep. Records
    /// how many were removed.
    package func cancelDelayedPerforms(task: String?, target: String) {
        lock.lock()
        var requests = delayedPerforms
        delayedPerforms = []
        let before = requests.count
        for request in requests where request.target == target && (task == nil || request.task == task) {
            invalidateLocked(request.timer)
        }
        requests.removeAll { $0.target == target && (task == nil || $0.task == task) }
        delayedPerforms = requests
        emit(.note, nil, .note(.delayedPerformsCancelled(task: task, target: target, count: before - requests.count)))
        lock.unlock()
    }

    /// A request's timer fired: the request leaves the list (a cancel from its own callout finds nothing), then
    /// its task runs once, a `perform TASK` event with its delay.
    private func runDelayedPerform(_ timer: LoopTimer, _ action: () -> Void) {
        lock.lock()
        var requests = delayedPerforms
        delayedPerforms = []
        let index = requests.firstIndex { $0.timer === timer }
        let request = index.map { requests.remove(at: $0) }
        delayedPerforms = requests
        if let request, !isHalted {
            emit(.perform, request.task, .delayed(request.delay))
            callout(.perform, request.task) { action() }
        }
        lock.unlock()
    }
}
