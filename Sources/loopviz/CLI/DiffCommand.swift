import LoopEngine

/// `loopviz diff A B`: two runs side by side, step by step, the first difference marked: two files, or one file
/// under two schedules (docs/races.md).
enum DiffCommand {
    static let command = LoopvizCommand(
        name: "diff", synopsis: "diff A B",
        summary: "Two runs side by side (two files, or one FILE under two schedules), first difference marked.",
        options: options, help: help, run: run)

    static let withOption = "--with"

    static let options: [CommandOption] = [
        ScheduleOption.declaration,
        CommandOption(
            withOption, .text(placeholder: "ID"),
            help: """
                The second run's schedule (default: the default schedule): with one FILE,
                diff shows FILE under --schedule beside FILE under --with.
                """),
        CommandOption(
            "--until", .text(placeholder: "TIME"),
            help: "Each run stops at TIME (default: its file's `until`, or 60s)."),
        EventBudget.declaration(help: EventBudget.checkingHelp(["the diff shows what was recorded (exit 3)."])),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Show two runs side by side, synchronised by step, the first difference marked with >>.

            USAGE: loopviz diff A B [--schedule ID] [--with ID] [--until TIME] [--max-events N]
                   loopviz diff FILE --schedule ID [--with ID] [--until TIME] [--max-events N]

            ARGUMENTS:
              A B                     Two .loop scenario files, or one FILE run under two schedules.
            """,
        afterOptions: """
            Every event of both runs is shown, threads interleaved as they happened (`#` is the step, each side's
            time, thread and step). Two steps are the same when their thread, depth, kind and name agree, and what
            a program reads of them (a run's Bool, a query's answer, a `say`); times may differ.

            EXIT STATUS:
              0    the two runs take the same steps
              1    they differ (the first difference is marked)
              2    invalid input or usage
            \(ExitStatus.helpText(budget: "the event budget (--max-events) stopped a run"))
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let budget = try EventBudget.limit(scanner)
        let leftSchedule = try ScheduleOption.value(in: scanner) ?? .default
        let rightSchedule = try ScheduleOption.value(in: scanner, option: withOption) ?? .default
        let paths = scanner.positional
        guard !paths.isEmpty else { throw .missingArgument("A B") }
        guard paths.count <= 2,
            paths.count == 2 || scanner.value(ScheduleOption.name) != nil
                || scanner.value(withOption) != nil
        else { throw paths.count > 2 ? .unexpectedArgument(paths[2]) : .diffNeedsTwoRuns }
        var until: Duration?
        if let text = scanner.value("--until") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "2s or 500ms") }
            until = value
        }
        let leftPath = paths[0]
        let rightPath = paths.count == 2 ? paths[1] : paths[0]
        guard let leftScript = ScriptLoader.loadReporting(leftPath),
            let rightScript = paths.count == 2 ? ScriptLoader.loadReporting(rightPath) : leftScript
        else { return .usage }
        var runs: [ScenarioRunner.Outcome] = []
        for (script, schedule, path) in [(leftScript, leftSchedule, leftPath), (rightScript, rightSchedule, rightPath)]
        {
            var scenario = script.scenario
            scenario.schedule = schedule
            let outcome = ScenarioRunner.run(
                scenario, horizon: until ?? script.until ?? ScenarioLimits.defaultHorizon, maxEvents: budget)
            if let unfitted = outcome.unfittedBranchPoint {
                throw .scheduleDoesNotFit(
                    schedule.id, path: path, branchPoint: unfitted.index, options: unfitted.options.count)
            }
            runs.append(outcome)
        }
        let diff = TraceDiff(left: runs[0].events, right: runs[1].events)
        let title = { (path: String, schedule: Schedule) in
            "\(path) (schedule \(schedule.id))"
        }
        print(diff.sideBySide(leftTitle: title(leftPath, leftSchedule), rightTitle: title(rightPath, rightSchedule)))
        if runs.contains(where: \.reachedEventLimit) {
            CommandLine.printError(EventBudget.message(leftPath, limit: budget))
            return .budget
        }
        return diff.agrees ? .success : .failure
    }
}
