/// A block queued with `RunLoopCore.perform(_:modes:_:)`, tagged with the modes it may run in.
struct PendingBlock {
    var name: String
    /// Mode names; `ModeName.common` matches whatever is common when the blocks pass runs.
    var modes: [ModeName]
    var action: () -> Void
    /// What the main queue's job is, beyond a block (a main-actor task's job, an `asyncAfter` handler): the
    /// drain's event says it. Nil for a block.
    var job: MainQueueJob? = nil
    /// For a main-queue job on its way back from the global executor, when it was sent: until the loop has blocked
    /// or `RunLoopCore.hopLatency` has passed, a look at the main queue may come before it
    /// (`RunLoopCore.performOnMainQueue(_:job:afterHop:_:)`). Nil once it is there, and for every other job.
    var hopSince: LoopInstant? = nil
    /// For a main-queue job, which of the main queue's port writes was its own (`RunLoopCore.mainQueueWrites`).
    var write: UInt64 = 0
}
