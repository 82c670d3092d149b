import LoopEngine

#if canImport(Glibc)
import Glibc
#endif

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
        if case .descriptorLimit(let limit) = reason { return descriptorSummary(limit) }
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
        case .descriptorLimit(let limit):
            return "too many open files at \(TerminalSafeText.terminalSafe(limit.port))"
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

    /// `main.Other.timer could not be created (timerfd_create): too many open files (the process limit is 64)`.
    private static func descriptorSummary(_ limit: DescriptorLimit) -> String {
        let whose = limit.osError == ENFILE ? " in the system" : ""
        let processLimit = limit.processLimit.map { " (the process limit is \($0))" } ?? ""
        return "\(TerminalSafeText.terminalSafe(limit.port)) could not be created (\(limit.call)): too many open "
            + "files\(whose)\(processLimit)"
    }

    /// One note per wait the run left stuck (``StuckWait``), for standard error: `loopviz: note: f.loop: thread A
    /// never returns from `wait for q` (waitUntilAllOperationsAreFinished): nothing left can finish queue q's
    /// operations; the run ended there`. (What Apple's Foundation does with a wait for a perform whose target
    /// thread has gone cannot be checked here, so no note says the real program would hang.)
    static func stuckNotes(_ waits: [StuckWait], path: String) -> [String] {
        let file = TerminalSafeText.terminalSafe(path)
        return waits.map { "loopviz: note: \(file): \(stuckSummary($0)); the run ended there" }
    }

    /// The note when the virtual clock's default horizon, not the scenario, ended a run: the scenario was still
    /// going (a timer due, a thread not at its end) when time would have passed 60 s. Nil when the scenario ended
    /// by itself, or when the file or `--until` chose the horizon (stopping there is what was asked).
    static func horizonNote(_ reason: VirtualWorld.HaltReason?, path: String, chosen: Bool) -> String? {
        guard reason == .horizon, !chosen else { return nil }
        let seconds = ScenarioLimits.defaultHorizon.components.seconds
        return "loopviz: note: \(TerminalSafeText.terminalSafe(path)): the scenario was still running when the "
            + "virtual clock reached \(seconds) s, the default horizon; the run ended there (`until DURATION` in "
            + "the file or --until DURATION runs longer)"
    }

    /// What one stuck wait is, in a sentence (names terminal-safe).
    static func stuckSummary(_ stuck: StuckWait) -> String {
        let thread = TerminalSafeText.terminalSafe(stuck.thread)
        switch stuck.wait {
        case .allOperations(let queue):
            let queue = TerminalSafeText.terminalSafe(queue)
            return "thread \(thread) never returns from `wait for \(queue)` (waitUntilAllOperationsAreFinished): "
                + "nothing left can finish queue \(queue)'s operations"
        case .performed(let task, let target):
            let (task, target) = (TerminalSafeText.terminalSafe(task), TerminalSafeText.terminalSafe(target))
            return "thread \(thread) never returns from `perform \(task) on \(target) wait` (waitUntilDone:YES): "
                + "the loop of \(target) never runs \(task)"
        }
    }

    /// The status line's short form: `A waits forever in wait for q`.
    static func stuckShortSummary(_ waits: [StuckWait]) -> String? {
        guard let first = waits.first else { return nil }
        let thread = TerminalSafeText.terminalSafe(first.thread)
        let what =
            switch first.wait {
            case .allOperations(let queue): "wait for \(TerminalSafeText.terminalSafe(queue))"
            case .performed(let task, let target):
                "perform \(TerminalSafeText.terminalSafe(task)) on \(TerminalSafeText.terminalSafe(target)) wait"
            }
        let more = waits.count > 1 ? " (and \(waits.count - 1) more)" : ""
        return "\(thread) waits forever in \(what)\(more)"
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
        let limit =
            switch outcome.haltReason {
            case .threadLimit: "thread limit"
            case .descriptorLimit: "limit on open files"
            default: "nesting limit"
            }
        print("ERROR \(TerminalSafeText.terminalSafe(path)): the run reached the \(limit)")
        return true
    }
}
