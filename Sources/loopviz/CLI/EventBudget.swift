import LoopEngine

/// The most events one run records, the same for every command (run, check, compare, screen and the UI): a
/// runaway scenario (a timer every microsecond, a source that signals itself) stops there instead of growing
/// without end. What was recorded up to the budget is kept and shown, and the command says so.
enum EventBudget {
    /// The default: a million events. Measured at this budget on a 1 ms repeating timer (peak RSS): a streaming
    /// `run` (text, jsonl) 23 MB whatever the budget; `check` and `screen`, which keep the events compact, 58 MB;
    /// `run --trace mermaid` 260 MB and `--trace chrome` 210 MB.
    static let defaultLimit = 1_000_000
    /// The most `--max-events` may allow: ten million events fit in 400 MB of `check` (about 36 bytes an event)
    /// and take about 11 s; beyond, a run's trace could outgrow the machine's memory before it ends.
    static let maximum = 10_000_000
    /// The option that sets it.
    static let option = "--max-events"

    /// `--max-events N`, with `help` (what becomes of a run stopped there differs by command).
    static func declaration(help: String) -> CommandOption {
        CommandOption(option, .number(placeholder: "N", bounds: 1...maximum), help: help)
    }

    /// The option's help for a command that prints what a run recorded (`run`'s words).
    static let runHelp = """
        Stop a run after N events (default 1000000, at most 10000000), keep and print
        what was recorded, say so on standard error and exit 3.
        """

    /// The option's help for a command that checks runs: `stopped` says what becomes of a run stopped there, in
    /// lines that fit the help's right margin.
    static func checkingHelp(_ stopped: [String]) -> String {
        (["Stop a run after N events (default 1000000, at most 10000000), and:"] + stopped).joined(separator: "\n")
    }

    /// The budget `--max-events` sets (the default without it), or a usage problem (not a number, below 1 or above
    /// ``maximum``).
    static func limit(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> Int {
        guard let text = scanner.value(option) else { return defaultLimit }
        guard let value = Int(text) else { throw .notANumberOfEvents(text) }
        guard value > 0 else { throw .tooFewEvents(text) }
        guard value <= maximum else { throw .tooManyEvents(text, maximum: maximum) }
        return value
    }

    /// The message on standard error when the budget stopped a run of `path`. `run` and `screen` keep the trace
    /// so far (`traceKept`); `check` and `compare` check nothing, and `side` names the run when it is not
    /// LoopEngine's (`compare` stops the real CFRunLoop's run at the same budget).
    /// `reason`: why the run halted; the work budget (``WorkLimit``), which `--max-events` sets too, is named as
    /// such.
    static func message(
        _ path: String, limit: Int, traceKept: Bool = true, side: String? = nil,
        reason: VirtualWorld.HaltReason? = nil
    ) -> String {
        let file = TerminalSafeText.terminalSafe(path)
        let who = side.map { "\($0) " } ?? ""
        let kept = traceKept ? "the trace so far is kept; " : ""
        return "loopviz: \(file): \(who)stopped at \(budget(limit, reason)) (\(kept)--max-events N allows more)"
    }

    /// `the event budget of 1000000 events`, or `the work budget of 4000000 item operations (4 an event: …)`.
    static func budget(_ limit: Int, _ reason: VirtualWorld.HaltReason?) -> String {
        guard case .workLimit(let work) = reason else { return "the event budget of \(limit) events" }
        return "the work budget of \(work.operations) item operations (\(WorkLimit.perEvent) an event: timers moved, "
            + "items added or removed, performs queued, once per mode)"
    }

    /// The line `check` and `compare` print on standard output for a file whose run the budget stopped.
    static func resultLine(
        _ shown: String, limit: Int, side: String? = nil, verdict: String, unchecked: String,
        reason: VirtualWorld.HaltReason? = nil
    )
        -> String
    {
        let who = side.map { "\($0) " } ?? ""
        return "\(verdict) \(shown): \(who)stopped at \(budget(limit, reason)); \(unchecked)"
    }
}
