/// Where a loop reads the time, and where a callout that "works" spends it.
///
/// The virtual clock moves only when the loop waits, a callout declares work, or an iteration pays its cost; the
/// real clock is `CLOCK_MONOTONIC`. The core never reads time any other way.
public protocol LoopClock: AnyObject, Sendable {
    /// The current instant.
    var now: LoopInstant { get }
    /// What one iteration of the loop's own work costs on this clock, paid at the end of every iteration (see
    /// ``VirtualWorld/iterationCost``). Zero: nothing is charged - the real clock's iterations take real time of
    /// their own, and a virtual world may be told to keep time still (then a loop that never sleeps never ends).
    var iterationCost: Duration { get }
    /// Spends ``iterationCost`` on the calling thread, as ``spend(_:)`` would, at the end of an iteration; the core
    /// calls it only when the cost is above zero (so the real clock's does nothing). A requirement of its own so
    /// that a clock can make it cheap: it runs at every iteration.
    func spendIteration()
    /// Spends `duration` on the calling thread, as a callout doing real work would (virtual: moves time on,
    /// delivering whatever the outside world does meanwhile; real: busy for that long).
    func spend(_ duration: Duration)
}
