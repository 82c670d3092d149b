/// What a pool needs from the world it runs in: the virtual world, or real threads on the real backend. The pool's
/// scheduling is the same in both; only where its threads come from, and how a caller waits, differ.
protocol PoolWorld: AnyObject, Sendable {
    var clock: any LoopClock { get }
    /// The kernel of the loops: ports, the engine lock (under which events are recorded), halting.
    var kernel: any LoopWaiter { get }
    /// Starts a new thread with a loop of its own named `name` and runs `body` on it; returns the loop at once.
    /// On the virtual clock only the running thread may call this.
    func startThread(
        named name: String, sink: (any TraceSink)?, _ body: @escaping (RunLoopCore) -> Void
    )
        -> RunLoopCore
    /// Works on the calling thread for `duration` (a callout's `work`, a synchronous operation), returning early
    /// when the world halts: on real threads a halt must not wait for a long sleep to end.
    func work(_ duration: Duration)
    /// Works for `duration` looking at `isCancelled` every `every` (a synchronous operation's check points); see
    /// `PoolWorld+CheckedWork.swift`. The virtual world skips check points nothing could observe.
    func work(_ duration: Duration, checkingEvery every: Duration, isCancelled: @escaping () -> Bool) -> CheckedWork
    /// Blocks the calling thread until `condition` holds or the world halts; returns the condition. `wait` says
    /// what for: the virtual world reports it if nothing left can end the wait.
    @discardableResult
    func block(for wait: StuckWait.Wait, until condition: @escaping () -> Bool) -> Bool
}
