/// Resting modes: the modes that hold the same timers and that no run is in, moved and armed as one.
///
/// CF moves a repeating timer in each of its modes at every fire and re-arms each mode's timer port
/// (`__CFRepositionTimerInMode`, `__CFArmNextTimerInMode`): 100 timers in 1,000 modes that the program runs now and
/// then cost 1,000 moves and arms a fire. Only a wait on a mode can see its port, and only its runs read its queue,
/// so a mode no run is in needs neither kept up to date as long as it can be brought up to date exactly when a run
/// of it begins. Modes with the same timers see the same moves and compute the same arming windows, so one
/// ``RestingTimerGroup`` does that work for all of them: one move, one window, one arm of the waiter's arm group
/// (which brings each port up to date when it is looked at: `VirtualWorld+ArmGroups.swift`). A fire then costs the
/// same with 1 or 1,000 such modes.
///
/// A mode rests after a few moves of its timers with no run of it (``RestingPolicy``), once it is armed for what
/// the group is armed for (its own timers, those no other mode holds, may stay out of the group while they all
/// come after its window: ``rest(_:)``); it wakes - its queue put back in order, its port brought up to date, its slots moved
/// again at each fire - when a run of it begins or its timers change. Nothing else changes: the trace is the one
/// the eager moves give (`RestingModesTests` runs both). A backend that cannot group arms (a real kernel must see
/// each) has no resting modes.
extension RunLoopCore {
    /// Called for a mode whose timers were just moved with no run of it: counts the move, and says whether the
    /// mode has now had enough of them to rest.
    func countIdleMove(_ mode: LoopModeState) -> Bool {
        guard let needed = restingPolicy.moves(forTimers: mode.timers.count), canRest else { return false }
        mode.idleMoves += 1
        return mode.idleMoves >= needed
    }

    /// The mode joins the resting group of its timers (made if there is none), unless a run of it is active or
    /// it is not armed as that group is. The group holds the timers the mode shares with other modes; timers of
    /// its own (its *extras*) may stay out of it when every one of them comes after the group's window: the mode's
    /// window is then the group's, and it wakes when the group's window reaches them or one of them moves.
    func rest(_ mode: LoopModeState) {
        mode.idleMoves = 0
        guard mode.resting == nil, mode.activeRuns == 0, !mode.timers.isEmpty, armsTimerPort(of: mode.name) else {
            return
        }
        // A pass over its timers: work of its own (`WorkLimit`), which the moves before it paid for.
        waiter.spendWork(mode.timers.count)
        let slots = mode.timers.allSlots
        var shared: [TimerSlot] = []
        var signature = TimerSetSignature()
        var extrasSoft: TimerQueue.Order?
        for slot in slots {
            let timer = slot.timer
            if timer.armedSlots.count + timer.restingSlots.count > 1 {
                shared.append(slot)
                signature.add(timer)
            } else if !timer.isFiring {
                let soft = TimerQueue.Order(fireTime: timer.fireTime, stamp: slot.key.stamp)
                if extrasSoft == nil || soft < extrasSoft! { extrasSoft = soft }
            }
        }
        let hasExtras = shared.count < slots.count
        if hasExtras, !shared.isEmpty, join(mode, shared: shared, signature: signature, extrasSoft: extrasSoft) {
            return
        }
        _ = join(mode, shared: slots, signature: mode.timerSignature, extrasSoft: nil)
    }

