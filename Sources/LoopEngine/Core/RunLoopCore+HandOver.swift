extension RunLoopCore {
    /// Notes that the calling thread (nil: an outside event) hands `what` to this loop, when the sink keeps
    /// hand-overs and the backend knows its threads (`HandOver`). Call with the engine lock held, right before
    /// the event that shows it, if any. A real backend returns at once (its `waiter` is a constant).
    func noteHandOver(_ what: HandOver.What) {
        guard let world = waiter as? VirtualWorld, let recorder = sinkStorage as? TraceRecorder else { return }
        recorder.recordHandOver(what, from: world.callingThreadName, to: name, time: clock.now)
    }
}
