#if os(Linux)
extension BenchSuite {
    /// `recorder/overhead`: what LoopRecorder adds to an iteration of the real CFRunLoop.
    static func recorderGroup(_ settings: BenchSettings) -> BenchGroup {
        // Two events an iteration: a million iterations would write 250 MB; a tenth of them is enough.
        let iterations = min(settings.iterations, 100_000)
        let row = BenchRow(
            id: "recorder/overhead", workload: "recorder", title: "CFRunLoop iteration, LoopRecorder recording",
            unit: .nanoseconds, variants: [],
            goals: [BenchGoal(statistic: .median, against: 1, factor: 2, text: "median ≤ 2× unrecorded")])
        return BenchGroup(
            workload: "recorder", rows: [row],
            variants: [
                .init(name: "CF + LoopRecorder", role: .engine) {
                    [.init(figure: RecorderBench.cf(iterations: iterations, recorded: true).figure)]
                },
                .init(name: "CF", role: .cf) {
                    [.init(figure: RecorderBench.cf(iterations: iterations, recorded: false).figure)]
                },
            ])
    }
}
#endif
