#if os(Linux)
import LoopEngine

/// How long and how often: the full run's sizes, or `--quick`'s.
struct BenchSettings {
    var quick: Bool
    var rounds: Int
    /// Iterations of the per-iteration workload.
    var iterations: Int
    /// Iterations of the virtual-clock workload (every one records about 17 events).
    var virtualIterations: Int
    /// Wake-ups per variant per round.
    var wakeSamples: Int
    var timerSeconds: Double
    var idleSeconds: Double
    /// Items of the scale workloads: the small size and the large one (4× as many).
    var scaleItems: (small: Int, large: Int)
    /// Run modes of the run-modes workload (each of its 100 timers is in all of them), and its run's length.
    var runModes: (modes: Int, milliseconds: Int)
    /// Events of the long traces: the memory workload's recording, the `run --trace jsonl` and the UI's session.
    var longEvents: Int
    /// Steps timed per round in the UI rows.
    var uiStepSamples: Int
    /// Frames of playing timed per round in the UI rows (the figure is per second of 30 frames whatever the count).
    var uiPlayFrames: Int

    static let full = BenchSettings(
        quick: false, rounds: 5, iterations: 1_000_000, virtualIterations: 100_000, wakeSamples: 2_000,
        timerSeconds: 5, idleSeconds: 10, scaleItems: ScaleBench.fullSizes,
        runModes: (RunModesBench.fullModes, 200), longEvents: 1_000_000, uiStepSamples: 9,
        uiPlayFrames: 30)
    static let short = BenchSettings(
        quick: true, rounds: 2, iterations: 20_000, virtualIterations: 10_000, wakeSamples: 100, timerSeconds: 0.3,
        idleSeconds: 0.3, scaleItems: ScaleBench.quickSizes,
        runModes: (RunModesBench.quickModes, 20), longEvents: 100_000, uiStepSamples: 1,
        uiPlayFrames: 3)
}

/// What one run of a variant yields for one row: the round's figure and, for distributions, its samples.
struct BenchResult {
    var figure: Double
    var samples: [Double] = []
    /// Something the round found that the figures cannot say (a lost wake-up).
    var note: String?

    /// A round of latencies: the figure is their median.
    static func distribution(_ samples: [Double], note: String? = nil) -> BenchResult {
        BenchResult(figure: BenchFigure.median(samples), samples: samples, note: note)
    }

    static func distribution(_ round: WakeLatencyBench.Round) -> BenchResult {
        distribution(round.latencies, note: round.note)
    }
}

/// A workload measured on several variants. Running one variant once feeds every row of the group (the timer
/// workload yields lateness and CPU), so each round runs each variant once, in order: engine, CF, baselines.
struct BenchGroup {
    struct Variant {
        var name: String
        var role: BenchVariant.Role
        /// One result per row, in the order of `rows`.
        var run: () -> [BenchResult]
    }

    var workload: String
    var rows: [BenchRow]
    var variants: [Variant]

    init(workload: String, rows: [BenchRow], variants: [Variant]) {
        self.workload = workload
        self.variants = variants
        self.rows = rows.map { row in
            var row = row
            row.variants = variants.map { BenchVariant(name: $0.name, role: $0.role) }
            return row
        }
    }
}

/// The workloads of `loopviz bench` and the loop that runs them.
enum BenchSuite {
    static let workloads = [
        "per-iteration", "recorder", "wake", "timer", "idle", "virtual", "scale", "memory", "run-jsonl", "run-text",
        "ui", "hangs",
    ]

