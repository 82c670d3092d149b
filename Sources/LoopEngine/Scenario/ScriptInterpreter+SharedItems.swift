/// One item in the loops of two threads (`add … on THREAD`): whose code its callout is.
extension ScriptInterpreter {
    /// The host whose loop runs the callout now: this thread's, unless the caller is another thread's loop (a
    /// source of this thread added to that loop too, or a timer handed over to it). The kernel tells a loop's
    /// own thread from the others (`callerIsOutside`), as CF's `_CFRunLoopIsCurrent` does.
    func performingHost() -> ScriptInterpreter {
        if !world.kernel.callerIsOutside(loop) { return self }
        return shared.firstHost { $0 !== self && !world.kernel.callerIsOutside($0.loop) } ?? self
    }
}
