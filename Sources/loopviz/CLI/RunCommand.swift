import LoopEngine

/// `loopviz run FILE`: runs a scenario headless and prints its trace.
enum RunCommand {
    static let help = """
        OVERVIEW: Run a scenario headless and print its trace.

        USAGE: loopviz run FILE [--trace text|jsonl|chrome|mermaid] [--clock virtual|real] [--until TIME] [-o PATH]
                               [--iteration-cost TIME]

        ARGUMENTS:
          FILE                    A .loop scenario file.

        OPTIONS:
          --trace FORMAT          text (aligned columns, the default), jsonl (one JSON object per event, for
                                  tools), chrome (Chrome Trace Event JSON: open it in Perfetto) or mermaid
                                  (a sequenceDiagram for slides).
          --clock CLOCK           virtual (deterministic, the default) or real (real threads on the real clock,
                                  asleep in the kernel when idle; times vary from run to run; Linux only).
          --until TIME            Stop at TIME (e.g. 2s, 500ms); default: the file's `until`, or when every
                                  program has ended, or (virtual) when every loop sleeps for good, or (real)
                                  after 10s.
          -o PATH                 Write the trace to PATH instead of standard output.
        \(IterationCostOption.help)
          -h, --help              Show this help.

        A callout that re-enters the loop more than 256 runs deep stops the run: the trace so far is printed, and
        a message names the callout (exit status 2).

        EXIT STATUS: 0 the scenario ran; 2 invalid input or usage, or the run reached the nesting limit.
        """

    enum Clock: String, CaseIterable {
        case virtual, real
    }

    static func run(_ arguments: [String]) -> ExitStatus {
        let scanner: ArgumentScanner
        do {
            scanner = try ArgumentScanner(
                arguments, valued: ["--trace", "--clock", "--until", "-o", IterationCostOption.name],
                switches: ["-h", "--help"])
        } catch {
            return CommandLine.usageError(error.description, command: "run")
        }
        if scanner.has("-h") || scanner.has("--help") {
            print(help)
            return .success
        }
        guard scanner.positional.count == 1, let path = scanner.positional.first else {
            let problem = scanner.positional.isEmpty ? "missing FILE" : "run takes one FILE"
            return CommandLine.usageError(problem, command: "run")
        }
        let format: TraceFormat
        let clock: Clock
        let iterationCost: Duration?
        do {
            format = try scanner.choice("--trace", default: .text)
            clock = try scanner.choice("--clock", default: .virtual)
            iterationCost = try IterationCostOption.value(in: scanner)
        } catch {
            return CommandLine.usageError(error.description, command: "run")
        }
        var until: Duration?
        if let text = scanner.value("--until") {
            guard let value = ScriptLoader.duration(text) else {
                return CommandLine.usageError("'\(text)' is not a time; use e.g. 2s or 500ms", command: "run")
            }
            until = value
        }
        let script: LoopScript
        switch ScriptLoader.load(path, iterationCost: iterationCost) {
        case .success(let loaded): script = loaded
        case .failure(let failure):
            CommandLine.printError(ScriptLoader.describe(failure))
            return .usage
        }
        let outcome: ScenarioRunner.Outcome
        switch clock {
        case .virtual:
            outcome = ScenarioRunner.run(
                script.scenario, horizon: until ?? script.until ?? ScenarioLimits.defaultHorizon)
        case .real:
            #if os(Linux)
            if let reason = RealScenarioRunner.unsupportedReason(script.scenario) {
                CommandLine.printError("loopviz: error: \(path) cannot run on real threads: \(reason)")
                return .usage
            }
            let limit = until ?? script.until ?? ScenarioLimits.defaultRealTimeLimit
            outcome = RealScenarioRunner.run(script.scenario, timeLimit: limit)
            #else
            CommandLine.printError("loopviz: error: --clock real needs Linux (eventfd, timerfd and epoll)")
            return .usage
            #endif
        }
        let text = format.render(
            outcome.events, scenario: script.scenario.name, clock: clock == .real ? .real : .virtual)
        if let problem = OutputFile(path: scanner.value("-o")).write(text) {
            CommandLine.printError(problem)
            return .failure
        }
        return LimitReport.report(outcome, path: path) ? .usage : .success
    }
}

/// Limits shared by the headless commands.
enum ScenarioLimits {
    /// How far the virtual clock goes when neither the command line nor the file says.
    static let defaultHorizon: Duration = .seconds(60)
    /// How long a real run may take when neither the command line nor the file says. A real world cannot tell
    /// that every loop sleeps for good, so a scenario that would idle on the virtual clock runs until this.
    static let defaultRealTimeLimit: Duration = .seconds(10)
}
