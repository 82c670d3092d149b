extension RunLoopCore {
    /// Notes that the calling thread (nil: an outside event) hands `what` to this loop, when the sink keeps
    /// hand-overs and the backend knows its threads (`HandOver`). Call with the engine lock held, right before
    /// the event that shows it, if any.
    func noteHandOver(_ what: HandOver.What) {
        guard let recorder = sinkStorage as? TraceRecorder, let world = waiter as? VirtualWorld else { return }
        recorder.recordHandOver(what, from: world.callingThreadName, to: name, time: clock.now)
    }
}
