/// Receives every event a loop emits, on the thread that emits it, while the engine's lock is held.
/// Keep `record` short: it is on the loop's hot path.
public protocol TraceSink: AnyObject {
    /// Takes one event, in the order the loop emits them.
    func record(_ event: consuming LoopEvent)

    /// Takes one event as its parts, borrowed: what the core calls. A sink that stores events its own way (the
    /// compact trace) takes the parts as they are, with no ``LoopEvent`` built only to be taken apart again (its
    /// strings retained and released, its fact copied); the default builds the event and calls
    /// ``record(_:)``.
    func record(
        _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
        name: String?, fact: LoopEvent.Fact?)
}

extension TraceSink {
    public func record(
        _ kind: LoopEvent.Kind, time: LoopInstant, loop: String, depth: Int, mode: String?, iteration: Int,
        name: String?, fact: LoopEvent.Fact?
    ) {
        record(
            LoopEvent(
                time: time, loop: loop, depth: depth, mode: mode, iteration: iteration, kind: kind, name: name,
                fact: fact))
    }
}
