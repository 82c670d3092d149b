#if os(Linux)
/// Everything one `loopviz bench` run measured, ready to print as a table or as JSON.
struct BenchReport {
    var rounds: Int
    var quick: Bool
    var cores: Int
    var cpuModel: String?
    var loadBefore: Double?
    var loadAfter: Double?
    var rows: [BenchRow]

    /// "release" or "debug": debug figures are not worth reading.
    static var buildConfiguration: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// Goals met, not met, and undecided (a figure they need is missing or zero).
    var goalCounts: (met: Int, notMet: Int, undecided: Int) {
        var counts = (met: 0, notMet: 0, undecided: 0)
        for row in rows {
            for goal in row.goals {
                switch goal.evaluate(in: row).met {
                case true?: counts.met += 1
                case false?: counts.notMet += 1
                case nil: counts.undecided += 1
                }
            }
        }
        return counts
    }
}

/// The unit a row's figures are in.
enum BenchUnit: String {
    case nanoseconds = "ns"
    case microseconds = "µs"
    case milliseconds = "ms"
    case seconds = "s"
    case percent = "%"
    case count = "count"
    case bytes = "B"
    /// 10⁶ bytes.
    case megabytes = "MB"
}

/// One workload as one line group of the table: the variants measured on it and the goals that judge it.
struct BenchRow {
    /// Stable identifier for machines: `per-iteration/6`, `wake/one-core`, `timer/lateness`.
    var id: String
    /// The workload it belongs to (what `--only` selects).
    var workload: String
    var title: String
    var unit: BenchUnit
    var variants: [BenchVariant]
    var goals: [BenchGoal] = []
    /// False for small counts, where a range like 1–2 is not noise in the sense of the noisy flag.
    var checksNoise = true
    /// What the rounds found besides figures ("engine (real), round 2: wake-up 513 was lost …").
    var notes: [String] = []

    /// The index of the first variant in `role`.
    func index(of role: BenchVariant.Role) -> Int? { variants.firstIndex { $0.role == role } }

    /// engine median / CF median, when both were measured.
    var engineOverCF: Double? {
        guard let engine = index(of: .engine), let cf = index(of: .cf) else { return nil }
        return BenchGoal.ratio(variants[engine], variants[cf], .median)
    }
}

/// One loop (or baseline) measured on a workload.
struct BenchVariant {
    enum Role: String {
        /// LoopEngine: what the goals judge.
        case engine
        /// The real CFRunLoop.
        case cf
        /// A floor made of bare system calls, or another yardstick (CF↔CF).
        case baseline
        /// Another engine configuration, shown for context only.
        case reference
    }

    var name: String
    var role: Role
    var figure = BenchFigure()

    var isMeasured: Bool { !figure.isEmpty }

    func value(_ statistic: BenchGoal.Statistic) -> Double? {
        guard isMeasured else { return nil }
        switch statistic {
        case .median: return figure.median
        case .p99: return figure.p99
        }
    }
}

/// A goal of the issue: the engine's figure at most `factor` times another variant's (or at most `factor`).
struct BenchGoal {
    enum Statistic: String {
        case median, p99
    }

    var statistic: Statistic
    /// The variant compared with; nil for an absolute bound in the row's unit.
    var against: Int?
    var factor: Double
    /// How the goal reads in the table: `median ≤ 0.25× CF`.
    var text: String
    /// Multiplies the ratio before it is judged and shown: the scale rows compare totals, and their figures are per
    /// item (the large size has `ratioScale` times the items of the small one).
    var ratioScale = 1.0

    /// The engine's ratio to the other variant (or its figure, for an absolute bound), and whether that meets the
    /// goal; nils when a figure it needs is missing (or the other figure is zero).
    func evaluate(in row: BenchRow) -> (achieved: Double?, met: Bool?) {
        guard let engine = row.index(of: .engine), let value = row.variants[engine].value(statistic) else {
            return (nil, nil)
        }
        guard let against else { return (value, value <= factor) }
        guard let ratio = Self.ratio(row.variants[engine], row.variants[against], statistic) else { return (nil, nil) }
        let scaled = ratio * ratioScale
        return (scaled, scaled <= factor)
    }

    static func ratio(_ top: BenchVariant, _ bottom: BenchVariant, _ statistic: Statistic) -> Double? {
        guard let a = top.value(statistic), let b = bottom.value(statistic), b > 0, a.isFinite, b.isFinite else {
            return nil
        }
        return a / b
    }
}
#endif
