/// A timer's links to the queues a fire moves it in: one per mode whose port the loop arms (`armedSlots`), one per
/// resting group (`restingSlots`). Modes rest and wake one at a time, so each link leaves its list in O(1): its
/// slot knows its place there.
extension LoopTimer {
    /// The timer is moved in `mode` at each fire from now on.
    func linkArmed(_ slot: TimerSlot, in mode: LoopModeState) {
        slot.linkIndex = armedSlots.count
        armedSlots.append(ArmedSlot(mode: mode, slot: slot))
    }

    /// The timer is no longer moved in the mode of `slot` (a slot of ``armedSlots``).
    func unlinkArmed(_ slot: TimerSlot) {
        armedSlots.removeLink(of: slot) { $0.slot }
    }

    /// The timer is moved in the resting group's queue at each fire from now on.
    func linkResting(_ slot: TimerSlot, in group: RestingTimerGroup) {
        slot.linkIndex = restingSlots.count
        restingSlots.append(RestingSlot(group: group, slot: slot))
    }

    /// The timer is no longer moved in the group of `slot` (a slot of ``restingSlots``).
    func unlinkResting(_ slot: TimerSlot) {
        restingSlots.removeLink(of: slot) { $0.slot }
    }
}

extension Array {
    /// Removes the element that holds `slot`, found at the slot's `linkIndex`, by moving the last element into its
    /// place (whose slot is told its new place): O(1), where the order of a timer's links does not matter (each
    /// is one mode's or one group's, moved apart from the others). Nothing happens if it is not there.
    fileprivate mutating func removeLink(of slot: TimerSlot, slotOf: (Element) -> TimerSlot) {
        let index = slot.linkIndex
        guard index >= 0, index < count, slotOf(self[index]) === slot else { return }
        let last = removeLast()
        if index < count {
            self[index] = last
            slotOf(last).linkIndex = index
        }
        slot.linkIndex = -1
    }
}
