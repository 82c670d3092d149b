import LoopEngine

/// The Why line of a custom source's command (the run-loops chapter's command queue, docs/cfrunloop.md §18).
extension Explanation {
    static func command(_ event: LoopEvent) -> (case: Case, text: String) {
        guard case .command(let step) = event.fact else { return plain(event) }
        let name = event.name ?? ""
        switch step.outcome {
        case .posted(let queued):
            return (
                .commandPosted,
                "The client adds command \(name) to the queue of \(step.source) (\(queued) waiting). Posting neither "
                    + "signals the source nor wakes its loop: the client does both next, or the command waits."
            )
        case .refused(let capacity):
            return (
                .commandRefused,
                "The queue of \(step.source) already holds \(LoopEvent.count(capacity, "command")), its limit: command \(name) is not "
                    + "added. Only a perform of the source empties the queue."
            )
        case .performed:
            return (
                .commandPerformed,
                "The perform of \(step.source) drains its queue in order: command \(name) runs now. Commands posted "
                    + "while it runs wait for the next signal."
            )
        case .dropped:
            return (
                .commandDropped,
                "\(step.source) was invalidated with command \(name) still queued: an invalid source is never "
                    + "performed again, so the command never runs."
            )
        }
    }
}
