#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// A timer made by a Foundation convenience (`timer T every 100ms foundation init`): the real call is made, and
/// the CF timer the scenario drives is dated as it dated its `Timer`. Foundation keeps a `Timer`'s CF timer to
/// itself, and queries, `add … on`, `reschedule` and `fire` need the CF timer (docs/cfrunloop.md §9.5).
extension OracleHost {
    /// The fire date and CF interval the real `call` gives a timer of `interval` made now: the offset from the
    /// call is Foundation's, measured from the scenario start for a thread there at the start (as the engine
    /// measures it), from now for a thread started on the way. The `Timer` is invalidated at once (a scheduled
    /// one is in the default mode): the scenario's CF timer stands for it.
    func foundationTimerDate(
        _ call: FoundationTimerCall, interval: Duration, repeats: Bool
    ) -> (fireDate: CFAbsoluteTime, interval: CFTimeInterval) {
        let calledAt = Date()
        let timer =
            switch call {
            case .initializer: Timer(timeInterval: interval.secondsValue, repeats: repeats) { _ in }
            case .scheduled: Timer.scheduledTimer(withTimeInterval: interval.secondsValue, repeats: repeats) { _ in }
            }
        // Read before the invalidation: an invalid timer's fire date reads 0.
        let offset = timer.fireDate.timeIntervalSince(calledAt)
        let cfInterval = timer.timeInterval
        timer.invalidate()
        let base = spec.startsLater ? calledAt.timeIntervalSinceReferenceDate : originAbsolute
        return (base + offset, cfInterval)
    }
}
#endif
