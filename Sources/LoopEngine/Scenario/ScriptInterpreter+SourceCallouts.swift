/// A custom input source as the run-loops chapter builds one: its schedule and cancel callouts run their
/// scripts, and its command queue is data - the client posts commands, the perform drains them in order, an
/// invalidation drops what is left (docs/cfrunloop.md §18).
extension ScriptInterpreter {
    /// A source0's bounded command queue. Guarded by its own lock: clients post from other threads while the
    /// source's own thread drains it.
    final class CommandQueue: @unchecked Sendable {
        // @unchecked Sendable: `commands` is only touched with `lock` held.
        let capacity: Int
        private let lock = LoopLock()
        private var commands: [String] = []

        init(capacity: Int) {
            self.capacity = capacity
        }

        /// Appends `command`; the number queued afterwards, or nil when the queue was full.
        func post(_ command: String) -> Int? {
            lock.withLock {
                guard commands.count < capacity else { return nil }
                commands.append(command)
                return commands.count
            }
        }

        /// Everything queued, first posted first, leaving the queue empty.
        func takeAll() -> [String] {
            lock.withLock {
                defer { commands = [] }
                return commands
            }
        }
    }

    /// The version-0 source of item `name`, with its schedule and cancel callouts and its command queue.
    func makeSource0(_ name: String, order: Int, script: [ScriptStep], callouts: SourceCallouts) -> LoopSource {
        let queue = CommandQueue(capacity: callouts.commandCapacity)
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
        let outcome: LoopEvent.CommandOutcome =
            queue.post(command).map { .posted(queued: $0) } ?? .refused(capacity: queue.capacity)
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
