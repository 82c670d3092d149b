/// One job of a main-actor task: the actions between two `await`s of its body, and the `await` that ends them
/// (nil for the last). The interpreter cuts a body into parts once, so both adapters run the same jobs.
package struct MainActorTaskPart: Sendable, Equatable {
    package var actions: [Action]
    package var await: TaskAwait?

    /// `body` cut at each `await` directly in it (an `await` cannot be deeper: the parser refuses it).
    package static func parts(of body: [Action]) -> [MainActorTaskPart] {
        var parts: [MainActorTaskPart] = []
        var current: [Action] = []
        for action in body {
            if case .await(let wait) = action {
                parts.append(MainActorTaskPart(actions: current, await: wait))
                current = []
            } else {
                current.append(action)
            }
        }
        parts.append(MainActorTaskPart(actions: current, await: nil))
        return parts
    }

    /// The job that runs part `index` of a task: its start, or a resumption after the previous part's `await`.
    package static func job(_ index: Int, of parts: [MainActorTaskPart]) -> MainQueueJob {
        guard index > 0, let wait = parts[index - 1].await else { return .taskStart }
        return .resumed(after: wait)
    }
}
