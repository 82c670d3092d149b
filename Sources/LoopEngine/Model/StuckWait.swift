/// A thread blocked in a wait that nothing left could end when the virtual world went idle: the real program would
/// hang there for good. loopviz ends the run instead (``VirtualWorld/HaltReason/idle``), and says which thread
/// waited for what, so that a trace that just stops is explained.
public struct StuckWait: Sendable, Equatable {
    /// What the thread was waiting for.
    public enum Wait: Sendable, Equatable {
        /// `waitUntilAllOperationsAreFinished` on queue `queue` (`wait for Q`).
        case allOperations(queue: String)
        /// `performSelector:onThread:withObject:waitUntilDone:YES` (`perform TASK on THREAD wait`): the loop of
        /// `target` was to run `task`.
        case performed(task: String, target: String)
    }

    /// The waiting thread.
    public var thread: String
    /// What it was waiting for.
    public var wait: Wait

    package init(thread: String, wait: Wait) {
        self.thread = thread
        self.wait = wait
    }
}
