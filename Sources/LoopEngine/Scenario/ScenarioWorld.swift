/// What the scenario interpreter needs from the world it runs in: the virtual world, or real threads on the real
/// backend (`RealScenarioRunner`). Everything else goes through the loops, which are the same core in both.
protocol ScenarioWorld: PoolWorld {
    /// True once the world stops: every program and callout script then stops acting.
    var isHalted: Bool { get }
    /// The interpreter is between two steps of a thread (a callout or a block starts, a program or script goes
    /// on to its next action), without the engine lock: outside events due now (``VirtualWorld/perform(after:_:)``)
    /// may happen here, as another thread's call could.
    func otherThreadsMayAct()
    /// The scenario's process exits (`exit(0)` after an async `main`): the world stops now, every thread with it.
    func exitProcess()
}

extension ScenarioWorld {
    func otherThreadsMayAct() {}
}

extension VirtualWorld: ScenarioWorld {
    var clock: any LoopClock { self }
    var kernel: any LoopWaiter { self }

    func exitProcess() {
        if haltReason == nil { haltReason = .exited }
    }

    /// Virtual time stops moving once the world halts, so `spend` returns at once then.
    func work(_ duration: Duration) { spend(duration) }

    /// The interpreter is between two steps without the engine lock: another thread may act now (a poke; and,
    /// when a schedule says so, another thread that could go on now, or an outside event due now).
    func otherThreadsMayAct() {
        performDuePokes()
        yieldPoint()
    }

    func startThread(
        named name: String, sink: (any TraceSink)?, _ body: @escaping (RunLoopCore) -> Void
    )
        -> RunLoopCore
    {
        let loop = RunLoopCore(name: name, clock: self, waiter: self, isMainThread: false)
        loop.sink = sink
        bind(loop, to: spawnThread(named: name) { body(loop) })
        return loop
    }
}
