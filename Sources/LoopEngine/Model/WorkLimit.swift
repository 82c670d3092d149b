/// A run did more item operations than its work budget allows: each timer moved or item added to or removed from
/// a mode, each perform queued in a mode, counted once per mode.
///
/// The event budget bounds a trace, not what one event costs: an action that names a range of 10,000 timers or a
/// list of 1,000 modes, run at every iteration, does that much work for a handful of events, as CF would, and a
/// file of a few lines then ran for minutes before its budget. The work budget is ``perEvent`` operations for each
/// event of the event budget, and at least ``minimum`` (4 million for the default million events), far above what
/// a lesson needs (a timer fire in three modes is four operations and half a dozen events); the virtual world halts
/// with this fact (``VirtualWorld/HaltReason/workLimit(_:)``) and the commands report it as they report the event
/// budget (`--max-events` raises both).
public struct WorkLimit: Sendable, Equatable {
    /// The budget that was reached, in item operations.
    public var operations: Int

    /// Item operations allowed per event of the event budget.
    public static let perEvent = 4
    /// The least budget, whatever the event budget: a file of 100,000 items still starts under `--max-events 10`.
    public static let minimum = 1_000_000

    /// The budget for an event budget of `events`.
    public static func operations(forEvents events: Int) -> Int {
        max(minimum, events.multipliedReportingOverflow(by: perEvent).partialValue)
    }

    package init(operations: Int) {
        self.operations = operations
    }
}
