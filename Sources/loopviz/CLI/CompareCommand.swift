import LoopEngine
import LoopOracle

/// `loopviz compare FILE...`: runs each scenario on LoopEngine and on the real CFRunLoop and compares.
enum CompareCommand {
    static let help = """
        OVERVIEW: Run scenarios on LoopEngine and on the real CFRunLoop, and compare the traces.

        USAGE: loopviz compare FILE... [--tolerance TIME] [--quiet]

        Each scenario runs on LoopEngine's virtual clock and on this machine's CFRunLoop (a fresh thread, real
        time). What a program can observe is compared: the six activities, every callout, and each run's start
        and result. Sequences must agree; times must agree within the tolerance. The two traces are shown side
        by side with the first difference marked `>>` (and late steps `~`). Scenarios the real CFRunLoop cannot
        express here (the darwin profile, the main thread, several threads) are skipped with the reason.

        OPTIONS:
          --tolerance TIME        How far apart times may be (default 25ms; real threads are late by
                                  scheduling noise).
          --quiet                 Show the side-by-side traces only for scenarios that differ.
          -h, --help              Show this help.

        EXIT STATUS: 0 every compared scenario agrees; 1 one differs; 2 invalid input or usage.
        """

    static func run(_ arguments: [String]) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(
                arguments, valued: ["--tolerance"], switches: ["-h", "--help", "--quiet"])
        } catch {
            return CommandLine.usageError(error.description, command: "compare")
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(help)
            return .success
        }
        guard !scanner.positional.isEmpty else { return CommandLine.usageError("missing FILE", command: "compare") }
        var tolerance = Duration.milliseconds(25)
        if let text = scanner.value("--tolerance") {
            guard let value = ScriptLoader.duration(text) else {
                return CommandLine.usageError("'\(text)' is not a time; use e.g. 40ms", command: "compare")
            }
            tolerance = value
        }
        var invalid = false
        var differs = false
        for path in scanner.positional {
            guard let script = ScriptLoader.loadReporting(path) else {
                invalid = true
                continue
            }
            if let reason = CFOracle.unsupportedReason(script.scenario) {
                print("SKIP \(path): not comparable with the real CFRunLoop here: \(reason)")
                continue
            }
            let horizon = script.until ?? ScenarioLimits.defaultHorizon
            let engine = ScenarioRunner.run(script.scenario, horizon: horizon).events
            let reference: [LoopEvent]
            do {
                reference = try CFOracle.run(script.scenario, timeLimit: horizon + .seconds(5))
            } catch {
                print("ERROR \(path): \(error)")
                invalid = true
                continue
            }
            let comparison = TraceComparison(
                engine: engine, reference: reference, tolerance: tolerance,
                ignoringRunBoundaries: usesWrappers(script.scenario))
            if comparison.agrees {
                print("AGREE \(path) (\(comparison.engine.count) steps)")
            } else {
                differs = true
                if let index = comparison.firstDifference {
                    print("DIFFER \(path): first difference at step \(index)")
                } else {
                    print("DIFFER \(path): \(comparison.lateSteps.count) steps differ by more than \(tolerance)")
                }
            }
            if !comparison.agrees || !scanner.has("--quiet") {
                print(comparison.sideBySide())
            }
        }
        return invalid ? .usage : (differs ? .failure : .success)
    }

    /// CFRunLoopRun and Foundation's run methods hide their inner runs from the oracle.
    static func usesWrappers(_ scenario: Scenario) -> Bool {
        func check(_ actions: [Action]) -> Bool {
            actions.contains { action in
                switch action {
                case .run(.inMode): false
                case .run: true
                case .performBlock(_, _, let inner), .mainQueue(_, let inner), .performOn(_, _, _, let inner):
                    check(inner)
                default: false
                }
            }
        }
        return scenario.threads.contains { thread in
            check(thread.program) || thread.items.contains { check($0.script.map(\.action)) }
        }
    }
}
