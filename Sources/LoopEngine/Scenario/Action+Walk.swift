extension Action {
    /// The actions nested in this one, which run later, elsewhere or on a condition (a block's, a main-queue block's,
    /// a task's, a detached thread's body, an `if`'s, a `dealloc`'s); empty for every other action.
    package var nested: [Action] {
        switch self {
        case .performBlock(_, _, let inner), .mainQueue(_, let inner), .mainActorTask(_, let inner),
            .asyncAfter(_, _, let inner), .performOn(_, _, _, let inner),
            .performOrdered(_, _, _, _, let inner), .performDelayed(_, _, _, _, let inner), .detach(_, let inner),
            .ifHolds(_, let inner),
            .dealloc(_, let inner):
            inner
        default:
            []
        }
    }

    /// The first answer `visit` gives for `actions` and everything nested in them, depth first in declaration order
    /// (an action before its nested ones): the one walk the oracles, `compare` and the pool comparison share to find
    /// the first action they cannot run or the ones they collect.
    package static func first<Answer>(in actions: [Action], _ visit: (Action) -> Answer?) -> Answer? {
        for action in actions {
            if let answer = visit(action) { return answer }
            if let answer = first(in: action.nested, visit) { return answer }
        }
        return nil
    }

    /// Calls `visit` on `actions` and everything nested in them, in the order of ``first(in:_:)``.
    package static func forEach(in actions: [Action], _ visit: (Action) -> Void) {
        let _: Never? = first(in: actions) { action in
            visit(action)
            return nil
        }
    }
}

extension Scenario {
    /// Every action list of the scenario, in declaration order: each thread's program and its items' scripts, then
    /// the outside events (only those addressed to one of its threads when `addressedOnly`).
    package func actionLists(addressedOnly: Bool = false) -> [[Action]] {
        var lists: [[Action]] = []
        for thread in threads {
            lists.append(thread.program)
            for item in thread.items { lists.append(item.script.map(\.action)) }
        }
        let names = Set(threads.map(\.name))
        for event in outside where !addressedOnly || names.contains(event.thread) { lists.append(event.actions) }
        return lists
    }

    /// ``Action/first(in:_:)`` over every action of the scenario.
    package func firstAction<Answer>(addressedOnly: Bool = false, _ visit: (Action) -> Answer?) -> Answer? {
        for list in actionLists(addressedOnly: addressedOnly) {
            if let answer = Action.first(in: list, visit) { return answer }
        }
        return nil
    }
}
