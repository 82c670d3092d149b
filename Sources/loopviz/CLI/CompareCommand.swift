import LoopEngine
import LoopOracle

/// `loopviz compare FILE...`: runs each scenario on LoopEngine and on the real CFRunLoop and compares; a scenario
/// with operation queues is compared with Foundation's `OperationQueue` instead (``PoolComparison``).
enum CompareCommand {
    static let command = LoopvizCommand(
        name: "compare", synopsis: "compare FILE...",
        summary: """
            Run scenarios on LoopEngine and on the real CFRunLoop (pools: on Foundation's
            OperationQueue) and compare them.
            """,
        options: options, help: help, run: run)

    static let options: [CommandOption] = [
        CommandOption(
            "--tolerance", .text(placeholder: "TIME"),
            help: """
                How far apart times may be (default 25ms; real threads are late by
                scheduling noise). Pool scenarios compare no times.
                """),
        CommandOption("--quiet", help: "Show the side-by-side traces only for scenarios that differ."),
        EventBudget.declaration(
            help: EventBudget.checkingHelp([
                "that scenario is not compared (LoopEngine's run or the real",
                "CFRunLoop's, which stops at the same budget); standard error says", "so; exit 3.",
            ])),
        IterationCostOption.declaration,
    ]

    static let help = CommandHelp(
        beforeOptions: """
            OVERVIEW: Run scenarios on LoopEngine and on the real CFRunLoop, and compare the traces.

            USAGE: loopviz compare FILE... [--tolerance TIME] [--quiet] [--max-events N] [--iteration-cost TIME]

            Each scenario runs on LoopEngine's virtual clock and on this machine's CFRunLoop in real time, every
            scenario thread on a real thread: `thread NAME main` on this process's main thread (CFRunLoopGetMain,
            libdispatch's main queue draining there), the others on fresh threads; `perform ... on THREAD [wait]` is
            built as Darwin's Foundation does it (Linux Foundation has no performSelector:onThread:); `detach`
            starts a real thread. A scenario with an `until` is stopped there on both sides. What a program can
            observe is compared: the six activities, every callout (timers, sources, blocks, observers, main-queue
            blocks, performed tasks), each run's start and result (not for CFRunLoopRun and Foundation's run
            methods, whose inner runs are hidden), and the Bool run(mode:before:) returns. Sequences must agree;
            times must agree within the tolerance. With several threads each thread's trace is compared on its own,
            with its `say` notes too (the real interleaving of two threads is not fixed); every time is on one clock
            from one start, so a hand-over out of causal order shows as a step out of place or late on the thread it
            reached. The traces are shown side by side with the first difference marked `>>` (and late steps `~`).
            A scenario the real CFRunLoop cannot express here (the darwin profile, `mainqueue` without a main
            thread, a run in an `at` block, stopMode without _CFRunLoopStopMode) is skipped with the reason.
            What Linux Foundation lacks and the oracle builds on CF as loopviz models Foundation (the performSelector
            family: onThread, order, afterDelay) is named in a line under the verdict: it was checked against
            loopviz's model of Foundation, not against the real thing.

            A scenario with operation queues runs instead on Foundation's OperationQueue (real threads, real time).
            What must agree is compared: the start order of every queue whose limit is 1, the limit never exceeded,
            how each operation ended (done, cancelled before it started, cancelled while running, never finished)
            and dependency order. Threads and times legitimately differ (libdispatch, not the queue, owns the
            threads; Foundation runs in real time): they are shown side by side, never compared. A dispatch queue
            (`queue Q dispatch`) runs on a real DispatchQueue: its blocks and work items are compared the same way
            (a serial queue has limit 1; a work item skipped by its queue counts as cancelled before it started,
            one cancelled while its block ran as done despite the cancel).
            """,
        afterOptions: """
            A scenario whose engine run reaches the nesting limit (a callout re-entering the loop more than 256 runs
            deep) is not run on the real CFRunLoop, which has no limit and would overflow its stack: ERROR.

            EXIT STATUS (when several apply: 2, then 3, then 1):
              0    every compared scenario agrees
              1    one differs
              2    invalid input or usage, or a run reached the nesting limit
            \(ExitStatus.checkingHelpText("that scenario was not compared"))
            """)

