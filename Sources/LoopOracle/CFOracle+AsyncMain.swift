#if os(Linux)
import Foundation
import LoopEngine

/// An async `main` on the real runtime (docs/concurrency.md, "The async main"). Its end is `exit(0)` and, on
/// Linux, its first `await` sends the main thread into `dispatch_main()`, never to come back: neither can happen in
/// a process that runs other scenarios after it. So such a scenario runs in a process of its own, which the
/// executable starts (``setAsyncMainProcess(_:)``) and which calls ``runAsyncMainEndingProcess(_:timeLimit:maxEvents:horizon:deliver:)``.
extension CFOracle {
    /// Runs an async-main scenario in another process and returns its trace, with ``run(_:timeLimit:maxEvents:horizon:)``'s
    /// arguments and errors.
    public typealias AsyncMainProcess =
        @Sendable (_ scenario: Scenario, _ timeLimit: Duration, _ maxEvents: Int, _ horizon: Duration?) throws ->
        [LoopEvent]

    static let asyncMainProcess = LoopLocked<AsyncMainProcess?>(nil)
    /// This process is one ``runAsyncMainEndingProcess(_:timeLimit:maxEvents:horizon:deliver:)`` runs in.
    private static let isAsyncMainProcess = LoopLocked(false)

    /// How ``run(_:timeLimit:maxEvents:horizon:)`` runs a scenario whose main thread is an async `main`; without
    /// one such a scenario is refused (``unsupportedReason(_:)`` says why).
    public static func setAsyncMainProcess(_ process: AsyncMainProcess?) {
        asyncMainProcess.withLock { $0 = process }
    }

    /// Whether an async main can run from here: in a process of its own, or by starting one.
    static var canRunAsyncMain: Bool {
        asyncMainProcess.withLock { $0 } != nil || isAsyncMainProcess.withLock { $0 }
    }

    /// Runs async-main `scenario` in this process, which it ends, from the process's main thread: the other
    /// threads start as in ``run(_:timeLimit:maxEvents:horizon:)``, the main thread runs the async `main` as the
    /// compiled entry point does, and when it returns (`exit(0)`), or the time limit, the budget or the horizon
    /// comes first, `deliver` gets the trace or the error, once, and the process exits with status 0.
    public static func runAsyncMainEndingProcess(
        _ scenario: Scenario, timeLimit: Duration, maxEvents: Int, horizon: Duration?,
        deliver: @escaping @Sendable (Result<[LoopEvent], any Error>) -> Void
    ) -> Never {
        isAsyncMainProcess.withLock { $0 = true }
        let delivered = LoopLocked(false)
        let finish: @Sendable (Result<[LoopEvent], any Error>) -> Never = { result in
            let first = delivered.withLock { done in
                defer { done = true }
                return !done
            }
            if first { deliver(result) }
            // A second caller waits for the first one's exit.
            while !first { sleep(1) }
            exit(0)
        }
        if let reason = unsupportedReason(scenario, mainThreadAvailable: Thread.isMainThread) {
            finish(.failure(CFOracleError.unsupported(reason)))
        }
        guard let main = scenario.threads.first(where: \.isMain), main.isAsyncMain else {
            finish(.failure(CFOracleError.unsupported("the scenario has no async main")))
        }
        let world = OracleWorld(scenario, maxEvents: maxEvents, mainModePrefix: "")
        world.exitProcess = { [unowned world] in
            let events = world.halt()
            finish(
                Result { try trace(of: .ended, events: events, world: world, timeLimit: timeLimit, horizon: horizon) })
        }
        startSecondaryThreads(of: world)
        let limit = horizon.map { min($0, timeLimit) } ?? timeLimit
        let keeper = Thread {
            OracleScheduling.raiseCurrentThread(to: OracleScheduling.keeperPriority)
            world.waitUntilStarted()
            let ending = supervise(world, limit: limit)
            if let error = world.setUpFailure { finish(.failure(error)) }
            let events = world.log.events
            finish(
                Result { try trace(of: ending, events: events, world: world, timeLimit: timeLimit, horizon: horizon) })
        }
        keeper.name = "loopviz oracle: time keeper"
        keeper.start()
        // Returns only if the program could not start (a set-up failure): the keeper then ends the process.
        OracleScheduling.raised(to: OracleScheduling.scenarioPriority) { world.runDeclared(main) }
        while true { sleep(1) }
    }
}
#endif
