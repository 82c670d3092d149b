/// Every word the `.loop` language gives a meaning to, in one place. The parser dispatches on these lists and
/// its cursor accepts no other word, so a word added to the language is added here; `LanguageDocTests` then
/// checks that docs/language.md explains it.
package enum ScenarioKeywords {
    /// What may start a line at the top level of a file (`iteration` is `iteration cost`).
    package static let topLevel = [
        "scenario", "profile", "until", "iteration", "owner", "thread", "queue", "at", "say", "ask", "expect",
    ]

    /// What may start a line indented under a thread before its program: the items, and `common MODE`.
    package static let items = ["source0", "port", "timer", "observer"]

    /// The clauses each kind of item takes, in the order the language documents them.
    package static let itemClauses: [String: [String]] = [
        "source0": ["order", "commands", "in"], "port": ["in"],
        "timer": ["at", "every", "tolerance", "order", "in", "interval", "foundation"],
        "observer": ["on", "order", "once", "in"],
    ]

    /// The clauses of a `queue` line.
    package static let queueClauses = ["limit", "suspended", "idle", "dispatch"]

    /// The clauses of an `operation` action (`check every` follows `work`, `reply after` follows `async`).
    package static let operationClauses = ["priority", "after", "work", "async"]

    /// What may come before `:` in a callout's script line.
    package static let conditions = ["call", "first", "on"]

    /// The actions of the thread pool (anywhere actions go).
    package static let poolActions = [
        "operation", "async", "cancel", "suspend", "resume", "limit", "finish", "wait", "detach",
    ]

    /// The ways to run a loop (program lines only).
    package static let runs = ["run", "CFRunLoopRun", "RunLoop.run", "RunLoop.acceptInput", "while"]

    /// Every action a program, a callout or an `at` block may hold.
    package static let actions =
        [
            "work", "signal", "send", "wakeup", "wake", "stop", "add", "remove", "invalidate", "reschedule", "block",
            "mainqueue", "common", "set", "clear", "if", "dealloc", "perform", "start", "say", "note", "query",
            "cancelPerform", "cancelPerforms", "cancelPrevious",
            "post", "fire", "mainactor", "await", "asyncafter",
        ] + poolActions + runs

    /// The actions that take an indented block of actions of their own.
    package static let takingBlocks = [
        "block", "mainqueue", "perform", "detach", "if", "dealloc", "mainactor", "asyncafter",
    ]

    /// The questions of a `query` action (and of a `query` in an `expect` line): `query limitDate default`.
    package static let queries = LoopQuery.questionWords

    /// The words of `expect` lines beyond the events' own: a query's answer (`is`), time ranges, counts.
    package static let expectations = ["is", "between", "and", "never", "most", "least", "once"]

    /// The words that may follow inside a line (`run M for 200ms`, `send P 3 times`, `expect in order`, …).
    package static let inLine = [
        "cost", "main", "nothing", "common", "default", "for", "forever", "returnAfterSourceHandled", "before",
        "distantFuture", "not", "times", "time", "up", "mode", "to", "from", "in", "on", "wait", "all", "reply",
        "after", "check", "every", "at", "step", "exactly", "order", "calls", "call", "until", "distantPast", "now",
        "inf", "nan", "weak", "and", "later", "target", "afterDelay", "schedule", "serial", "concurrent", "workItem",
        "yield", "sleep", "init", "scheduled",
    ]

    /// The lines indented under a `say`: `claims` and how far it reaches (`claims next result handledSource`).
    package static let sayClaims = ["claims"] + NarrationClaim.Reach.allCases.map(\.rawValue)

    /// The language tags a `say` line may take before its text (`say zh "…"`); a line without one is English.
    package static let languages = Language.allCases.map(\.rawValue)

    /// Every word above: the only words ``TokenCursor/accept(_:)`` may be asked for.
    package static let all: Set<String> = Set(
        topLevel + items + itemClauses.values.joined() + queueClauses + operationClauses + conditions + actions
            + inLine + languages + queries + expectations + sayClaims)
}
