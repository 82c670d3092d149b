/// A scenario asked for a thread it cannot have: more than `maximumThreads` at once (declared threads, pool
/// workers and detached threads that have not ended), or one the OS refused (`pthread_create` failed, e.g. under
/// `ulimit -v`: every thread is an OS thread with a stack of `HostedThread.stackSize`).
///
/// The world halts with this fact (``VirtualWorld/HaltReason/threadLimit(_:)``) instead of trapping: every run
/// unwinds without further callouts and the commands report it.
public struct ThreadLimit: Sendable, Equatable {
    /// The most threads a scenario may have at once: 512 stacks of 16 MB are 8 GB of address space (touched only
    /// as deep as their runs go), and no lesson needs more than a few dozen.
    package static let maximumThreads = 512

    /// The thread that could not be created (the loop's name, e.g. `q.513`).
    public var thread: String
    /// How many threads the scenario had at that moment, that thread not counted.
    public var running: Int
    /// The `pthread_create` error, when the OS refused below the limit; nil when the limit refused.
    public var osError: Int32?

    package init(thread: String, running: Int, osError: Int32?) {
        self.thread = thread
        self.running = running
        self.osError = osError
    }
}