    /// ``rest(_:)`` with `shared` in the group and the mode's other timers out of it; false when the mode cannot
    /// join such a group (its window is not the group's, or the waiter makes no arm groups).
    private func join(
        _ mode: LoopModeState, shared: [TimerSlot], signature: TimerSetSignature, extrasSoft: TimerQueue.Order?
    ) -> Bool {
        let hasExtras = shared.count < mode.timers.count
        let group: RestingTimerGroup
        if let existing = restingGroups[signature] {
            guard existing.armedSoft == mode.armedSoft, existing.armedHard == mode.armedHard,
                existing.queue.holds(exactly: shared),
                !hasExtras || Self.extrasComeAfter(extrasSoft, hard: existing.armedHard)
            else { return false }
            group = existing
        } else {
            let queue = TimerQueue.copying(shared)
            let window = queue.armingWindow(honourTolerance: profile == .darwin)
            guard window?.soft == mode.armedSoft, window?.hard == mode.armedHard,
                !hasExtras || Self.extrasComeAfter(extrasSoft, hard: window?.hard)
            else { return false }
            guard let armGroup = waiter.makeArmGroup() else {
                canRest = false
                return false
            }
            group = RestingTimerGroup(queue: queue, armGroup: armGroup, signature: signature)
            group.armedSoft = mode.armedSoft
            group.armedHard = mode.armedHard
            for slot in group.queue.allSlots { slot.timer.linkResting(slot, in: group) }
            restingGroups[signature] = group
        }
        // Its extras stay linked: a move of one wakes it.
        for slot in shared { slot.timer.unlinkArmed(slot) }
        waiter.join(mode.timerPort, armGroup: group.armGroup)
        mode.resting = group
        mode.restingIndex = group.members.count
        group.members.append(mode)
        if hasExtras {
            group.withExtras.set(ObjectIdentifier(mode), key: extrasSoft ?? Self.never, value: mode)
        }
        restingModeCount += 1
        return true
    }

    /// True when a mode's extras, the earliest at `extrasSoft` (nil: all firing), come after a group window that
    /// ends at `hard`: the mode's window is then the group's.
    private static func extrasComeAfter(_ extrasSoft: TimerQueue.Order?, hard: TimerQueue.Order?) -> Bool {
        guard let hard else { return false }
        return (extrasSoft ?? never) > hard
    }

    /// A key past every window.
    private static let never = TimerQueue.Order(fireTime: .distantFuture, stamp: .max)

    /// The mode leaves its resting group: its queue back in order, its port as the group's arms left it, its
    /// slots moved at each fire again. The group goes when its last member leaves.
    func wake(_ mode: LoopModeState) {
        guard let group = mode.resting else { return }
        mode.resting = nil
        mode.idleMoves = 0
        let last = group.members.removeLast()
        if last !== mode {
            group.members[mode.restingIndex] = last
            last.restingIndex = mode.restingIndex
        }
        restingModeCount -= 1
        group.withExtras.remove(ObjectIdentifier(mode))
        waiter.leaveArmGroup(mode.timerPort)
        mode.armedSoft = group.armedSoft
        mode.armedHard = group.armedHard
        mode.timers.refreshKeys()
        waiter.spendWork(mode.timers.count)
        for slot in mode.timers.allSlots where slot.linkIndex < 0 { slot.timer.linkArmed(slot, in: mode) }
        modesWoken += 1
        guard group.members.isEmpty else { return }
        for slot in group.queue.allSlots { slot.timer.unlinkResting(slot) }
        waiter.closeArmGroup(group.armGroup)
        restingGroups[group.signature] = nil
    }

    /// Moves `timer` in the resting group of `slot` and arms the group's ports if its window changed. Members
    /// whose extras the new window reaches wake first, and take this move as a mode of their own.
    func moveResting(_ resting: LoopTimer.RestingSlot, stamp: UInt64) {
        let group = resting.group
        group.queue.reposition(resting.slot, stamp: stamp)
        restingGroupMoves += 1
        let decision = armingDecision(group.queue, soft: group.armedSoft, hard: group.armedHard)
        while let first = group.withExtras.min, decision.hard == nil || first.key <= decision.hard! {
            let mode = first.value
            wake(mode)
            armNextTimer(mode)
        }
        guard !group.members.isEmpty else { return }
        if let instant = decision.arm { waiter.arm(group: group.armGroup, at: instant) }
        group.armedSoft = decision.soft
        group.armedHard = decision.hard
    }
}
