import LoopEngine

/// The run-modes workload (issue 38): 100 timers every 1 ms, each in `modes` modes whose timer ports the loop
/// arms (every mode a run could wait on), only `default` run, on the virtual clock. CF moves a timer in each of
/// its modes and re-arms each mode's timer port at every fire (`__CFRepositionTimerInMode`); the engine moves the
/// modes no run is in as one resting group (`RunLoopCore+RestingModes.swift`), so a fire should cost about the
/// same in 1,000 modes as in one.
///
/// The figure is microseconds of the process's CPU time per timer fire, in steady state: the timers are added
/// and the loop runs `default` for 2 ms (the other modes rest after their first moves) before the clock starts;
/// then `default` runs for `milliseconds`. Adding 100,000 timer slots and the first moves are costs of their own,
/// paid once (docs/limits.md gives them). The row compares 1,000 modes (100 in `--quick`) with one.
enum RunModesBench {
    static let timers = 100
    static let fullModes = 1_000
    static let quickModes = 100
    /// How long `default` runs before the measured run.
    static let warmUp = 0.002

    #if os(Linux)
    /// Runs the workload once: microseconds of the process's CPU time per timer fire after the warm-up.
    static func run(modes: Int, milliseconds: Int) -> Double {
        let world = VirtualWorld(profile: .linux)
        world.horizon = .zero + .seconds(3_600)
        let loop = RunLoopCore(name: "T", clock: world, waiter: world)
        let names = [ModeName.default] + (1..<max(modes, 1)).map { ModeName("m\($0)") }
        var made: [LoopTimer] = []
        for index in 1...timers {
            let timer = LoopTimer(name: "t\(index)", fireDate: .zero + .nanoseconds(1), interval: .milliseconds(1)) {
                _ in
            }
            for name in names { loop.add(timer, to: name) }
            made.append(timer)
        }
        loop.run(mode: .default, seconds: warmUp)
        let firesBefore = made.reduce(0) { $0 + $1.fireCount }
        let start = BenchPlatform.processCPUTime()
        loop.run(mode: .default, seconds: Double(max(milliseconds, 1)) / 1_000)
        let elapsed = BenchPlatform.processCPUTime() - start
        let fires = made.reduce(0) { $0 + $1.fireCount } - firesBefore
        precondition(!world.isHalted, "the run-modes workload did not run to its end")
        return Double(elapsed) / 1_000 / Double(max(fires, 1))
    }
    #endif
}
