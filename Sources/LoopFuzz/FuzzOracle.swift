import LoopEngine
import LoopOracle

/// What CF does with a scenario compared with the engine: the same comparison as `loopviz compare` (the engine's
/// run, ``CFOracle/run(_:timeLimit:maxEvents:)``, ``TraceComparison`` with ``LoopEngine/Scenario/usesRunWrappers``).
enum FuzzOracle {
    enum Verdict {
        case agree
        /// The default schedule's steps differ, and another schedule the engine explores agrees: a race (two
        /// things in one instant, whose order on the real machine is the scheduler's), judged as `compare` does.
        case race(Schedule)
        /// The steps differ, and the real CFRunLoop kept time (within ``FuzzValidator/margin``) up to there.
        case differ(TraceComparison)
        /// The real CFRunLoop strayed more than the margin from the engine's times before the first difference
        /// (or only times differ): the machine was too busy for this run to say anything (the generator only
        /// promises that the steps do not depend on times within the margin).
        case disturbed(TraceComparison)
        /// The oracle could not run it (a time-out, the event budget, a set-up failure).
        case error(String)
    }

    static func compare(_ scenario: Scenario, tolerance: Duration) -> Verdict {
        let run = ScenarioRunner.run(scenario, horizon: FuzzValidator.maxDuration, maxEvents: FuzzValidator.maxEvents)
        let reference: [LoopEvent]
        do {
            reference = try CFOracle.run(
                scenario, timeLimit: FuzzValidator.maxDuration + .seconds(2), maxEvents: FuzzValidator.maxEvents)
        } catch {
            return .error(String(describing: error))
        }
        let comparison = comparison(scenario, engine: run.events, reference: reference, tolerance: tolerance)
        if comparison.agrees { return .agree }
        let compared = comparison.firstDifference ?? min(comparison.engine.count, comparison.reference.count)
        let margin = FuzzValidator.margin
        for index in 0..<compared {
            let gap = comparison.engine[index].time - comparison.reference[index].time
            if gap > margin || gap < .zero - margin { return .disturbed(comparison) }
        }
        guard comparison.firstDifference != nil else { return .disturbed(comparison) }
        let other = ScheduleExplorer.agreeingSchedule(
            run, scenario, horizon: FuzzValidator.maxDuration, maxEvents: FuzzValidator.maxEvents
        ) { Self.comparison(scenario, engine: $0, reference: reference, tolerance: tolerance).agrees }
        return other.map { .race($0) } ?? .differ(comparison)
    }

    /// What `loopviz compare` compares: one loop's trace, or with several threads each thread's own (the first
    /// thread that differs is the verdict's; ``ThreadedTraceComparison``), with the scenario's version-0 sources'
    /// schedule and cancel callouts and commands.
    static func comparison(
        _ scenario: Scenario, engine: [LoopEvent], reference: [LoopEvent], tolerance: Duration
    ) -> TraceComparison {
        let wrappers = scenario.usesRunWrappers
        let callouts = scenario.source0Names
        guard scenario.isComparedThreadByThread(engine: engine) else {
            return TraceComparison(
                engine: engine, reference: reference, tolerance: tolerance, ignoringRunBoundaries: wrappers,
                sourceCallouts: callouts)
        }
        let threads = ThreadedTraceComparison(
            engine: engine, reference: reference, declared: scenario.threads.map(\.name), tolerance: tolerance,
            ignoringRunBoundaries: wrappers, sourceCallouts: callouts)
        return (threads.differing.first ?? threads.threads[0]).comparison
    }

    /// Compares until a run is not disturbed, at most `attempts` times; the last verdict.
    static func compareUndisturbed(_ scenario: Scenario, tolerance: Duration, attempts: Int = 4) -> Verdict {
        var verdict = compare(scenario, tolerance: tolerance)
        for _ in 1..<max(attempts, 1) {
            guard case .disturbed = verdict else { break }
            verdict = compare(scenario, tolerance: tolerance)
        }
        return verdict
    }
}

/// The oracle's own refusals, asked before anything runs, as for a call on the process's main thread (where
/// `loopviz fuzz` calls the oracle): a seed makes the same cases wherever the generator runs.
enum LoopOracleSupport {
    static func unsupportedReason(_ scenario: Scenario) -> String? {
        CFOracle.unsupportedReason(scenario, mainThreadAvailable: true)
    }
}
