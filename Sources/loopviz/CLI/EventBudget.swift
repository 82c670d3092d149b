import LoopEngine

/// The most events one run records, the same for every command (run, check, compare, screen and the UI): a
/// runaway scenario (a timer every microsecond, a source that signals itself) stops there instead of growing
/// without end. What was recorded up to the budget is kept and shown, and the command says so.
enum EventBudget {
    /// The default: a million events. Measured at this budget on a 1 ms repeating timer (peak RSS): a streaming
    /// `run` (text, jsonl) 21 MB whatever the budget; `check` and `screen`, which keep the events, 130 MB;
    /// `run --trace mermaid` 370 MB and `--trace chrome` 610 MB, the largest.
    static let defaultLimit = 1_000_000
    /// The option that sets it.
    static let option = "--max-events"

    /// The help line for the option.
    static let helpText = """
          --max-events N          Stop a run after N events (default 1000000), keep and print what was recorded,
                                  say so on standard error and exit 3.
        """

    /// The budget `--max-events` sets (the default without it), or a usage error.
    static func limit(_ scanner: ArgumentScanner) throws(ArgumentScanner.UsageError) -> Int {
        guard let text = scanner.value(option) else { return defaultLimit }
        guard let value = Int(text), value > 0 else {
            throw ArgumentScanner.UsageError(
                description: "'\(TerminalSafeText.terminalSafe(text))' is not a number of events; use e.g. 5000000")
        }
        return value
    }

    /// The message on standard error when the budget stopped a run of `path`; `side` names the run when it is
    /// not LoopEngine's (`compare` stops the real CFRunLoop's run at the same budget, and compares nothing).
    static func message(_ path: String, limit: Int, side: String? = nil) -> String {
        let file = TerminalSafeText.terminalSafe(path)
        guard let side else {
            return "loopviz: \(file): stopped at the event budget of \(limit) events "
                + "(the trace so far is kept; --max-events N allows more)"
        }
        return "loopviz: \(file): \(side) stopped at the event budget of \(limit) events; not compared "
            + "(--max-events N allows more)"
    }
}
