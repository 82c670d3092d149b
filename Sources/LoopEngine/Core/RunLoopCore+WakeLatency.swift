/// A timer-port wake's lateness (docs/cfrunloop.md §9.6). A real kernel wakes a loop for its timer port tens to
/// hundreds of microseconds after the deadline, and CF's timer pass fires every timer due by the time it runs, so
/// two timers due microseconds apart fire in one pass. The virtual kernel wakes at the deadline to the nanosecond,
/// so the engine fires them in two; whether the second is due in the first pass is a race, which the waiter
/// decides (fuzz seed 78 case 21, seed 79 case 1929).
extension RunLoopCore {
    /// How far after a timer-port wake another timer's deadline may lie and still be offered as due in the same
    /// pass: less than a real wake's lateness here (the bench's timer row: a median of 100–120 µs).
    static let wakeLatency = Duration.microseconds(50)

    /// Engine lock held, after a wait took `mode`'s timer port: when another timer of the mode is due within
    /// ``wakeLatency`` and the waiter says the wake came that late, the time until the last such deadline passes
    /// first (on the virtual clock, other threads and outside events go on meanwhile, as they would).
    func wakeLateForTimersDueSoon(_ mode: LoopModeState) {
        let now = clock.now
        guard let last = mode.timers.lastDeadline(after: now, upTo: now + Self.wakeLatency),
            waiter.wakeCameLate(loop: name)
        else { return }
        lock.unlock()
        clock.spend(last - now)
        lock.lock()
    }
}
