/// Where a loop reads the time, and where a callout that "works" spends it.
///
/// The virtual clock moves only when the loop waits or a callout declares work; the real clock is
/// `CLOCK_MONOTONIC`. The core never reads time any other way.
public protocol LoopClock: AnyObject, Sendable {
    /// The current instant.
    var now: LoopInstant { get }
    /// Spends `duration` on the calling thread, as a callout doing real work would (virtual: moves time on,
    /// delivering whatever the outside world does meanwhile; real: busy for that long).
    func spend(_ duration: Duration)
}
