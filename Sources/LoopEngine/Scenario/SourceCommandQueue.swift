/// A custom input source's bounded command queue, the run-loops chapter's (docs/cfrunloop.md §18): the client
/// posts commands, the source's perform drains them in order, an invalidation drops what is left. One type for the
/// engine (`ScriptInterpreter+SourceCallouts.swift`) and the CF oracle (`CustomSourceInfo`), so both queue alike.
///
/// Guarded by its own lock: clients post from other threads while the source's own thread drains it.
package final class SourceCommandQueue: @unchecked Sendable {
    // @unchecked Sendable: `commands` is only touched with `lock` held.
    /// How many commands it holds at most (`commands N`).
    package let capacity: Int
    private let lock = LoopLock()
    private var commands: [String] = []

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Appends `command` unless the queue is full: `posted` with the number queued afterwards, or `refused`.
    package func post(_ command: String) -> LoopEvent.CommandOutcome {
        lock.withLock {
            guard commands.count < capacity else { return .refused(capacity: capacity) }
            commands.append(command)
            return .posted(queued: commands.count)
        }
    }

    /// Everything queued, first posted first, leaving the queue empty.
    package func takeAll() -> [String] {
        lock.withLock {
            defer { commands = [] }
            return commands
        }
    }
}
