/// A worker thread of a pool: its own loop, kept alive by a port while it waits for work.
final class PoolWorker {
    let name: String
    let loop: RunLoopCore
    /// The port nobody writes, which keeps the worker's loop from returning when it has nothing to do.
    let keepAlive: LoopSource
    /// The operation handed to it, if any.
    var operation: PoolOperation?
    /// Retired: its loop is ending and nothing may be handed to it.
    var retired = false
    /// Armed while it is idle: fires after the queue's idle timeout and retires it.
    var idleTimer: LoopTimer?
    /// Operations it has started (the first was the reason it was created).
    var operationsRun = 0

    init(name: String, loop: RunLoopCore, keepAlive: LoopSource) {
        self.name = name
        self.loop = loop
        self.keepAlive = keepAlive
    }
}
