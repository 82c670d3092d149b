extension RunLoopCore {
    /// The name of the one-shot timer that runs the queued ordered performs (`timer orderedPerform` in the trace).
    package static let orderedPerformTimerName = "orderedPerform"

    /// `performSelector:target:argument:order:modes:` (Darwin's NSRunLoop; Linux Foundation has none). Apple
    /// documents a timer, set up in `modes`, that performs the message at the start of the next iteration of a run
    /// in one of them, lower `order` first; GNUstep keeps one list per mode, sorted by order (FIFO within an
    /// order), and empties it when it fires. Modelled with CF's own parts (docs/cfrunloop.md §17): the request
    /// joins the loop's list (after those of the same order) and a one-shot timer due now, `orderedPerform`, is
    /// added to `modes`. An empty `modes` does nothing, as on both.
    package func performOrdered(
        _ task: String, target: String, order: Int, modes: [ModeName], _ action: @escaping () -> Void
    ) {
        guard !modes.isEmpty else { return }
        lock.lock()
        waiter.spendWork(modes.count)
        orderedPerforms.append(
            OrderedPerform(task: task, target: target, order: order, modes: modes, action: action))
        if let timer = orderedPerformTimer, timer.isValidStorage {
            for mode in modes { addLocked(timer, to: mode) }
        } else {
            armOrderedPerformTimerLocked()
        }
        lock.unlock()
    }

    /// `cancelPerformSelector:target:argument:` (`task` given) or `cancelPerformSelectorsWithTarget:` (nil): the
    /// matching queued requests leave every mode; the timer is made again for what remains (none: no timer, so
    /// the cancelled requests keep no mode alive). Records how many were removed.
    package func cancelOrderedPerforms(task: String?, target: String) {
        lock.lock()
        let removed = orderedPerforms.removeAll(target: target, task: task)
        if removed > 0 {
            if let timer = orderedPerformTimer { invalidateLocked(timer) }
            orderedPerformTimer = nil
            armOrderedPerformTimerLocked()
        }
        emit(.note, nil, .note(.performsCancelled(task: task, target: target, count: removed)))
        lock.unlock()
    }

    /// A new one-shot timer due now in the modes of the queued requests (none queued: no timer).
    private func armOrderedPerformTimerLocked() {
        let modes = orderedPerforms.modesInListOrder()
        guard !modes.isEmpty else { return }
        let now = clock.now
        let timer = LoopTimer(name: Self.orderedPerformTimerName, fireDate: now, createdAt: now) {
            [weak self] _ in self?.runOrderedPerforms()
        }
        orderedPerformTimer = timer
        for mode in modes { addLocked(timer, to: mode) }
    }

    /// The timer's callout: the requests of the current mode leave the list (every mode of theirs), then run in
    /// list order, once each; requests for other modes get a new timer in their modes (this one is spent). What
    /// waits for other modes costs nothing here (`OrderedPerformQueue` indexes the list by mode).
    private func runOrderedPerforms() {
        lock.lock()
        guard let mode = runs.last?.mode.name else {
            lock.unlock()
            return
        }
        orderedPerformTimer = nil
        let due = orderedPerforms.takeDue(in: mode, isCommon: commonModes.contains(mode))
        for request in due {
            if isHalted { break }
            emit(.perform, request.task, .order(request.order))
            callout(.perform, request.task) { request.action() }
        }
        if orderedPerformTimer == nil { armOrderedPerformTimerLocked() }
        lock.unlock()
    }
}
