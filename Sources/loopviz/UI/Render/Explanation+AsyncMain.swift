import LoopEngine

/// The Why pane's words for an async main's hand-over and end (docs/concurrency.md, "The async main"): the rule
/// behind each note, and what the other platform's runtime does instead.
extension Explanation {
    /// The words for `note`, or nil when it is not an async main's.
    static func asyncMain(_ note: LoopEvent.Note) -> (case: Case, text: String)? {
        switch note {
        case .asyncMainLeavesMainThread(let task):
            return (
                .asyncMainLeaves,
                "\(task) is an async main: its first part ran on the main thread like any main (SE-0323); at its "
                    + "first await the runtime calls dispatch_main(), so the main thread leaves for good. From now "
                    + "on libdispatch runs the main queue's jobs on a worker, first in first out, and no run loop "
                    + "runs on the main thread: its timers, observers and blocks wait forever. On Darwin the runtime "
                    + "runs CFRunLoopRun() here instead (profile darwin)."
            )
        case .asyncMainRunsMainLoop(let task):
            return (
                .asyncMainRunsLoop,
                "\(task) is an async main: at its first await Darwin's runtime runs CFRunLoopRun() on the main "
                    + "thread (read in its source, not verified here): the default mode runs, draining the main queue, "
                    + "and when the loop is stopped the process exits. On Linux dispatch_main() runs no loop at all."
            )
        case .asyncMainExits(let task, .returned):
            return (
                .asyncMainExit,
                "\(task) returned: the async main's entry calls exit(0), so the process ends here, every thread with "
                    + "it, and jobs still queued never run."
            )
        case .asyncMainExits(let task, .loopReturned):
            return (
                .asyncMainExitOnStop,
                "CFRunLoopRun() returned because the main loop was stopped: the async main's entry calls exit(0) "
                    + "at once, so the rest of \(task) never runs (swiftlang/swift#91716)."
            )
        default:
            return nil
        }
    }
}
