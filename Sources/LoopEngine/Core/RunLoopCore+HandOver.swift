extension RunLoopCore {
    /// Notes that the calling thread (nil: an outside event) hands `what` to this loop, when the sink keeps
    /// hand-overs and the backend knows its threads (`HandOver`). Call with the engine lock held, right before
    /// the event that shows it, if any. A backend that does not know its threads (a real kernel) records none.
    func noteHandOver(_ what: @autoclosure () -> HandOver.What) {
        // Only a recorder keeps hand-overs: with any other sink, or none, nothing is built (a signal's name
        // retained and released) and the backend is not asked.
        guard recorder != nil, let recorder = sinkStorage as? TraceRecorder else { return }
        let from: String?
        switch waiter.caller {
        case .unknown: return
        case .outside: from = nil
        case .thread(let thread): from = thread
        }
        recorder.recordHandOver(what(), from: from, to: name, time: clock.now)
    }
}
