#if os(Linux)
/// What one variant of one workload measured: a figure per round, and, where the workload has a distribution
/// (latencies), every sample of every round.
///
/// The median and p99 come from the pooled samples when there are some, else the median is that of the rounds.
/// The min–max range is always over the rounds: it says how much a figure moved between runs, which is what
/// makes it trustworthy or not on a noisy machine.
struct BenchFigure {
    /// One figure per round, in the order the rounds ran.
    var rounds: [Double] = []
    /// Pooled samples (sorted lazily); empty for workloads that yield one figure per round.
    var samples: [Double] = []

    /// A range of per-round figures wider than this (max / min) makes a figure noisy.
    static let noisySpread = 1.5

    var isEmpty: Bool { rounds.isEmpty }

    mutating func add(round figure: Double, samples more: [Double] = []) {
        rounds.append(figure)
        samples += more
    }

    var median: Double {
        samples.isEmpty ? Self.percentile(rounds.sorted(), 0.5) : Self.percentile(samples.sorted(), 0.5)
    }

    /// The 99th percentile of the pooled samples; nil without a distribution.
    var p99: Double? { samples.isEmpty ? nil : Self.percentile(samples.sorted(), 0.99) }

    var minimum: Double { rounds.min() ?? .nan }
    var maximum: Double { rounds.max() ?? .nan }

    /// max / min of the rounds (1 when both are zero, infinity when only the minimum is).
    var spread: Double {
        guard let low = rounds.min(), let high = rounds.max() else { return .nan }
        if low > 0 { return high / low }
        return high == 0 ? 1 : .infinity
    }

    var isNoisy: Bool { spread > Self.noisySpread }

    /// Nearest-rank percentile of sorted values; NaN when there are none.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        if fraction == 0.5 {
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The median of `values` (NaN when empty).
    static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }
}
#endif
