extension RunLoopCore {
    /// Calls the observers of `mode` that want `activity` (docs/cfrunloop.md §5): a snapshot in `order`, skipping
    /// observers that are invalid or already executing (re-entrancy guard); one-shot observers are invalidated right
    /// after their callout. The activity itself is always emitted, observers or not.
    func doObservers(_ mode: LoopModeState, _ activity: Activity) {
        if isHalted { return }
        emit(LoopEvent.Kind(activity))
        // The snapshot is the array as it is now (copy-on-write: no allocation, whatever the callouts add or
        // remove), filtered as it goes. That is the same set as filtering first: validity never comes back, and an
        // observer executing now (an outer pass's callout is on the stack) stays so for this whole pass, while one
        // called by a nested pass inside this one has returned before its turn here.
        // The snapshot keeps every observer in it alive for the pass, so each is used without a retain and a
        // release of its own (two atomic operations per callout, a visible share of a pass with many observers).
        let snapshot = mode.observers
        for index in snapshot.indices {
            let halted = Unmanaged.passUnretained(snapshot[index])._withUnsafeGuaranteedRef { observer in
                guard !observer.activities.isDisjoint(with: activity), observer.isValidStorage, !observer.isFiring
                else { return false }
                let oneShot = !observer.repeats
                observer.isFiring = true
                observer.callCountStorage += 1
                emitCallout(of: observer, for: activity)
                callout(observer) { observer.callout(activity) }
                if oneShot { invalidateLocked(observer) }
                observer.isFiring = false
                return isHalted
            }
            if halted { return }
        }
        withExtendedLifetime(snapshot) {}
    }

    /// One blocks pass (docs/cfrunloop.md §6): detach the whole queue, run the blocks that match `mode` in FIFO order,
    /// and put the rest back in front of whatever was queued meanwhile.
    func doBlocks(_ mode: LoopModeState) {
        guard !blocks.isEmpty, !isHalted else { return }
        let detached = blocks
        blocks = []
        var kept: [PendingBlock] = []
        for (index, block) in detached.enumerated() {
            if isHalted {
                kept.append(contentsOf: detached[index...])
                break
            }
            if blockMatches(block, mode.name) {
                emit(.block, block.name)
                callout(.block, block.name) { block.action() }
            } else {
                kept.append(block)
            }
        }
        if !kept.isEmpty { blocks = kept + blocks }
    }

    /// The version-0 pass (docs/cfrunloop.md §7): signalled, valid sources sorted by order, then first-signal time.
    ///
    /// Returns CF's "handled": with `stopAfterHandle` true once a source ran; otherwise the result of the *last*
    /// source of the snapshot only (the quirk of docs/cfrunloop.md §7.5).
    func doSources0(_ mode: LoopModeState, stopAfterHandle: Bool) -> Bool {
        guard !mode.sources0.isEmpty else { return false }
        // The mode's signalled sources only, not a walk of all of them (`LoopModeState.takeSignalledSources0`).
        var snapshot = mode.takeSignalledSources0()
        guard let first = snapshot.first else { return false }
        // The usual pass has one signalled source: no sort.
        if snapshot.count == 1 {
            if isHalted { return false }
            return doSource0(first)
        }
        // By order, then by when each was signalled; the order a walk of `sources0` met them in is the last word
        // (no two signals share a stamp), as when the pass walked every source and sorted stably.
        snapshot.sort { a, b in
            if a.order != b.order { return a.order < b.order }
            if a.signalStamp != b.signalStamp { return a.signalStamp < b.signalStamp }
            return mode.arrival(of: a) < mode.arrival(of: b)
        }
        var handled = false
        for source in snapshot {
            if isHalted { return handled }
            handled = doSource0(source)
            if stopAfterHandle && handled { break }
        }
        return handled
    }

    private func doSource0(_ source: LoopSource) -> Bool {
        guard source.signalled else { return false }
        source.signalled = false
        guard source.isValidStorage else { return false }
        emit(.source0, source)
        callout(source) { source.perform(1) }
        return true
    }

    /// Performs a version-1 source whose port was taken by the wait (docs/cfrunloop.md §8).
    func doSource1(_ source: LoopSource, messages: Int) -> Bool {
        guard source.isValidStorage else { return false }
        source.signalled = false
        emit(.source1, source, messages == 1 ? nil : .messages(messages))
        callout(source) { source.perform(messages) }
        return true
    }

    /// Runs the main-queue blocks that were queued when the drain started (docs/cfrunloop.md §14). `afterStaleWrite`:
    /// the look that took the port took a write left by a job an earlier drain ran (`takeMainQueuePortRead`).
    func drainMainQueue(afterStaleWrite: Bool = false) {
        var batch = mainQueue
        mainQueue = []
        // Jobs queued behind the one that woke the loop, on their way back from the global executor for less than
        // `hopLatency` (a yield microseconds before this look, fuzz seed 7 case 119): whether they were there when
        // the wait took the port is a race the waiter decides. If not, each writes the queue's port again when it
        // comes, which costs a later wake for nothing if it came before this drain began (a second race), or is
        // the wake for a drain of its own if it comes after. The first job is there, as its port ended the wait,
        // unless a stale write did (fuzz seed 80 case 150: then the first may be on its way too).
        if let mainQueuePort, let inFlight = batch.firstIndex(where: isHopInFlight), batch.count > 1 || afterStaleWrite
        {
            let first = afterStaleWrite ? inFlight : max(inFlight, 1)
            if batch[first...].allSatisfy(isHopInFlight), !waiter.hopArrivesBeforeLook(batch[first].name, loop: name) {
                if !waiter.hopArrivesBeforeLook(batch[first].name, loop: name) {
                    mainQueue = Array(batch[first...])
                    batch.removeSubrange(first...)
                } else {
                    // Drained now, their write still to come: a stale one for the next look.
                    mainQueueHasStaleWrite = true
                }
                waiter.send(mainQueuePort)
            }
        }
        isDrainingMainQueue = true
        for (index, block) in batch.enumerated() {
            if isHalted {
                mainQueue = Array(batch[index...]) + mainQueue
                break
            }
            // Queued after the look read the port (by an afterWaiting observer, say): its write is still there.
            if block.write > mainQueueWritesRead { mainQueueHasStaleWrite = true }
            emit(.mainQueue, block.name, block.job.map { .job($0) })
            callout(.mainQueue, block.name) { block.action() }
        }
        isDrainingMainQueue = false
    }

    /// Engine lock held, as a look (a wait, a peek, a poll) takes the main queue's port: every write so far is
    /// read. True when one of them was left by a job already drained.
    func takeMainQueuePortRead() -> Bool {
        let stale = mainQueueHasStaleWrite
        mainQueueHasStaleWrite = false
        mainQueueWritesRead = mainQueueWrites
        return stale
    }

    /// A job on its way back from the global executor that cannot have landed yet (queued less than
    /// `hopLatency` ago).
    private func isHopInFlight(_ job: PendingBlock) -> Bool {
        job.hopSince.map { clock.now - $0 < Self.hopLatency } ?? false
    }
}
