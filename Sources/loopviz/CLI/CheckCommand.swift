import LoopEngine

/// `loopviz check FILE...`: runs each scenario and verifies its `expect` sections.
enum CheckCommand {
    static let help = """
        OVERVIEW: Run scenarios and check what their `expect` sections promise.

        USAGE: loopviz check FILE...

        Prints one line per file (PASS, FAIL or ERROR), and for a failure the expectation that broke with the
        lines around it (- expected, + what happened).

        EXIT STATUS: 0 every expectation holds; 1 an expectation failed; 2 invalid input or usage.
        """

    static func run(_ arguments: [String]) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(arguments, valued: [], switches: ["-h", "--help"])
        } catch {
            return CommandLine.usageError(error.description, command: "check")
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(help)
            return .success
        }
        guard !scanner.positional.isEmpty else { return CommandLine.usageError("missing FILE", command: "check") }
        var invalid = false
        var failed = false
        for path in scanner.positional {
            let shown = TerminalSafeText.terminalSafe(path)
            guard let script = ScriptLoader.loadReporting(path) else {
                invalid = true
                continue
            }
            if script.expectations.isEmpty {
                print("ERROR \(shown): no `expect` section to check")
                invalid = true
                continue
            }
            let outcome = ScenarioRunner.run(script.scenario, horizon: script.until ?? ScenarioLimits.defaultHorizon)
            let reports = script.expectations.compactMap { $0.check(outcome.events) }
            if reports.isEmpty {
                let count = script.expectations.count
                print("PASS \(shown) (\(count) expectation\(count == 1 ? "" : "s"), \(outcome.events.count) events)")
            } else {
                failed = true
                print("FAIL \(shown)")
                for report in reports { print(report.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")) }
            }
        }
        return invalid ? .usage : (failed ? .failure : .success)
    }
}