    /// Every group, in table order, for `settings`.
    static func groups(_ settings: BenchSettings) -> [BenchGroup] {
        var groups: [BenchGroup] = []
        let realEngine = BenchEngine.real.label

        for observers in [0, 6, 64] {
            let row = BenchRow(
                id: "per-iteration/\(observers)", workload: "per-iteration",
                title: "per-iteration, \(observers) observers", unit: .nanoseconds, variants: [],
                goals: [BenchGoal(statistic: .median, against: 1, factor: 0.25, text: "median ≤ 0.25× CF")])
            let iterations = settings.iterations
            groups.append(
                BenchGroup(
                    workload: "per-iteration", rows: [row],
                    variants: [
                        .init(name: realEngine, role: .engine) {
                            [
                                .init(
                                    figure: PerIterationBench.engine(
                                        .real, iterations: iterations, observers: observers))
                            ]
                        },
                        .init(name: "CF", role: .cf) {
                            [.init(figure: PerIterationBench.cf(iterations: iterations, observers: observers))]
                        },
                        .init(name: BenchEngine.virtual.label, role: .reference) {
                            [
                                .init(
                                    figure: PerIterationBench.engine(
                                        .virtual, iterations: iterations, observers: observers))
                            ]
                        },
                    ]))
        }

        groups.append(recorderGroup(settings))

        for pinned in [true, false] {
            let samples = settings.wakeSamples
            let goal =
                pinned
                ? BenchGoal(statistic: .median, against: 2, factor: 1.3, text: "median ≤ 1.3× raw eventfd")
                : BenchGoal(statistic: .median, against: 1, factor: 1.0, text: "median ≤ 1.0× CF")
            let row = BenchRow(
                id: pinned ? "wake/one-core" : "wake/unpinned", workload: "wake",
                title: pinned ? "wake-up, one core (pinned)" : "wake-up, unpinned", unit: .microseconds, variants: [],
                goals: [goal])
            groups.append(
                BenchGroup(
                    workload: "wake", rows: [row],
                    variants: [
                        .init(name: realEngine, role: .engine) {
                            [.distribution(WakeLatencyBench.engine(.real, samples: samples, pinned: pinned))]
                        },
                        .init(name: "CF", role: .cf) {
                            [.distribution(WakeLatencyBench.cf(samples: samples, pinned: pinned))]
                        },
                        .init(name: "raw eventfd", role: .baseline) {
                            [.distribution(WakeLatencyBench.rawEventfd(samples: samples, pinned: pinned))]
                        },
                        .init(name: "CF↔CF ping-pong", role: .baseline) {
                            [.distribution(WakeLatencyBench.cfPingPong(samples: samples, pinned: pinned), note: nil)]
                        },
                    ]))
        }

        let timerSeconds = settings.timerSeconds
        let timerRounds: (TimerLatenessBench.Round) -> [BenchResult] = { round in
            [.distribution(round.lateness), BenchResult(figure: round.cpuPercent)]
        }
        groups.append(
            BenchGroup(
                workload: "timer",
                rows: [
                    BenchRow(
                        id: "timer/lateness", workload: "timer", title: "timer 10 ms: lateness", unit: .microseconds,
                        variants: [],
                        goals: [
                            BenchGoal(statistic: .median, against: 2, factor: 1.1, text: "median ≤ 1.1× raw timerfd"),
                            BenchGoal(statistic: .p99, against: 1, factor: 1.0, text: "p99 ≤ CF's"),
                        ]),
                    BenchRow(
                        id: "timer/cpu", workload: "timer", title: "timer 10 ms: loop-thread CPU", unit: .percent,
                        variants: [], goals: [BenchGoal(statistic: .median, against: 1, factor: 1.0, text: "≤ CF's")]),
                ],
                variants: [
                    .init(name: realEngine, role: .engine) {
                        timerRounds(TimerLatenessBench.engine(.real, seconds: timerSeconds))
                    },
                    .init(name: "CF", role: .cf) { timerRounds(TimerLatenessBench.cf(seconds: timerSeconds)) },
                    .init(name: "raw timerfd", role: .baseline) {
                        timerRounds(TimerLatenessBench.rawTimerfd(seconds: timerSeconds))
                    },
                ]))

        let idleSeconds = settings.idleSeconds
        let idleRounds: (IdleBench.Round) -> [BenchResult] = { round in
            [BenchResult(figure: Double(round.voluntarySwitches)), BenchResult(figure: round.cpuMilliseconds)]
        }
        groups.append(
            BenchGroup(
                workload: "idle",
                rows: [
                    BenchRow(
                        id: "idle/switches", workload: "idle", title: "idle: voluntary switches", unit: .count,
                        variants: [],
                        goals: [
                            BenchGoal(
                                statistic: .median, against: nil, factor: 2, text: "≤ 2 in all (no periodic wake)")
                        ], checksNoise: false),
                    BenchRow(
                        id: "idle/cpu", workload: "idle", title: "idle: loop-thread CPU", unit: .milliseconds,
                        variants: [], goals: [BenchGoal(statistic: .median, against: 1, factor: 1.0, text: "≤ 1.0× CF")]
                    ),
                ],
                variants: [
                    .init(name: realEngine, role: .engine) {
                        idleRounds(IdleBench.engine(.real, seconds: idleSeconds))
                    },
                    .init(name: "CF", role: .cf) { idleRounds(IdleBench.cf(seconds: idleSeconds)) },
                ]))

        let virtualIterations = settings.virtualIterations
        groups.append(
            BenchGroup(
                workload: "virtual",
                rows: [
                    BenchRow(
                        id: "virtual/6", workload: "virtual", title: "virtual clock, 6 observers, trace recorded",
                        unit: .nanoseconds, variants: [],
                        goals: [
                            BenchGoal(statistic: .median, against: nil, factor: 150, text: "≤ 150 ns"),
                            BenchGoal(statistic: .median, against: 1, factor: 1.5, text: "median ≤ 1.5× no sink"),
                        ])
                ],
                variants: [
                    .init(name: "engine (virtual, TraceRecorder)", role: .engine) {
                        [BenchResult(figure: virtualWithTrace(iterations: virtualIterations))]
                    },
                    .init(name: "engine (virtual, no sink)", role: .reference) {
                        [
                            BenchResult(
                                figure: PerIterationBench.engine(.virtual, iterations: virtualIterations, observers: 6))
                        ]
                    },
                ]))

        let (small, large) = settings.scaleItems
        for workload in ScaleBench.Workload.allCases {
            let factor = Double(large) / Double(small)
            let goal = BenchGoal(
                statistic: .median, against: 0, factor: factor * 1.25,
                text: "total(\(grouped(large))) ≤ \(BenchReport.fixed(factor * 1.25, 0))× total(\(grouped(small)))",
                ratioScale: factor)
            groups.append(
                BenchGroup(
                    workload: "scale",
                    rows: [
                        BenchRow(
                            id: "scale/\(workload.rawValue)", workload: "scale", title: workload.title,
                            unit: .microseconds, variants: [], goals: [goal])
                    ],
                    variants: [
                        .init(name: "engine (virtual), \(grouped(small)) items", role: .reference) {
                            [BenchResult(figure: ScaleBench.run(workload, items: small))]
                        },
                        .init(name: "engine (virtual), \(grouped(large)) items", role: .engine) {
                            [BenchResult(figure: ScaleBench.run(workload, items: large))]
                        },
                    ]))
        }
        groups.append(runModesGroup(settings))
        groups += longTraceGroups(settings)
        groups.append(HangsBench.group(events: settings.longEvents * 10))
        return groups
    }

