import LoopEngine

/// `loopviz run FILE`: runs a scenario headless and prints its trace.
enum RunCommand {
    static let command = LoopvizCommand(
        name: "run", synopsis: "run FILE",
        summary: "Run a scenario headless and print its trace (text, jsonl, chrome, mermaid, firefox).",
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--trace", .text(placeholder: "FORMAT"),
            help: """
                text (aligned columns, the default), jsonl (one JSON object per event, for
                tools), chrome (Chrome Trace Event JSON: open it in Perfetto), mermaid (a
                sequenceDiagram for slides) or firefox (a Firefox Profiler profile: markers
                for callouts, sleeps, phases and hangs; no stack samples yet).
                """),
        CommandOption(
            "--clock", .text(placeholder: "CLOCK"),
            help: """
                virtual (deterministic, the default) or real (real threads on the real clock,
                asleep in the kernel when idle; times vary from run to run; text shows
                them to the millisecond, the other formats to the nanosecond; Linux only).
                """),
        CommandOption(
            "--until", .text(placeholder: "TIME"),
            help: """
                Stop at TIME (e.g. 2s, 500ms); default: the file's `until`, or when every
                program has ended, or (virtual) when every loop sleeps for good, or (real)
                after 10s.
                """),
        EventBudget.declaration(help: EventBudget.runHelp),
        IterationCostOption.declaration,
        ScheduleOption.declaration,
        CommandOption(
            "-o", .text(placeholder: "PATH"),
            help: """
                Write the trace to PATH instead of standard output: atomically (PATH is
                replaced only once the whole trace is written), never over FILE.
                """),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Run a scenario headless and print its trace.

            USAGE: loopviz run FILE [--trace text|jsonl|chrome|mermaid|firefox] [--clock virtual|real]
                               [--until TIME] [--max-events N] [--iteration-cost TIME] [--schedule ID] [-o PATH]

            ARGUMENTS:
              FILE                    A .loop scenario file, or a .jsonl trace (from --trace jsonl or LoopRecorder)
                                      to convert to another format.
            """,
        afterOptions: """
            On the virtual clock, text and jsonl are written as the run goes (the text's columns take their widths
            from the first 1000 events); chrome, mermaid, firefox and --clock real are written when the run ends.

            A callout that re-enters the loop more than 256 runs deep stops the run: the trace so far is printed, and
            a message names the callout (exit status 2).

            EXIT STATUS:
              0    the scenario ran (or the trace was converted)
              2    invalid input or usage (a corrupt trace: its line and column); an -o PATH that is FILE; or the run
                   reached the nesting limit
            \(ExitStatus.helpText())
            """)

    enum Clock: String, CaseIterable {
        case virtual, real
    }

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let format: TraceFormat = try scanner.choice("--trace", default: .text)
        let clock: Clock = try scanner.choice("--clock", default: .virtual)
        let iterationCost = try IterationCostOption.value(in: scanner)
        let budget = try EventBudget.limit(scanner)
        guard scanner.positional.count == 1, let path = scanner.positional.first else {
            throw scanner.positional.isEmpty
                ? .missingArgument("FILE") : .takesOneArgument(command: "run", argument: "FILE")
        }
        if TraceLoader.isTrace(path) { return try convert(path, scanner: scanner, format: format, budget: budget) }
        var until: Duration?
        if let text = scanner.value("--until") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "2s or 500ms") }
            until = value
        }
        let schedule = try ScheduleOption.value(in: scanner)
        guard var script = ScriptLoader.loadOrReport(path, iterationCost: iterationCost) else { return .usage }
        if let schedule {
            guard clock == .virtual else { throw .goesWith(option: ScheduleOption.name, other: "--clock virtual") }
            script.scenario.schedule = schedule
        }
        let output: OutputFile
        switch OutputFile.open(scanner.value("-o"), inputs: [path]) {
        case .success(let opened): output = opened
        case .failure(let failure):
            CommandLine.printError(failure.message)
            return failure.status
        }
        let outcome: ScenarioRunner.Outcome
        switch clock {
        case .virtual:
            let horizon = until ?? script.until ?? ScenarioLimits.defaultHorizon
            if format.streams {
                outcome = TraceStreaming.run(
                    script.scenario, horizon: horizon, maxEvents: budget, format: format, to: output)
            } else {
                outcome = ScenarioRunner.run(script.scenario, horizon: horizon, maxEvents: budget)
            }
        case .real:
            #if os(Linux)
            if let reason = RealScenarioRunner.unsupportedReason(script.scenario) {
                output.abandon()
                throw .cannotRunOnRealThreads(path: path, reason: reason)
            }
            let limit = until ?? script.until ?? ScenarioLimits.defaultRealTimeLimit
            outcome = RealScenarioRunner.run(script.scenario, timeLimit: limit, maxEvents: budget)
            #else
            output.abandon()
            throw .realBackendLinuxOnly
            #endif
        }
        if clock == .real || !format.streams {
            // Text is for reading: real times to the millisecond, as the live UI shows them, so every time in a
            // line (the event's, its deadlines) has one precision. The formats for tools keep the nanoseconds.
            let trace =
                clock == .real && format == .text
                ? LoopTrace(outcome.trace.lazy.map { $0.rounded(to: Session.liveResolution) }) : outcome.trace
            format.write(
                trace, scenario: script.scenario.name, clock: clock == .real ? .real : .virtual,
                handOvers: outcome.handOvers, to: output.writer)
        }
        if let problem = output.commit() {
            CommandLine.printError(problem)
            return .writeError
        }
        // A closed pipe or a failed standard output ends the command at exit (`StandardOutput.finish`).
        guard output.writer.isWorking else { return .success }
        if let unfitted = outcome.unfittedBranchPoint, let schedule {
            return CommandLine.report(
                .scheduleDoesNotFit(
                    schedule.id, path: path, branchPoint: unfitted.index, options: unfitted.options.count))
        }
        if outcome.reachedEventLimit {
            CommandLine.printError(EventBudget.message(path, limit: budget, reason: outcome.haltReason))
            return .budget
        }
        for note in LimitReport.stuckNotes(outcome.stuckWaits, path: path) { CommandLine.printError(note) }
        if clock == .virtual,
            let note = LimitReport.horizonNote(
                outcome.haltReason, path: path, chosen: until != nil || script.until != nil)
        {
            CommandLine.printError(note)
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
