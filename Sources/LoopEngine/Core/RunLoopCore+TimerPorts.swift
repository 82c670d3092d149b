/// Which modes' timer ports a loop arms.
///
/// CF moves a repeating timer in each of its modes at every fire and re-arms each mode's timer port
/// (`__CFRepositionTimerInMode`, `__CFArmNextTimerInMode`), so a timer in 1,000 modes cost 1,000 moves a fire. A
/// port's arming is seen only by a wait on its mode's port set: a mode that no run of the loop ever waits on can
/// leave its port alone, and its queue need not be kept in order. A scenario knows every mode its runs can wait on
/// (`Scenario.modesRunsCanWaitOn`), so its loops are told, and a fire costs work only in those modes.
extension RunLoopCore {
    /// Arms only the timer ports of `names` from now on (every mode's, the default, with nil). Call it before any
    /// timer is added: a run of another mode still works, but its port is armed only when that run begins
    /// (``timerPortsArmedLate`` counts such runs), not since its timers were added, as CF's would have been.
    package func limitTimerPorts(toModes names: Set<ModeName>?) {
        lock.withLock { armedTimerModes = names }
    }

    /// True when the loop arms the timer port of the mode `name`.
    func armsTimerPort(of name: ModeName) -> Bool {
        armedTimerModes?.contains(name) ?? true
    }

    /// A run of a mode whose port the loop did not arm: its queue takes the keys its timers' moves gave them, and
    /// its port is armed from now on. Not what CF's port would have been (it was armed at every move), so a
    /// scenario's loops are told every mode their runs can wait on, and this never happens to them.
    func armTimerPortLate(_ mode: LoopModeState) {
        timerPortsArmedLate += 1
        armedTimerModes?.insert(mode.name)
        mode.timers.refreshKeys()
        for slot in mode.timers.slotsInOrder {
            slot.timer.linkArmed(slot, in: mode)
        }
        armNextTimer(mode)
    }
}