    static func run(_ scanner: ArgumentScanner) throws(CommandLineProblem) -> ExitStatus {
        let budget = try EventBudget.limit(scanner)
        guard !scanner.positional.isEmpty else { throw .missingArgument("FILE") }
        var tolerance = Duration.milliseconds(25)
        if let text = scanner.value("--tolerance") {
            guard let value = ScriptLoader.duration(text) else { throw .notATime(text, example: "40ms") }
            tolerance = value
        }
        let iterationCost = try IterationCostOption.value(in: scanner)
        var invalid = false
        var differs = false
        var overBudget = false
        // A closed pipe or a failed standard output ends the comparisons (reported at exit).
        for path in scanner.positional where StandardOutput.writer.isWorking {
            let shown = TerminalSafeText.terminalSafe(path)
            guard let script = ScriptLoader.loadReporting(path, iterationCost: iterationCost) else {
                invalid = true
                continue
            }
            if !script.scenario.queues.isEmpty {
                let horizon = script.until ?? ScenarioLimits.defaultHorizon
                switch comparePool(
                    script.scenario, path: path, horizon: horizon, quiet: scanner.has("--quiet"), maxEvents: budget)
                {
                case .agree, .skipped: break
                case .differ: differs = true
                case .failed: invalid = true
                case .overBudget: overBudget = true
                }
                continue
            }
            if let reason = CFOracle.unsupportedReason(script.scenario) {
                print(
                    "SKIP \(shown): not comparable with the real CFRunLoop here: \(TerminalSafeText.terminalSafe(reason))"
                )
                continue
            }
            let horizon = script.until ?? ScenarioLimits.defaultHorizon
            let run = ScenarioRunner.run(script.scenario, horizon: horizon, maxEvents: budget)
            // The real CFRunLoop has no nesting limit: it would overflow its stack where the engine stopped.
            if LimitReport.reportInCheck(run, path: path) {
                invalid = true
                continue
            }
            if run.reachedEventLimit {
                print(
                    EventBudget.resultLine(
                        shown, limit: budget, verdict: "ERROR", unchecked: "not compared", reason: run.haltReason))
                CommandLine.printError(
                    EventBudget.message(path, limit: budget, traceKept: false, reason: run.haltReason))
                overBudget = true
                continue
            }
            // A wait nothing can end (a `perform … wait` deadlock): the real run would hang there until its time
            // limit (65 s). The engine knows it at once, as `run` does: the real run is halted soon after the
            // engine's ended, and the notes say why.
            var realHorizon = script.until
            if script.until == nil, !run.stuckWaits.isEmpty {
                realHorizon = .nanoseconds(run.endTime.nanoseconds) + Self.stuckMargin
                for note in LimitReport.stuckNotes(run.stuckWaits, path: path) { CommandLine.printError(note) }
            }
            let engine = run.events
            let reference: [LoopEvent]
            do {
                reference = try CFOracle.run(
                    script.scenario, timeLimit: (realHorizon ?? horizon) + .seconds(5), maxEvents: budget,
                    horizon: realHorizon)
            } catch CFOracleError.reachedEventLimit {
                let side = "the real CFRunLoop's run"
                print(
                    EventBudget.resultLine(
                        shown, limit: budget, side: side, verdict: "ERROR", unchecked: "not compared"))
                CommandLine.printError(EventBudget.message(path, limit: budget, traceKept: false, side: side))
                overBudget = true
                continue
            } catch {
                print("ERROR \(shown): \(TerminalSafeText.terminalSafe(String(describing: error)))")
                invalid = true
                continue
            }
            // What Linux Foundation lacks is checked against loopviz's model of it: said under the verdict.
            let models = ReferenceModel.models(in: script.scenario)
            if script.scenario.isComparedThreadByThread(engine: engine) {
                let compare = { (events: [LoopEvent]) in
                    ThreadedTraceComparison(
                        engine: events, reference: reference, declared: script.scenario.threads.map(\.name),
                        tolerance: tolerance, ignoringRunBoundaries: script.scenario.usesRunWrappers,
                        sourceCallouts: script.scenario.source0Names
                    ).agrees
                }
                if let other = ScheduleExplorer.agreeingSchedule(
                    run, script.scenario, horizon: horizon, maxEvents: budget, compare)
                {
                    print("AGREE \(shown) (\(Self.otherScheduleWords(other)))")
                    if let note = ReferenceModel.verdictNote(models) { print(note) }
                    continue
                }
                let comparison = ThreadedTraceComparison(
                    engine: engine, reference: reference, declared: script.scenario.threads.map(\.name),
                    tolerance: tolerance, ignoringRunBoundaries: script.scenario.usesRunWrappers,
                    sourceCallouts: script.scenario.source0Names)
                let what = "\(comparison.threads.count) threads, each compared on its own: \(comparison.stepCounts)"
                if comparison.agrees {
                    print("AGREE \(shown) (\(what))")
                } else {
                    differs = true
                    for thread in comparison.differing {
                        let name = TerminalSafeText.terminalSafe(thread.name)
                        if let index = thread.comparison.firstDifference {
                            print("DIFFER \(shown): thread \(name): first difference at step \(index)")
                        } else {
                            print(
                                "DIFFER \(shown): thread \(name): \(thread.comparison.lateSteps.count) steps differ "
                                    + "by more than \(tolerance)")
                        }
                    }
                }
                if let note = ReferenceModel.verdictNote(models) { print(note) }
                if !comparison.agrees || !scanner.has("--quiet") {
                    print(comparison.sideBySide(differingOnly: scanner.has("--quiet")))
                }
                continue
            }
            let compare = { (events: [LoopEvent]) in
                TraceComparison(
                    engine: events, reference: reference, tolerance: tolerance,
                    ignoringRunBoundaries: script.scenario.usesRunWrappers,
                    sourceCallouts: script.scenario.source0Names
                ).agrees
            }
            if let other = ScheduleExplorer.agreeingSchedule(
                run, script.scenario, horizon: horizon, maxEvents: budget, compare)
            {
                print("AGREE \(shown) (\(Self.otherScheduleWords(other)))")
                if let note = ReferenceModel.verdictNote(models) { print(note) }
                continue
            }
            let comparison = TraceComparison(
                engine: engine, reference: reference, tolerance: tolerance,
                ignoringRunBoundaries: script.scenario.usesRunWrappers, sourceCallouts: script.scenario.source0Names)
            if comparison.agrees {
                print("AGREE \(shown) (\(comparison.engine.count) steps)")
            } else {
                differs = true
                if let index = comparison.firstDifference {
                    print("DIFFER \(shown): first difference at step \(index)")
                } else {
                    print("DIFFER \(shown): \(comparison.lateSteps.count) steps differ by more than \(tolerance)")
                }
            }
            if let note = ReferenceModel.verdictNote(models) { print(note) }
            if !comparison.agrees || !scanner.has("--quiet") {
                print(comparison.sideBySide())
            }
        }
        return invalid ? .usage : overBudget ? .budget : differs ? .failure : .success
    }

