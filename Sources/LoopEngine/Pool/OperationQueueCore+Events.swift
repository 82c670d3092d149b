/// The queue's events: every change of a queue, an operation or a worker is one, recorded under the engine lock.
extension OperationQueueCore {

    /// A change of the queue: its name is the action's word, its fact the action.
    func emitQueue(_ action: LoopEvent.QueueAction) {
        emit(.queue, action.rawValue, fact: .queue(action))
    }

    func emit(_ kind: LoopEvent.Kind, _ item: String? = nil, fact: LoopEvent.Fact? = nil) {
        emitOn(name, kind, item, fact: fact)
    }

    func emitOn(_ thread: String, _ kind: LoopEvent.Kind, _ item: String?, fact: LoopEvent.Fact?) {
        guard let sink else { return }
        let event = LoopEvent(
            time: world.clock.now, loop: thread, depth: 0, mode: nil, iteration: 0, kind: kind, name: item,
            fact: fact)
        world.kernel.engineLock.withLock { sink.record(event) }
    }
}
