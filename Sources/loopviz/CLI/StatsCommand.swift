import LoopEngine

/// `loopviz stats FILE`: the aggregate views of the UI (`H`) as text: per item, per activity, per iteration.
enum StatsCommand {
    static let command = LoopvizCommand(
        name: "stats", synopsis: "stats FILE",
        summary: "Print a run's totals: per item, per observer activity, iteration and sleep histograms.",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--until", .text(placeholder: "TIME"),
            help: "Run a scenario on the virtual clock until TIME (default: its own `until`, else 60s)."),
        EventBudget.declaration(
            help: """
                Count at most N events (default 1000000, at most 10000000); a trace longer
                than that is refused, a run is stopped there (exit 3, its totals printed).
                """),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Print a run's totals: the tables of the UI's aggregate views (H).

            USAGE: loopviz stats FILE [--until TIME] [--max-events N]

            ARGUMENTS:
              FILE                    A .loop scenario (run on the virtual clock), or a .jsonl trace (from
                                      `loopviz run --trace jsonl` or LoopRecorder), read in one pass.

            per item: each item's callouts on its thread: how many, their total and longest time (a callout
            lasts until its loop's next step at its depth or shallower, so a nested run inside it counts) and the
            modes they ran in. per activity: how often each observer activity was reached, and the mean and
            longest time between two reaches on one thread. per
            iteration: histograms of iteration lengths (an iteration's first event to its last) and of sleep
            lengths (sleep to wake).
            """,
        afterOptions: """
            EXIT STATUS:
              0    the totals were printed
              2    invalid input or usage (a corrupt trace: its line and column)
            \(ExitStatus.helpText(budget: "the event budget (--max-events) stopped a scenario's run; its totals are printed"))
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let budget = try EventBudget.limit(scanner)
        guard scanner.positional.count == 1, let path = scanner.positional.first else {
            throw scanner.positional.isEmpty
                ? .missingArgument("FILE") : .takesOneArgument(command: "stats", argument: "FILE")
        }
        var until: Duration?
        if let text = scanner.value("--until") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "2s or 500ms") }
            until = value
        }
        var builder = TraceStats.Builder()
        if TraceLoader.isTrace(path) {
            if until != nil { throw .doesNotApplyToTrace(option: "--until", path: path) }
            if case .failure(let status) = TraceLoader.stream(path, maxEvents: budget, each: { builder.add($0) }) {
                return status
            }
            print(builder.finish().text(file: path), terminator: "")
            return .success
        }
        guard let script = ScriptLoader.loadOrReport(path) else { return .usage }
        let horizon = until ?? script.until ?? ScenarioLimits.defaultHorizon
        let outcome = ScenarioRunner.run(script.scenario, horizon: horizon, maxEvents: budget)
        for event in outcome.trace { builder.add(event) }
        print(builder.finish().text(file: path), terminator: "")
        if outcome.reachedEventLimit {
            CommandLine.printError(EventBudget.message(path, limit: budget, reason: outcome.haltReason))
            return .budget
        }
        return .success
    }
}