    /// Timers in many run modes against the same timers in one mode: issue 38's rule (a fire's cost independent
    /// of the number of modes) as a goal, which resting modes meet (docs/limits.md, "Resting modes").
    static func runModesGroup(_ settings: BenchSettings) -> BenchGroup {
        let (modes, milliseconds) = settings.runModes
        let timers = RunModesBench.timers
        return BenchGroup(
            workload: "scale",
            rows: [
                BenchRow(
                    id: "scale/run-modes", workload: "scale",
                    title: "scale: \(timers) timers in \(grouped(modes)) run modes, per fire", unit: .microseconds,
                    variants: [],
                    goals: [BenchGoal(statistic: .median, against: 0, factor: 2, text: "median ≤ 2× in one mode")])
            ],
            variants: [
                .init(name: "engine (virtual), \(timers) timers in 1 mode", role: .reference) {
                    [BenchResult(figure: RunModesBench.run(modes: 1, milliseconds: milliseconds))]
                },
                .init(name: "engine (virtual), \(timers) timers in \(grouped(modes)) run modes", role: .engine) {
                    [BenchResult(figure: RunModesBench.run(modes: modes, milliseconds: milliseconds))]
                },
            ])
    }

    /// `16000` as `16,000`.
    static func grouped(_ number: Int) -> String {
        var digits = String(number.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits = String(digits.dropLast(3))
        }
        groups.insert(Substring(digits), at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// Row 5's figure: the per-iteration workload on the virtual clock with every event recorded.
    static func virtualWithTrace(iterations: Int, observers: Int = 6) -> Double {
        PerIterationBench.engine(.virtual, iterations: iterations, observers: observers) { TraceRecorder() }
    }

    /// Runs `groups`, `rounds` times each, alternating the variants within each round; says what it is doing
    /// through `progress`.
    static func run(_ groups: [BenchGroup], rounds: Int, progress: (String) -> Void) -> [BenchRow] {
        var rows: [BenchRow] = []
        for group in groups {
            var groupRows = group.rows
            for round in 1...max(rounds, 1) {
                progress("\(groupRows.first?.title ?? group.workload): round \(round)/\(rounds)")
                for (index, variant) in group.variants.enumerated() {
                    let results = variant.run()
                    for (rowIndex, result) in results.enumerated() where rowIndex < groupRows.count {
                        groupRows[rowIndex].variants[index].figure.add(round: result.figure, samples: result.samples)
                        if let note = result.note {
                            groupRows[rowIndex].notes.append("\(variant.name), round \(round): \(note)")
                            progress("note: \(groupRows[rowIndex].title), \(variant.name): \(note)")
                        }
                    }
                }
            }
            rows += groupRows
        }
        return rows
    }
}
#endif
