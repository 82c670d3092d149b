import CoreFoundation
import Dispatch
import Foundation
import LoopEngine

/// Why the oracle could not produce a trace.
public enum CFOracleError: Error, Sendable, CustomStringConvertible {
    /// The scenario uses something the real CFRunLoop on Linux cannot express (see ``CFOracle/unsupportedReason(_:)``).
    case unsupported(String)
    /// Creating the scenario's items failed (an eventfd could not be created).
    case setUpFailed(String)
    /// The scenario threads' programs had not ended when the time limit passed. `partialTrace` is the trace up to
    /// that moment; the loops were then stopped from outside.
    case timedOut(limit: Duration, partialTrace: [LoopEvent])
    /// The trace reached `maxEvents` events before the program ended; the loop was then stopped from outside.
    case reachedEventLimit(Int, partialTrace: [LoopEvent])

    public var description: String {
        switch self {
        case .unsupported(let reason): "unsupported by the CF oracle: \(reason)"
        case .setUpFailed(let reason): "the CF oracle could not set the scenario up: \(reason)"
        case .timedOut(let limit, let trace): "the scenario did not end within \(limit) (\(trace.count) events so far)"
        case .reachedEventLimit(let limit, _): "the real CFRunLoop's run reached the event budget of \(limit) events"
        }
    }
}

#if os(Linux)
/// Runs scenarios on the real CFRunLoop (swift-corelibs-foundation) so that differential tests can compare its
/// trace with the engine's.
///
/// The trace uses the engine's vocabulary: `runStart`/`result` around each direct `CFRunLoopRunInMode` call
/// (`RunCall.inMode`) - none for the wrappers `CFRunLoopRun()` and Foundation's `run(mode:before:)`/`run()`, whose
/// inner calls cannot be seen; the six activities, recorded by a tracer observer (order `CFIndex.min`, all
/// activities) registered in every mode the scenario mentions before its items are added; the callouts `source0`,
/// `source1`, `timer`, `block`, `observer` (detail: the activity), `mainQueue` and `perform`, recorded before the
/// callout's script runs; and `note`. Times are CLOCK_MONOTONIC since the scenario start, one clock for every
/// thread; `depth` and `mode` come from the oracle's own count of each thread's run calls; `iteration` is always 0
/// (unknown).
///
/// Every scenario thread is a real thread: a secondary thread is a fresh `Thread`; the main thread's spec
/// (`thread NAME main`) runs on the process's main thread, so its loop is `CFRunLoopGetMain()` and libdispatch's
/// main queue drains there (docs/cfrunloop.md §14). `perform … on THREAD` is built as Darwin's Foundation does it
/// (``OraclePerformer``); `detach` and `start` start a real thread; `send P on THREAD` writes to that thread's port.
/// Where permitted the oracle's threads run under `SCHED_FIFO` (``OracleScheduling``), so that a loaded machine's
/// scheduling delays do not pile up along a chain of hand-overs.
public enum CFOracle {
    /// How long a scenario thread gets to notice a stop after its time limit before the oracle gives up on it.
    static let haltGrace: Duration = .seconds(2)

    /// How many main-thread scenarios this process has run: each gets fresh names for its own modes on the main
    /// thread's loop, which outlives it.
    private static let mainRuns = LoopLocked(0)

