/// A custom input source as the run-loops chapter builds one: its schedule and cancel callouts run their
/// scripts, and its command queue is data - the client posts commands, the perform drains them in order, an
/// invalidation drops what is left (docs/cfrunloop.md §18).
extension ScriptInterpreter {
    /// The version-0 source of item `name`, with its schedule and cancel callouts and its command queue.
    func makeSource0(_ name: String, order: Int, script: [ScriptStep], callouts: SourceCallouts) -> LoopSource {
        let queue = SourceCommandQueue(capacity: callouts.commandCapacity)
        commandQueues[name] = queue
        let schedule: ((RunLoopCore, ModeName) -> Void)? =
            callouts.schedule.isEmpty
            ? nil : { [unowned self] _, _ in self.sourceCallout("\(name) schedule", callouts.schedule) }
        let cancel: ((RunLoopCore, ModeName) -> Void)? =
            callouts.cancel.isEmpty
            ? nil : { [unowned self] _, _ in self.sourceCallout("\(name) cancel", callouts.cancel) }
        return LoopSource(name: name, order: order, schedule: schedule, cancel: cancel) { [unowned self] in
            self.world.otherThreadsMayAct()
            self.performCommands(of: name)
            self.callout(name, script, activity: nil)
        }
    }

    /// A schedule or cancel callout: its steps, counted apart from the perform's (`key` names the callout).
    private func sourceCallout(_ key: String, _ script: [ScriptStep]) {
        runScript(key, script, activity: nil, as: self)
    }

    /// `post CMD to SOURCE` to this thread's source: the client adds a command to the source's queue (the
    /// chapter's `addCommand:`). The event goes to the source's loop, at the client's moment.
    func post(_ command: String, to source: String) {
        guard let queue = commandQueues[source] else { return }
        let outcome = queue.post(command)
        loop.record(.command, command, fact: .command(LoopEvent.CommandStep(source: source, outcome)))
    }

    /// At the start of the source's perform: every command queued now, in order (one posted meanwhile waits for
    /// the next perform).
    private func performCommands(of source: String) {
        guard let queue = commandQueues[source] else { return }
        for command in queue.takeAll() {
            if world.isHalted { return }
            loop.record(.command, command, fact: .command(LoopEvent.CommandStep(source: source, .performed)))
        }
    }

    /// After `CFRunLoopSourceInvalidate` (and its cancel callouts): the commands still queued are never
    /// performed.
    func dropCommands(of source: String) {
        guard let queue = commandQueues[source] else { return }
        for command in queue.takeAll() {
            if world.isHalted { return }
            loop.record(.command, command, fact: .command(LoopEvent.CommandStep(source: source, .dropped)))
        }
    }
}
