import LoopEngine

extension AppModel {
    /// Brings the filter's index up to the trace shown: nothing when it is current, the new events when the
    /// trace grew, every event when it is another trace.
    mutating func syncFilterIndex() {
        guard var index = filterIndex, !index.isCurrent(for: trace, identity: session.traceIdentity) else { return }
        // Out of the model while it grows: the model's copy would make the array's storage shared.
        filterIndex = nil
        index.update(to: trace, identity: session.traceIdentity)
        filterIndex = index
    }

    /// The filter's index for the trace shown: the kept one, or (for a model no message went through) one made
    /// here.
    var currentFilterIndex: FilterIndex? {
        guard var index = filterIndex else { return nil }
        if !index.isCurrent(for: trace, identity: session.traceIdentity) {
            index.update(to: trace, identity: session.traceIdentity)
        }
        return index
    }
}