    /// Runs `scenario` on the real CFRunLoop in real time, each thread on a real thread, and returns its trace
    /// (every thread's events, in the order they happened).
    ///
    /// A scenario with a main thread must be run from the process's main thread (``canRunMainThread``): its program
    /// runs on the caller, and a helper thread keeps the time.
    ///
    /// - Parameter horizon: the scenario's own end (`until`): the run is stopped there, as the engine's is, and
    ///   the trace up to it is the result. Nil: the run ends when every program has.
    /// - Throws: ``CFOracleError/unsupported(_:)`` for what CF on Linux cannot express (see
    ///   ``unsupportedReason(_:)``); ``CFOracleError/timedOut(limit:partialTrace:)`` when the programs have not
    ///   ended after `timeLimit` (the loops are then stopped from outside; the call returns within about two more
    ///   seconds even if a thread never ends). ``CFOracleError/reachedEventLimit(_:partialTrace:)`` when the trace
    ///   reaches `maxEvents` first (stopped the same way, so that a runaway scenario costs neither the whole time
    ///   limit nor unbounded memory).
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), maxEvents: Int = .max, horizon: Duration? = nil
    ) throws -> [LoopEvent] {
        if let reason = unsupportedReason(scenario) { throw CFOracleError.unsupported(reason) }
        if scenario.hasAsyncMain, let process = asyncMainProcess.withLock({ $0 }) {
            // Its end is `exit(0)`: a process of its own (``runAsyncMainEndingProcess``).
            return try process(scenario, timeLimit, maxEvents, horizon)
        }
        let usesMain = scenario.threads.contains(where: \.isMain)
        let prefix: String
        if usesMain {
            #if os(Linux)
            if let problem = OracleHeadroom.problem(forNewModes: scenario.mentionedModes.count) {
                throw CFOracleError.setUpFailed(problem)
            }
            #endif
            let run = mainRuns.withLock { count in
                count += 1
                return count
            }
            prefix = "loopviz.\(run)."
        } else {
            prefix = ""
        }
        let world = OracleWorld(scenario, maxEvents: maxEvents, mainModePrefix: prefix)
        startSecondaryThreads(of: world)
        let limit = horizon.map { min($0, timeLimit) } ?? timeLimit
        let ending: Ending
        if let main = scenario.threads.first(where: \.isMain) {
            let verdict = LoopLocked<Ending?>(nil)
            let kept = DispatchSemaphore(value: 0)
            let keeper = Thread {
                OracleScheduling.raiseCurrentThread(to: OracleScheduling.keeperPriority)
                world.waitUntilStarted()
                let ending = supervise(world, limit: limit)
                verdict.withLock { $0 = ending }
                kept.signal()
            }
            keeper.name = "loopviz oracle: time keeper"
            keeper.start()
            OracleScheduling.raised(to: OracleScheduling.scenarioPriority) { world.runDeclared(main) }
            kept.wait()
            ending = verdict.withLock { $0 } ?? .ended
        } else {
            ending = OracleScheduling.raised(to: OracleScheduling.keeperPriority) {
                world.start()
                return supervise(world, limit: limit)
            }
        }
        world.finish()
        // The trace ends with the programs: what the main loop still holds (a main-queue block or a block no run
        // took) runs in the settling below, after the scenario, as the engine never runs it.
        let events = world.log.events
        if usesMain { withExtendedLifetime(world) { settleMainLoop(waitingFor: world.mainJobs) } }
        if let error = world.setUpFailure { throw error }
        return try trace(of: ending, events: events, world: world, timeLimit: timeLimit, horizon: horizon)
    }

    /// The trace a run that ended so gives, or the error it is.
    static func trace(
        of ending: Ending, events: [LoopEvent], world: OracleWorld, timeLimit: Duration, horizon: Duration?
    ) throws -> [LoopEvent] {
        switch ending {
        case .ended:
            if world.log.reachedLimit {
                throw CFOracleError.reachedEventLimit(world.log.maxEvents, partialTrace: events)
            }
            return events
        case .overBudget(let partial):
            throw CFOracleError.reachedEventLimit(world.log.maxEvents, partialTrace: partial)
        case .outOfTime(let partial):
            if let horizon, horizon <= timeLimit {
                // The scenario's own end, as the engine stops there: what happened up to it.
                return partial.filter { $0.time <= LoopInstant.zero + horizon }
            }
            throw CFOracleError.timedOut(limit: timeLimit, partialTrace: partial)
        }
    }

    /// Starts a real thread for each declared thread of `world` but the main one, which runs on the caller.
    static func startSecondaryThreads(of world: OracleWorld) {
        for spec in world.atStart where !spec.isMain {
            let thread = Thread {
                OracleScheduling.raiseCurrentThread(to: OracleScheduling.scenarioPriority)
                world.runDeclared(spec)
            }
            thread.name = "loopviz oracle: \(spec.name)"
            thread.start()
        }
    }

    /// Whether ``run(_:timeLimit:maxEvents:horizon:)`` may run a main-thread scenario from here: only on the
    /// process's main thread. (Under `swift test` on Linux the tests run elsewhere and libdispatch's `dispatch_main`
    /// parks the main thread, handing the main queue to a worker, so nothing can hop onto it: run `loopviz
    /// compare`, whose commands run on the main thread.)
    public static var canRunMainThread: Bool { Thread.isMainThread }

    /// How long the settling waits for a main-thread scenario's pending main-actor jobs (a sleep or an asyncAfter
    /// due after its end): longer than any sleep a lesson or the fuzzer makes.
    static let mainJobsGrace: Duration = .seconds(2)

    enum Ending {
        case ended
        case overBudget([LoopEvent])
        case outOfTime([LoopEvent])
    }

    /// Waits for every thread of `world` to end; when `limit` passes or the trace reaches its budget first, halts
    /// it and keeps stopping its loops until the threads notice (every action is skipped from then on).
    static func supervise(_ world: OracleWorld, limit: Duration) -> Ending {
        // Waits in slices, so that a trace at its budget is noticed within one.
        let (end, overflow) = world.log.origin.addingReportingOverflow(max(limit.nanosecondsClamped, 0))
        let deadline = overflow ? Int64.max : end
        var overBudget = false
        while !overBudget && OracleClock.now() < deadline {
            let slice = min(deadline - OracleClock.now(), 20_000_000)
            if world.threads.wait(timeout: .now() + .nanoseconds(Int(max(slice, 0)))) == .success {
                return .ended
            }
            overBudget = world.log.reachedLimit
        }
        let partial = world.halt()
        let giveUp = DispatchTime.now() + haltGrace.dispatchInterval
        while DispatchTime.now() < giveUp {
            world.stopEveryLoop()
            if world.threads.wait(timeout: .now() + .milliseconds(10)) == .success { break }
        }
        return overBudget ? .overBudget(partial) : .outOfTime(partial)
    }

    /// After a main-thread scenario: the main thread's loop outlives it, so consume what it left there - a pending
    /// wake-up, main-queue blocks, a timer port still armed in the default mode (CF never disarms it on Linux,
    /// docs/cfrunloop.md §15) - with a due dummy timer and a few polling runs, none of them traced. First the
    /// scenario's main-actor tasks and asyncAfter handlers still pending (`jobs`: a `Task.sleep` past the scenario's
    /// end) run their last job, which does nothing then: at most ``mainJobsGrace``, the default mode run meanwhile
    /// (a job that outlived its world would read a freed world; seed 1, cases 50 to 99 run together).
    private static func settleMainLoop(waitingFor jobs: DispatchGroup) {
        let giveUp = DispatchTime.now() + mainJobsGrace.dispatchInterval
        while jobs.wait(timeout: .now()) == .timedOut, DispatchTime.now() < giveUp {
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.01, true)
        }
        let main = CFRunLoopGetMain()
        let dummy = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent() - 1, 0, 0, 0) { _ in }
        CFRunLoopAddTimer(main, dummy, kCFRunLoopDefaultMode)
        for _ in 0..<4 { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, false) }
        CFRunLoopTimerInvalidate(dummy)
    }

    /// Why `scenario` cannot run on the real CFRunLoop here, or nil when it can.
    public static func unsupportedReason(_ scenario: Scenario) -> String? {
        if let main = scenario.threads.first(where: \.isMain), main.isAsyncMain, !canRunAsyncMain {
            return "thread \(main.name) is an async main, whose end is exit(0): the oracle runs it in a process of "
                + "its own, which `loopviz compare` starts"
        }
        return unsupportedReason(scenario, mainThreadAvailable: canRunMainThread)
    }

    /// Why `scenario` could not run on the real CFRunLoop from a caller that is (`mainThreadAvailable`) or is not
    /// the process's main thread: the fuzzer judges its cases as `loopviz fuzz` runs them, on the main thread and
    /// with an async main in a process of its own, so that a seed makes the same cases under `swift test` too.
    public static func unsupportedReason(_ scenario: Scenario, mainThreadAvailable: Bool) -> String? {
        if scenario.profile != .linux {
            return "the \(scenario.profile.rawValue) profile (the real CFRunLoop here is the Linux one)"
        }
        let main = scenario.threads.first(where: \.isMain)
        if let main, !mainThreadAvailable {
            return "thread \(main.name) is the main thread, and the oracle was called off the process's main thread "
                + "(run `loopviz compare`, which calls it on the main thread)"
        }
        for event in scenario.outside where scenario.threads.contains(where: { $0.name == event.thread }) {
            // Only a run the outside thread itself makes: a nested one (in a block, a task) runs on its loop's thread.
            for case .run in event.actions {
                return "a run in an outside event (it would run the outside thread's own loop)"
            }
        }
        return scenario.firstAction(addressedOnly: true) { action in
            switch action {
            case .mainQueue(let name, _) where main == nil:
                return "mainQueue \(name) without a main thread (only the main thread's loop drains the main queue)"
            case .mainActorTask(let name, _) where main == nil, .asyncAfter(let name, _, _) where main == nil:
                return "\(name) without a main thread (only the main thread's loop drains the main queue)"
            case .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit, .finishOperation,
                .waitUntilAllFinished:
                return "an operation queue (pools are compared with Foundation's OperationQueue instead)"
            case .stopMode where CFBridge.stopModeFunction() == nil:
                return "stopMode (_CFRunLoopStopMode is not exported by libFoundation.so)"
            default:
                return nil
            }
        }
    }
}

#else
/// The CF oracle is built on Linux only: it is the Linux CFRunLoop (swift-corelibs-foundation) that the engine is
/// compared with, and its version-1 sources are eventfds. Here CFRunLoop is Apple's and a version-1 source's port a
/// Mach port, so every scenario is refused, with the reason.
public enum CFOracle {
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), maxEvents: Int = .max, horizon: Duration? = nil
    ) throws -> [LoopEvent] {
        throw CFOracleError.unsupported(reason)
    }

    public static var canRunMainThread: Bool { false }

    /// Why `scenario` cannot run on the real CFRunLoop here: on this platform, never.
    public static func unsupportedReason(_ scenario: Scenario) -> String? { reason }

    /// Why `scenario` cannot run on the real CFRunLoop here, whoever calls: on this platform, never.
    public static func unsupportedReason(_ scenario: Scenario, mainThreadAvailable: Bool) -> String? { reason }

    private static let reason = "the CF oracle is built on Linux only (swift-corelibs-foundation's CFRunLoop)"
}
#endif
