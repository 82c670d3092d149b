import LoopEngine

/// `loopviz check FILE...`: runs each scenario and verifies its `expect` sections.
enum CheckCommand {
    static let help = """
        OVERVIEW: Run scenarios and check what their `expect` sections promise.

        USAGE: loopviz check FILE... [--iteration-cost TIME]

        Prints one line per file (PASS, FAIL or ERROR), and for a failure the expectation that broke with the
        lines around it (- expected, + what happened).

        A callout that re-enters the loop more than 256 runs deep stops that file's run: ERROR, and a message
        naming the callout.

        OPTIONS:
        \(IterationCostOption.help)
          -h, --help              Show this help.

        EXIT STATUS: 0 every expectation holds; 1 an expectation failed; 2 invalid input or usage, or a run
        reached the nesting limit.
        """

    static func run(_ arguments: [String]) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, valued: [IterationCostOption.name], switches: ["-h", "--help"])
        } catch {
            return CommandLine.usageError(error.description, command: "check")
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(help)
            return .success
        }
        guard !scanner.positional.isEmpty else { return CommandLine.usageError("missing FILE", command: "check") }
        let iterationCost: Duration?
        do {
            iterationCost = try IterationCostOption.value(in: scanner)
        } catch {
            return CommandLine.usageError(error.description, command: "check")
        }
        var invalid = false
        var failed = false
        for path in scanner.positional {
            guard let script = ScriptLoader.loadReporting(path, iterationCost: iterationCost) else {
                invalid = true
                continue
            }
            if script.expectations.isEmpty {
                print("ERROR \(path): no `expect` section to check")
                invalid = true
                continue
            }
            let outcome = ScenarioRunner.run(script.scenario, horizon: script.until ?? ScenarioLimits.defaultHorizon)
            if LimitReport.reportInCheck(outcome, path: path) {
                invalid = true
                continue
            }
            let reports = script.expectations.compactMap { $0.check(outcome.events) }
            if reports.isEmpty {
                let count = script.expectations.count
                print("PASS \(path) (\(count) expectation\(count == 1 ? "" : "s"), \(outcome.events.count) events)")
            } else {
                failed = true
                print("FAIL \(path)")
                for report in reports { print(report.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")) }
            }
        }
        return invalid ? .usage : (failed ? .failure : .success)
    }
}
