/// What a version-0 source does besides its perform: its schedule and cancel callouts, and its command queue
/// (the run-loops chapter's custom input source, docs/cfrunloop.md §18).
public struct SourceCallouts: Sendable, Equatable {
    /// The schedule callout's steps (`on schedule: …`), run once per concrete mode the source is inserted into.
    package var schedule: [ScriptStep]
    /// The cancel callout's steps (`on cancel: …`), run once per concrete mode the source leaves.
    package var cancel: [ScriptStep]
    /// How many commands its queue holds at most (`commands N`): a post to a full queue is refused.
    package var commandCapacity: Int

    /// A queue's capacity when the source line does not give one.
    package static let defaultCommandCapacity = 16
    /// The most commands a queue may hold (`commands N`, N at most this).
    static let maxCommandCapacity = 1000

    package init(
        schedule: [ScriptStep] = [], cancel: [ScriptStep] = [], commandCapacity: Int = defaultCommandCapacity
    ) {
        self.schedule = schedule
        self.cancel = cancel
        self.commandCapacity = commandCapacity
    }
}

extension Scenario {
    /// The names of every version-0 source of the scenario: the sources whose schedule and cancel callouts (and
    /// commands) the real CFRunLoop reports as the engine does (`TraceComparison`'s `sourceCallouts`).
    package var source0Names: Set<String> {
        var names: Set<String> = []
        for thread in threads {
            for item in thread.items { if case .source0 = item.kind { names.insert(item.name) } }
        }
        return names
    }
}
