/// A loop refused a run nested deeper than ``RunLoopCore/maximumNestingDepth``: a callout re-entered the loop
/// without end (each nested run's callout starting the next), which on a real thread ends in a stack overflow.
///
/// The backend halts with this fact (``LoopWaiter/halt(atNestingLimit:)``): every run unwinds without further
/// callouts, and the runners report it (``VirtualWorld/HaltReason/nestingLimit(_:)``).
public struct NestingLimit: Sendable, Equatable {
    /// The callout that asked for one run too many: its kind (`source0`, `source1`, `timer`, `observer`,
    /// `block`, `mainQueue`, `perform`) and its item's name.
    public struct Callout: Sendable, Equatable {
        /// The callout's kind, as its trace event says it.
        public var kind: LoopEvent.Kind
        /// The name of the callout's item.
        public var name: String

        package init(kind: LoopEvent.Kind, name: String) {
            self.kind = kind
            self.name = name
        }
    }

    /// The thread whose loop it is (the loop's name).
    public var thread: String
    /// The callout that asked; nil when no callout of this loop was running (the run was started from outside).
    public var callout: Callout?
    /// How many runs were active on the thread when it asked: the limit.
    public var depth: Int

    package init(thread: String, callout: Callout?, depth: Int) {
        self.thread = thread
        self.callout = callout
        self.depth = depth
    }
}
