import LoopEngine
import LoopFuzz

/// `loopviz explore FILE`: the scenario under every schedule the virtual world can choose, grouped by what a
/// program observes (docs/races.md).
enum ExploreCommand {
    static let command = LoopvizCommand(
        name: "explore", synopsis: "explore FILE",
        summary: "Run a scenario under every schedule of its races; print each distinct outcome.",
        options: options, help: help, run: run)

    /// `--max-schedules`'s default and bound.
    static let defaultMaxSchedules = 1_000
    static let maximumSchedules = 100_000
    /// `--time-limit`'s default.
    static let defaultTimeLimit: Duration = .seconds(30)
    /// A progress line on standard error every this many schedules.
    static let progressEvery = 100

    static let options: [CommandOption] = [
        CommandOption(
            "--max-schedules", .number(placeholder: "N", bounds: 1...maximumSchedules),
            help: """
                Run at most N schedules (default 1000, at most 100000); then say how many
                more were known and exit 3.
                """),
        CommandOption(
            "--time-limit", .text(placeholder: "TIME"),
            help: """
                Stop starting schedules after TIME of real time (default 30s); then say how
                many more were known and exit 3.
                """),
        CommandOption(
            "--jitter", .text(placeholder: "TIME"),
            help: """
                Also explore the scenario with each family of its times (works, run limits,
                timers' first dates, `at` times) moved by TIME each way, as the fuzzer's
                validator moves them.
                """),
        CommandOption(
            "--until", .text(placeholder: "TIME"),
            help: "Each run stops at TIME (default: the file's `until`, or 60s)."),
        EventBudget.declaration(
            help: EventBudget.checkingHelp(["the outcome of that run is that of a cut run (exit 3)."])),
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Run a scenario under every schedule of the virtual world and print each distinct outcome.

            USAGE: loopviz explore FILE [--max-schedules N] [--time-limit TIME] [--jitter TIME] [--until TIME]
                                   [--max-events N]

            ARGUMENTS:
              FILE                    A .loop scenario file.
            """,
        afterOptions: """
            Where several threads, or an outside event (an `at` line) and a thread, could go on at one instant,
            the virtual world has a branch point; a schedule says which goes first at each. explore runs every
            schedule, depth first, and groups the runs by what each thread observes of its own loop (activities,
            callouts, runs and their results, queries, `say`). Each outcome is printed once, with how many
            schedules lead to it, where it first leaves the default schedule, and an id that replays it:
            `loopviz run --schedule ID FILE`. docs/races.md says what is explored and what is not.

            EXIT STATUS:
              0    every schedule was run
              2    invalid input or usage
            \(ExitStatus.helpText(budget: "a bound (--max-schedules, --time-limit, --max-events) stopped it first"))
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let maxSchedules =
            try scanner.number("--max-schedules") { text, bounds in
                .wholeNumber(
                    option: "--max-schedules", lower: UInt64(bounds.lowerBound), upper: UInt64(bounds.upperBound))
            } ?? defaultMaxSchedules
        let timeLimit = try positiveTime(scanner, "--time-limit") ?? defaultTimeLimit
        let jitter = try positiveTime(scanner, "--jitter")
        let budget = try EventBudget.limit(scanner)
        guard scanner.positional.count == 1, let path = scanner.positional.first else {
            throw scanner.positional.isEmpty
                ? .missingArgument("FILE") : .takesOneArgument(command: "explore", argument: "FILE")
        }
        var until: Duration?
        if let text = scanner.value("--until") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "2s or 500ms") }
            until = value
        }
        guard let script = ScriptLoader.loadReporting(path) else { return .usage }
        let bounds = ScheduleExplorer.Bounds(
            maxSchedules: maxSchedules, timeLimit: timeLimit,
            horizon: until ?? script.until ?? ScenarioLimits.defaultHorizon, maxEvents: budget)
        var variants: [(name: String?, scenario: Scenario)] = [(nil, script.scenario)]
        if let jitter {
            let moved = FuzzValidator.perturbations(of: script.scenario, by: jitter)
            for (index, scenario) in moved.enumerated() {
                variants.append((ExploreReport.variantName(index + 1, of: moved.count), scenario))
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        var merged = ScheduleExplorer.Exploration()
        var variantOf: [Int: String] = [:]
        for variant in variants {
            // One time limit for the whole command: the variants share it.
            var bounds = bounds
            bounds.timeLimit = max(.zero, timeLimit - (clock.now - started))
            let done = merged.schedulesRun
            let known = merged.outcomes.count
            let found = ScheduleExplorer.explore(
                variant.scenario, bounds: bounds,
                progress: { run, distinct in
                    guard (done + run) % progressEvery == 0 else { return }
                    CommandLine.printError(
                        ExploreReport.progress(path, schedules: done + run, outcomes: max(distinct, known)))
                })
            merge(found, into: &merged, variant: variant.name, variantOf: &variantOf)
        }
        print(ExploreReport.text(merged, path: path, variants: variantOf, jitter: jitter))
        for note in ExploreReport.bounds(merged, path: path) { CommandLine.printError(note) }
        return !merged.isComplete || merged.reachedEventLimit ? .budget : .success
    }

    /// Adds one variant's exploration to the whole: an outcome seen already counts its schedules there; a new one
    /// is listed with the variant (`variantOf`, by its place) whose schedule replays it.
    static func merge(
        _ found: ScheduleExplorer.Exploration, into merged: inout ScheduleExplorer.Exploration, variant: String?,
        variantOf: inout [Int: String]
    ) {
        for outcome in found.outcomes {
            if let known = merged.outcomes.firstIndex(where: { $0.observable == outcome.observable }) {
                merged.outcomes[known].schedules += outcome.schedules
            } else {
                if let variant { variantOf[merged.outcomes.count] = variant }
                merged.outcomes.append(outcome)
            }
        }
        merged.schedulesRun += found.schedulesRun
        merged.stop = merged.stop ?? found.stop
        merged.schedulesLeft += found.schedulesLeft
        merged.branchPointsCut = merged.branchPointsCut || found.branchPointsCut
        merged.reachedEventLimit = merged.reachedEventLimit || found.reachedEventLimit
        merged.mostBranchPoints = max(merged.mostBranchPoints, found.mostBranchPoints)
    }

    /// A time above zero given to `option`, nil when it is not given.
    static func positiveTime(_ scanner: ArgumentScanner, _ option: String) throws(CommandLineProblem) -> Duration? {
        guard let text = scanner.value(option) else { return nil }
        guard let value = ScriptLoader.duration(text), value > .zero else {
            throw .notATimeAboveZero(text, example: "1ms")
        }
        return value
    }
}
