import LoopEngine

/// `loopviz check FILE...`: runs each scenario and verifies its `expect` sections.
enum CheckCommand {
    static let command = LoopvizCommand(
        name: "check", synopsis: "check FILE...", summary: "Run scenarios and verify their `expect` sections.",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption("--strict", help: "Treat the lint's warnings as errors (exit 2)."),
        EventBudget.declaration(
            help: EventBudget.checkingHelp([
                "that file FAILs, its expectations not checked; standard error", "says so; exit 3.",
            ])),
        IterationCostOption.declaration,
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Run scenarios and check what their `expect` sections promise.

            USAGE: loopviz check FILE... [--strict] [--max-events N] [--iteration-cost TIME]

            Prints one line per file (PASS, FAIL or ERROR), and for a failure the expectation that broke with the
            lines around it (- expected, + what happened), or the `say` line whose claim (`claims next …`) does not
            hold where the line is shown. A PASS line counts what was checked: `9 expect lines in 2 sections` (each
            line under an `expect`: a claim, or a step of an `exactly` or `in order` list), the claims of say lines,
            and the events of the run.

            The lint's warnings (a mode run with nothing in it, items in a mode no run enters) go to standard error
            before the file's line; with --strict a file with a warning is an ERROR.
            """,
        afterOptions: """
            A run stopped by the event budget is a FAIL of its file (its expectations are not checked). A callout
            that re-enters the loop more than 256 runs deep stops that file's run: ERROR, and a message naming the
            callout. A scenario still running when the virtual clock reaches the 60 s default horizon (the file
            says no `until`) is checked as it ran, with a note on standard error.

            EXIT STATUS (when several apply: 2, then 3, then 1):
              0    every expectation holds
              1    an expectation failed
              2    invalid input or usage (with --strict, a lint warning), or a run reached the nesting limit
            \(ExitStatus.checkingHelpText("that file FAILed"))
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let budget = try EventBudget.limit(scanner)
        guard !scanner.positional.isEmpty else { throw .missingArgument("FILE") }
        let iterationCost = try IterationCostOption.value(in: scanner)
        var invalid = false
        var failed = false
        var overBudget = false
        // A closed pipe or a failed standard output ends the checks (reported at exit).
        for path in scanner.positional where StandardOutput.writer.isWorking {
            let shown = TerminalSafeText.terminalSafe(path)
            guard let script = ScriptLoader.loadReporting(path, iterationCost: iterationCost) else {
                invalid = true
                continue
            }
            if !script.warnings.isEmpty {
                CommandLine.printError(script.warnings.map(\.description).joined(separator: "\n"))
                if scanner.has("--strict") {
                    print("ERROR \(shown): \(Self.warningCount(script.warnings.count)) (--strict)")
                    invalid = true
                    continue
                }
            }
            if script.expectations.isEmpty && script.sayClaims.isEmpty {
                print("ERROR \(shown): no `expect` section to check")
                invalid = true
                continue
            }
            let outcome = ScenarioRunner.run(
                script.scenario, horizon: script.until ?? ScenarioLimits.defaultHorizon, maxEvents: budget)
            if LimitReport.reportInCheck(outcome, path: path) {
                invalid = true
                continue
            }
            if outcome.reachedEventLimit {
                overBudget = true
                print(
                    EventBudget.resultLine(
                        shown, limit: budget, verdict: "FAIL", unchecked: "expectations not checked",
                        reason: outcome.haltReason))
                CommandLine.printError(
                    EventBudget.message(path, limit: budget, traceKept: false, reason: outcome.haltReason))
                continue
            }
            // The note goes with the verdict: a scenario the 60 s default stopped may not have done what it promised.
            if let note = LimitReport.horizonNote(outcome.haltReason, path: path, chosen: script.until != nil) {
                CommandLine.printError(note)
            }
            let everySchedule = Self.checkEverySchedule(script, path: path, budget: budget)
            let reports =
                script.expectations.compactMap { $0.check(outcome.trace) } + script.sayClaimFailures(in: outcome.trace)
                + everySchedule.reports
            if reports.isEmpty {
                print(
                    "PASS \(shown) (\(Self.promises(script)), \(outcome.trace.count) events\(everySchedule.summary))")
            } else {
                failed = true
                print("FAIL \(shown)")
                for report in reports { print(report.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")) }
            }
        }
        return invalid ? .usage : overBudget ? .budget : failed ? .failure : .success
    }

    /// `1 warning`, `3 warnings`.
    static func warningCount(_ count: Int) -> String {
        "\(count) warning\(count == 1 ? "" : "s")"
    }

    /// What a file promised, for its PASS line: `5 expect lines in 2 sections` (every line an `expect` section
    /// lists: a claim, or a step of an `exactly` or `in order` list), and `12 claims of say lines` when it has any.
    static func promises(_ script: LoopScript) -> String {
        let sections = script.expectations.count
        let lines = script.expectations.reduce(0) { $0 + $1.steps.count }
        var parts: [String] = []
        if sections > 0 {
            parts.append("\(LoopEvent.count(lines, "expect line")) in \(LoopEvent.count(sections, "section"))")
        }
        let claims = script.sayClaimCount
        if claims > 0 { parts.append("\(LoopEvent.count(claims, "claim")) of say lines") }
        return parts.joined(separator: ", ")
    }
}
