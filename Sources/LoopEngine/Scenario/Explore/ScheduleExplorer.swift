/// Runs a scenario under every schedule the virtual world can choose (depth first over its branch points) and
/// groups the runs by what a program can observe (`ObservableOutcome`): `loopviz explore`, and `check`'s claims
/// that must hold in every schedule.
///
/// A run's branch points (`ScheduleBranchPoint`) say where it could have gone another way; each other option
/// at each of them, from the schedule's own last choice on, is a schedule to run. The runs are deterministic, so
/// two schedules with one prefix of choices run alike up to the point where they part. The space grows
/// exponentially with the branch points, so it is bounded twice: a number of schedules and a time (what was not
/// run is counted and said).
package enum ScheduleExplorer {
    /// The bounds of one exploration.
    package struct Bounds: Sendable {
        /// The most schedules run.
        package var maxSchedules: Int
        /// The most time spent (real time, measured between runs).
        package var timeLimit: Duration
        /// Each run's horizon and event budget, as for `loopviz run`.
        package var horizon: Duration
        package var maxEvents: Int

        package init(maxSchedules: Int, timeLimit: Duration, horizon: Duration, maxEvents: Int) {
            self.maxSchedules = maxSchedules
            self.timeLimit = timeLimit
            self.horizon = horizon
            self.maxEvents = maxEvents
        }
    }

    /// Why an exploration stopped before it ran every schedule.
    package enum Stop: Hashable, Sendable {
        case scheduleLimit(Int)
        case timeLimit(Duration)
    }

    /// One distinct outcome. Its run's trace is not kept (a thousand outcomes of a million events each would not
    /// fit in memory): `run --schedule` and `diff` replay it.
    package struct Outcome: Sendable {
        package let observable: ObservableOutcome
        /// How many of the schedules run lead to it.
        package var schedules: Int
        /// The first schedule found that leads to it (`Schedule/default` for the default's outcome).
        package let schedule: Schedule
        /// That schedule's run's branch points (its first departure from the default is among them).
        package let branchPoints: [ScheduleBranchPoint]

        /// The branch point where `schedule` first leaves the default; nil for the default.
        package var departure: ScheduleBranchPoint? {
            schedule.firstDeparture.flatMap { $0 < branchPoints.count ? branchPoints[$0] : nil }
        }
    }

    /// What an exploration found.
    package struct Exploration: Sendable {
        /// The distinct outcomes, the default schedule's first, then as found.
        package var outcomes: [Outcome] = []
        /// How many schedules were run.
        package var schedulesRun = 0
        /// Nil when every schedule was run; else which bound stopped it.
        package var stop: Stop?
        /// Schedules known and not run when it stopped (more may lie beyond them).
        package var schedulesLeft = 0
        /// True when some run met more branch points than a run records (`Schedule/maximumBranchPoints`):
        /// choices past them were not explored.
        package var branchPointsCut = false
        /// True when some run reached its event budget (its outcome is that of a cut run).
        package var reachedEventLimit = false
        /// The most branch points one run met.
        package var mostBranchPoints = 0

        /// True when every schedule was run and none was cut.
        package var isComplete: Bool { stop == nil && !branchPointsCut }

        /// Nothing explored yet (`explore --jitter` adds its copies' explorations to one).
        package init() {}
    }

    /// A schedule's run, the alternatives still to run at its branch points from `start` on, last first.
    private struct Frame {
        let chosen: [Int]
        let counts: [Int]
        let start: Int
        var index: Int
        var option = 1

        init(_ points: [ScheduleBranchPoint], start: Int) {
            chosen = points.map(\.chosen)
            counts = points.map(\.options.count)
            self.start = start
            index = points.count - 1
        }

        /// The next schedule to run: this run's choices up to a branch point, then another option there.
        mutating func next() -> Schedule? {
            while index >= start {
                if option < counts[index] {
                    defer { option += 1 }
                    return Schedule(choices: Array(chosen[0..<index]) + [option])
                }
                index -= 1
                option = 1
            }
            return nil
        }

        /// How many schedules `next()` has still to give.
        var left: Int {
            guard index >= start else { return 0 }
            return max(0, counts[index] - option) + counts[start..<index].reduce(0) { $0 + $1 - 1 }
        }
    }

    /// Explores `scenario` within `bounds`; `visit(schedule, run)` sees every run (`check` judges claims in each),
    /// then `progress(runs, distinct)` is called.
    package static func explore(
        _ scenario: Scenario, bounds: Bounds, visit: (Schedule, ScenarioRunner.Outcome) -> Void = { _, _ in },
        progress: (Int, Int) -> Void = { _, _ in }
    ) -> Exploration {
        let clock = ContinuousClock()
        let started = clock.now
        var found = Exploration()
        var index: [ObservableOutcome: Int] = [:]
        let declared = scenario.threads.map(\.name)

        func run(_ schedule: Schedule) -> [ScheduleBranchPoint] {
            var scheduled = scenario
            scheduled.schedule = schedule
            let outcome = ScenarioRunner.run(scheduled, horizon: bounds.horizon, maxEvents: bounds.maxEvents)
            found.schedulesRun += 1
            found.branchPointsCut = found.branchPointsCut || outcome.branchPointsCut
            found.reachedEventLimit = found.reachedEventLimit || outcome.reachedEventLimit
            found.mostBranchPoints = max(found.mostBranchPoints, outcome.branchPoints.count)
            let observable = ObservableOutcome(outcome.trace, declared: declared)
            if let known = index[observable] {
                found.outcomes[known].schedules += 1
            } else {
                index[observable] = found.outcomes.count
                found.outcomes.append(
                    Outcome(
                        observable: observable, schedules: 1, schedule: schedule,
                        branchPoints: outcome.branchPoints))
            }
            visit(schedule, outcome)
            progress(found.schedulesRun, found.outcomes.count)
            return outcome.branchPoints
        }

        var frames = [Frame(run(.default), start: 0)]
        while !frames.isEmpty {
            guard let schedule = frames[frames.count - 1].next() else {
                frames.removeLast()
                continue
            }
            if found.schedulesRun >= bounds.maxSchedules {
                found.stop = .scheduleLimit(bounds.maxSchedules)
            } else if clock.now - started > bounds.timeLimit {
                found.stop = .timeLimit(bounds.timeLimit)
            }
            if found.stop != nil {
                found.schedulesLeft = 1 + frames.reduce(0) { $0 + $1.left }
                break
            }
            frames.append(Frame(run(schedule), start: schedule.choices.count))
        }
        return found
    }
}