    /// The AGREE line's words for a real run that matched schedule `schedule`, not the default one.
    static func otherScheduleWords(_ schedule: Schedule) -> String {
        "a race: the real run took schedule \(schedule.id), one of the outcomes `loopviz explore` finds; "
            + "replay it with `loopviz run --schedule \(schedule.id)`"
    }

    /// How long past the engine's end a real run with a stuck wait goes on before it is halted: far beyond the
    /// tolerance, so a real run that is slower to get stuck still gets there.
    static let stuckMargin: Duration = .milliseconds(500)

    enum PoolVerdict: Equatable {
        case agree, differ, skipped, failed
        /// LoopEngine's run reached the event budget: not compared.
        case overBudget
    }

    /// Runs a scenario with queues on LoopEngine and on Foundation's `OperationQueue`, prints the verdict (and,
    /// unless `quiet` and agreeing, both sides' pool events and the side-by-side summary) through `output`.
    ///
    /// `reference` runs the scenario on the other side: Foundation's `OperationQueue` (tests pass a stand-in to
    /// reach the verdicts Foundation does not produce on its own, such as a disagreement).
    static func comparePool(
        _ scenario: Scenario, path: String, horizon: Duration, quiet: Bool,
        maxEvents: Int = EventBudget.defaultLimit, output: (String) -> Void = { print($0) },
        reference run: (Scenario, Duration) throws -> [LoopEvent] = { try FoundationPoolOracle.run($0, timeLimit: $1) }
    ) -> PoolVerdict {
        let path = TerminalSafeText.terminalSafe(path)
        if let reason = FoundationPoolOracle.unsupportedReason(scenario) {
            output(
                "SKIP \(path): not comparable with Foundation's OperationQueue here: "
                    + TerminalSafeText.terminalSafe(reason))
            return .skipped
        }
        let engineRun = ScenarioRunner.run(scenario, horizon: horizon, maxEvents: maxEvents)
        if engineRun.reachedEventLimit {
            output(
                EventBudget.resultLine(
                    path, limit: maxEvents, verdict: "ERROR", unchecked: "not compared", reason: engineRun.haltReason))
            CommandLine.printError(
                EventBudget.message(path, limit: maxEvents, traceKept: false, reason: engineRun.haltReason))
            return .overBudget
        }
        let engine = engineRun.events
        let reference: [LoopEvent]
        // A wait nothing can end (`wait for` a suspended queue): Foundation's run would hang there until its time
        // limit. The engine knows it at once: Foundation's run is stopped soon after the engine's ended, what it
        // did until then is compared, and the notes say why it stopped.
        let stuck = !engineRun.stuckWaits.isEmpty
        let limit =
            stuck ? min(horizon, .nanoseconds(engineRun.endTime.nanoseconds)) + stuckMargin : horizon + .seconds(5)
        if stuck {
            for note in LimitReport.stuckNotes(engineRun.stuckWaits, path: path) { CommandLine.printError(note) }
        }
        do {
            reference = try run(scenario, limit)
        } catch FoundationPoolOracleError.timedOut(_, let partialTrace) where stuck {
            reference = partialTrace
        } catch {
            output("ERROR \(path): \(TerminalSafeText.terminalSafe(String(describing: error)))")
            return .failed
        }
        let comparison = PoolComparison(engine: engine, reference: reference, scenario: scenario)
        let operations = Set(comparison.engine.added + comparison.reference.added).count
        if comparison.agrees {
            let reference =
                scenario.queues.contains { $0.dispatch != nil }
                ? "operations and blocks on Foundation's OperationQueue and libdispatch's DispatchQueue"
                : "operations on Foundation's OperationQueue"
            output("AGREE \(path) (\(operations) \(reference))")
        } else {
            output("DIFFER \(path): \(comparison.verdict)")
            for difference in comparison.differences.dropFirst() { output("  also - \(difference)") }
        }
        if !comparison.agrees || !quiet {
            output(comparison.eventListing())
            output(comparison.summary())
        }
        return comparison.agrees ? .agree : .differ
    }
}
