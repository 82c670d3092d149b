/// A block queued with `RunLoopCore.perform(_:modes:_:)`, tagged with the modes it may run in.
struct PendingBlock {
    var name: String
    /// Mode names; `ModeName.common` matches whatever is common when the blocks pass runs.
    var modes: [ModeName]
    var action: () -> Void
}
