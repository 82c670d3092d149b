// The public surface of the items. Every member may be called from any thread: it takes the item's engine lock
// (see `EngineBinding`) before it reads or writes anything, the item's weak `loop` included.

extension LoopSource {
    /// True until the source is invalidated.
    public var isValid: Bool { binding.withLock { isValidStorage } }
    /// True while a signal waits for the next version-0 pass.
    package var isSignalled: Bool { binding.withLock { signalled } }

    /// `CFRunLoopSourceSignal`: marks a version-0 source for the next pass. Keeps the time of the first signal;
    /// does not wake the loop. Ignored for invalid sources, and in effect for version-1 ones: CF sets their flag
    /// too, but only version-0 sources are performed for it (the trace says the signal was ignored).
    public func signal() {
        binding.withLock {
            guard isValidStorage else { return }
            guard version == .zero else {
                for loop in memberLoops { loop.emit(.signal, name, .ignored(.portSource)) }
                return
            }
            if memberships.count <= 1 {
                // In one mode of one loop (the usual case): no array of loops to build, and the membership read in
                // place (no copy of its weak reference) with its mode's state (no look-up by name, no retain).
                // The state is used only once the loop is known alive, and while `loop` holds it.
                let first = !signalled
                if first {
                    signalled = true
                    signalStamp = UInt64(Self.signalStamps.next())
                }
                memberships.withUnsafeBufferPointer { members in
                    guard !members.isEmpty, let loop = members[0].loop else { return }
                    if first {
                        Unmanaged.passUnretained(members[0].state)._withUnsafeGuaranteedRef { $0.noteSignalled(self) }
                    }
                    // Only a recorder keeps hand-overs: the perform source is not read for any other sink.
                    if loop.recorder != nil, loop.performSource !== self { loop.noteHandOver(.signal(name)) }
                    loop.emit(.signal, self)
                }
                return
            }
            let loops = memberLoops
            if !signalled {
                signalled = true
                signalStamp = UInt64(Self.signalStamps.next())
                for membership in memberships {
                    guard let loop = membership.loop else { continue }
                    withExtendedLifetime(loop) { membership.state.noteSignalled(self) }
                }
            }
            for loop in loops {
                if loop.performSource !== self { loop.noteHandOver(.signal(name)) }
                loop.emit(.signal, self)
            }
        }
    }

    /// Sends one message to a version-1 source's port; a sleeping loop wakes by itself.
    public func send() {
        guard let port, let waiter else { return }
        binding.withLock {
            for loop in memberLoops {
                loop.noteHandOver(.send(name))
                loop.emit(.send, self)
            }
        }
        waiter.send(port)
    }

    /// `CFRunLoopSourceInvalidate`: clears the signal and removes the source from every mode of every loop. Each
    /// loop it was in records an `invalidate` event with the modes it leaves, before their `cancel` events.
    public func invalidate() {
        var removals: [(RunLoopCore, ModeName)] = []
        binding.withLock {
            guard isValidStorage else { return }
            isValidStorage = false
            signalled = false
            let kind: LoopEvent.Kind = version == .zero ? .source0 : .source1
            for loop in memberLoops {
                let modes = memberships.filter { $0.loop === loop }.map(\.mode.rawValue)
                loop.emit(.invalidate, name, .invalidated(kind: kind, modes: modes))
            }
            for loop in memberLoops {
                loop.commonSources.remove(self)
                // CF walks the loop's modes from the end of its set of them, then the common modes (already left).
                let held = memberships.filter { $0.loop === loop }.map(\.mode)
                let walk = loop.allModeSet.modes.reversed().filter { held.contains($0) }
                for mode in walk + held.filter({ !walk.contains($0) }) {
                    for left in loop.removeLocked(self, from: mode) { removals.append((loop, left)) }
                }
            }
        }
        for (loop, mode) in removals { loop.runCancelCallouts(self, [(loop, mode)]) }
    }

    /// The loops the source is in. Call with the engine lock held.
    var memberLoops: [RunLoopCore] {
        var loops: [RunLoopCore] = []
        for membership in memberships {
            if let loop = membership.loop, !loops.contains(where: { $0 === loop }) { loops.append(loop) }
        }
        return loops
    }
}

extension LoopTimer {
    /// True until the timer is invalidated (a one-shot timer after its callout).
    public var isValid: Bool { withLoopLock { _ in isValidStorage } }
    /// The deadline of the next fire (during the callout: the one being served).
    public var nextFireDate: LoopInstant { withLoopLock { _ in fireTime } }
    /// `CFRunLoopTimerGetNextFireDate`: the date CF reports, which is not always the deadline - a date given in the
    /// past stays in the past until the timer fires; nil once the timer is invalid (CF's 0).
    var reportedFireDate: LoopInstant? { withLoopLock { _ in isValidStorage ? dateStorage : nil } }
    /// Number of times the callout ran.
    package var fireCount: Int { withLoopLock { _ in fireCountStorage } }
    /// Stored and returned; only the darwin profile acts on it.
    public var tolerance: Duration {
        get { withLoopLock { loop in loop?.profile == .darwin ? toleranceStorage : .zero } }
        set { withLoopLock { _ in toleranceStorage = max(.zero, newValue) } }
    }

    /// `CFRunLoopTimerInvalidate` called by a program: its loop records an `invalidate` event with the modes the
    /// timer leaves (a one-shot timer's own invalidation after its callout is not one: its `timer` event says it).
    public func invalidate() {
        withLoopLock { loop in
            guard let loop, isValidStorage else {
                isValidStorage = false
                return
            }
            let modes = self.modes.map(\.rawValue)
            loop.invalidateLocked(self)
            loop.emit(.invalidate, name, .invalidated(kind: .timer, modes: modes))
        }
    }

    /// Invalidates the timer without an `invalidate` event: a timer the model made for itself (an operation
    /// queue's worker's idle timer, which Foundation's queues do not have), or a one-shot timer after its
    /// `Timer.fire()`, whose `timer` event says so.
    package func invalidateUnreported() {
        withLoopLock { loop in
            if let loop { loop.invalidateLocked(self) } else { isValidStorage = false }
        }
    }

    /// `CFRunLoopTimerSetNextFireDate`: moves the next deadline (the past means now). Called inside the timer's
    /// own callout it replaces the grid's next point.
    public func setNextFireDate(_ date: LoopInstant) {
        withLoopLock { loop in
            if let loop {
                loop.setNextFireDateLocked(self, date)
            } else {
                fireTime = date
                dateStorage = date
            }
        }
    }

    /// Runs `body` with the engine lock held and the timer's loop, if it is in one.
    private func withLoopLock<T>(_ body: (RunLoopCore?) -> T) -> T {
        binding.withLock { body(loop) }
    }
}

extension LoopObserver {
    /// True until invalidated (a one-shot observer after its first callout).
    public var isValid: Bool { binding.withLock { isValidStorage } }
    /// Number of callouts.
    package var callCount: Int { binding.withLock { callCountStorage } }

    /// `CFRunLoopObserverInvalidate` called by a program: its loop records an `invalidate` event with the modes
    /// the observer leaves (a one-shot observer's own invalidation after its callout is not one).
    public func invalidate() {
        binding.withLock {
            guard let loop, isValidStorage else {
                isValidStorage = false
                return
            }
            let modes = self.modes.map(\.rawValue)
            loop.invalidateLocked(self)
            loop.emit(.invalidate, name, .invalidated(kind: .observer, modes: modes))
        }
    }
}
