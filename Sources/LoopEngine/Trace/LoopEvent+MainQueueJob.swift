/// Where a main-actor task suspends: its `await`s that give the main queue back (docs/concurrency.md).
public enum TaskAwait: Hashable, Sendable {
    /// `await Task.yield()`: the rest of the task goes to the global executor, then to the back of the main queue.
    case yield
    /// `try await Task.sleep(for:)`: the rest is queued when a libdispatch timer fires, at the deadline.
    case sleep(Duration)
}

/// What a main-queue job is when it is not a plain `DispatchQueue.main.async` block: the fact of its `mainQueue`
/// event, so the Why pane can say which rule queued it.
public enum MainQueueJob: Hashable, Sendable {
    /// The first job of `Task { @MainActor in … }`.
    case taskStart
    /// A main-actor task's job after it suspended at `await`.
    case resumed(after: TaskAwait)
    /// `DispatchQueue.main.asyncAfter`'s handler, queued when its timer fired (the delay it was asked with).
    case asyncAfter(Duration)
    /// The second job libdispatch queues after an `asyncAfter` handler: it runs nothing the program wrote, yet the
    /// drain that runs it counts as handled (docs/concurrency.md, rule 7).
    case asyncAfterTeardown
}
