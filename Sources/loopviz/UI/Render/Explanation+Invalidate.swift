import LoopEngine

/// The Why line of an item a program invalidated (docs/cfrunloop.md §5, §7.8, §9.4): CF removes it from every mode
/// at once and calls nothing for it - only a version-0 source's cancel callouts run, one per mode it left.
extension Explanation {
    static func invalidation(_ event: LoopEvent) -> (case: Case, text: String) {
        guard case .invalidated(let kind, let modes) = event.fact else { return plain(event) }
        let name = event.name ?? ""
        let left = modes.isEmpty ? "every mode it was in" : "every mode it was in (\(LoopEvent.list(modes)))"
        switch kind {
        case .timer:
            return (
                .invalidateTimer,
                "CFRunLoopTimerInvalidate(\(name)): the timer leaves \(left) at once and never fires again; no "
                    + "callout runs for it. An invalid timer cannot be added to a mode again."
            )
        case .observer:
            return (
                .invalidateObserver,
                "CFRunLoopObserverInvalidate(\(name)): the observer leaves \(left) at once and is never called "
                    + "again, not even later in a pass already under way; no callout runs for it."
            )
        case .source1:
            return (
                .invalidatePort,
                "CFRunLoopSourceInvalidate(\(name)): in this loop the port source leaves \(left): its port leaves "
                    + "each mode's wait set (the cancel steps that follow), so a message no longer wakes the loop."
            )
        default:
            return (
                .invalidateSource0,
                "CFRunLoopSourceInvalidate(\(name)): in this loop the source leaves \(left) and its signal is "
                    + "cleared, so it never runs again; its cancel callout, if it has one, runs once per mode it left "
                    + "(the cancel steps that follow)."
            )
        }
    }
}
