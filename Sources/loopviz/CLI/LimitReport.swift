import LoopEngine

/// What the headless commands say when the engine stopped a run at one of its limits: the typed fact in, one line
/// of text out.
enum LimitReport {
    /// The one-line message for a run of `path` that ended for `reason`, or nil when no limit stopped it.
    static func message(_ reason: VirtualWorld.HaltReason?, path: String) -> String? {
        guard let summary = summary(reason) else { return nil }
        return "loopviz: error: \(TerminalSafeText.terminalSafe(path)): \(summary); the run was stopped there"
    }

    /// What stopped the run, for the commands and the UI's status line (`source0 s re-entered the run loop of
    /// thread T 256 runs deep, the nesting limit (256)`); nil when no limit did. Names are made terminal-safe.
    static func summary(_ reason: VirtualWorld.HaltReason?) -> String? {
        if case .threadLimit(let limit) = reason { return threadSummary(limit) }
        guard case .nestingLimit(let limit) = reason else { return nil }
        let thread = TerminalSafeText.terminalSafe(limit.thread)
        let who = limit.callout.map { "\($0.kind.rawValue) \(TerminalSafeText.terminalSafe($0.name))" } ?? "a callout"
        return "\(who) re-entered the run loop of thread \(thread) \(limit.depth) runs deep, the nesting limit "
            + "(\(RunLoopCore.maximumNestingDepth))"
    }

    /// ``summary(_:)`` short enough for an 80-column status line: `nesting limit 256 by source0 s on T`,
    /// `thread limit 512 by q.513`, `the OS refused thread q.40`; nil when no limit stopped the run.
    static func shortSummary(_ reason: VirtualWorld.HaltReason?) -> String? {
        switch reason {
        case .nestingLimit(let limit):
            let who = limit.callout.map { "\($0.kind.rawValue) \(TerminalSafeText.terminalSafe($0.name)) on " } ?? ""
            return "nesting limit \(RunLoopCore.maximumNestingDepth) by \(who)"
                + TerminalSafeText.terminalSafe(limit.thread)
        case .threadLimit(let limit):
            let thread = TerminalSafeText.terminalSafe(limit.thread)
            return limit.osError == nil
                ? "thread limit \(ThreadLimit.maximumThreads) by \(thread)" : "the OS refused thread \(thread)"
        default:
            return nil
        }
    }

    /// `thread q.513 could not be created: the scenario had 512 threads at once, the thread limit (512)`, or the
    /// OS's refusal below it.
    private static func threadSummary(_ limit: ThreadLimit) -> String {
        let thread = TerminalSafeText.terminalSafe(limit.thread)
        let why =
            if let code = limit.osError {
                "the OS refused it (pthread_create error \(code)) with \(limit.running) running"
            } else {
                "the scenario had \(limit.running) threads at once, the thread limit (\(ThreadLimit.maximumThreads))"
            }
        return "thread \(thread) could not be created: \(why)"
    }

    /// Prints the message for `outcome` of `path` to standard error, if a limit stopped it; true when it did (the
    /// command then exits with status 2).
    static func report(_ outcome: ScenarioRunner.Outcome, path: String) -> Bool {
        guard let message = message(outcome.haltReason, path: path) else { return false }
        CommandLine.printError(message)
        return true
    }

    /// ``report(_:path:)`` for `check`, which also prints the file's `ERROR` line on standard output.
    static func reportInCheck(_ outcome: ScenarioRunner.Outcome, path: String) -> Bool {
        guard report(outcome, path: path) else { return false }
        let limit = if case .threadLimit = outcome.haltReason { "thread limit" } else { "nesting limit" }
        print("ERROR \(TerminalSafeText.terminalSafe(path)): the run reached the \(limit)")
        return true
    }
}
