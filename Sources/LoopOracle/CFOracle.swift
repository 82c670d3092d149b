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
    /// The scenario thread's program had not ended when the time limit passed. `partialTrace` is the trace up to
    /// that moment; the loop was then stopped from outside.
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
/// `source1`, `timer`, `block`, `observer` (detail: the activity), recorded before the callout's script runs; and
/// `note`. Times are CLOCK_MONOTONIC since the scenario start; `depth` and `mode` come from the oracle's own count
/// of run calls; `iteration` is always 0 (unknown).
public enum CFOracle {
    /// How long a scenario thread gets to notice a stop after its time limit before the oracle gives up on it.
    static let haltGrace: Duration = .seconds(2)

    /// Runs `scenario` on the real CFRunLoop on a fresh secondary thread, in real time, and returns its trace.
    ///
    /// - Throws: ``CFOracleError/unsupported(_:)`` for what CF on Linux cannot express (a main thread, more than one
    ///   thread, the darwin profile, `mainQueue`, a run from an outside event, `stopMode` without
    ///   `_CFRunLoopStopMode`); ``CFOracleError/timedOut(limit:partialTrace:)`` when the program has not ended after
    ///   `timeLimit` (the loop is then stopped from outside; the call returns within about two more seconds even
    ///   if the thread never ends).
    ///   ``CFOracleError/reachedEventLimit(_:partialTrace:)`` when the trace reaches `maxEvents` first (stopped the
    ///   same way, so that a runaway scenario costs neither the whole time limit nor unbounded memory).
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), maxEvents: Int = .max
    ) throws -> [LoopEvent] {
        if let reason = unsupportedReason(scenario) { throw CFOracleError.unsupported(reason) }
        let session = OracleSession()
        let spec = scenario.threads[0]
        let modes = scenario.mentionedModes
        let outside = scenario.outside.filter { $0.thread == spec.name }
        let thread = Thread {
            let origin = OracleClock.now()
            let host = OracleHost(
                spec: spec, owners: scenario.owners,
                trace: OracleTrace(loop: spec.name, origin: origin, maxEvents: maxEvents),
                originAbsolute: CFAbsoluteTimeGetCurrent())
            do {
                try host.setUp(modes: modes)
            } catch {
                host.finish()
                session.end(error: error)
                return
            }
            session.publish(host)
            host.startOutside(outside)
            host.perform(spec.program)
            host.finish()
            session.end(error: nil)
        }
        thread.name = "loopviz oracle: \(spec.name)"
        thread.start()

        // Waits in slices, so that a trace at its budget is noticed within one.
        let end = deadline(after: timeLimit)
        var overBudget = false
        while !overBudget && DispatchTime.now() < end {
            if session.done.wait(timeout: min(end, .now() + .milliseconds(20))) == .success {
                let events = try session.outcome()
                if session.host?.trace.reachedLimit == true {
                    throw CFOracleError.reachedEventLimit(maxEvents, partialTrace: events)
                }
                return events
            }
            overBudget = session.host?.trace.reachedLimit == true
        }
        // Time is up, or the budget: keep stopping the loop until the program notices (every action is skipped
        // from now on).
        let host = session.host
        let partial = host?.halt() ?? []
        let giveUp = DispatchTime.now() + haltGrace.dispatchInterval
        while DispatchTime.now() < giveUp {
            if let host {
                CFRunLoopStop(host.loop)
                CFRunLoopWakeUp(host.loop)
            }
            if session.done.wait(timeout: .now() + .milliseconds(10)) == .success { break }
        }
        if overBudget { throw CFOracleError.reachedEventLimit(maxEvents, partialTrace: partial) }
        throw CFOracleError.timedOut(limit: timeLimit, partialTrace: partial)
    }

    /// Why `scenario` cannot run on the real CFRunLoop here, or nil when it can.
    public static func unsupportedReason(_ scenario: Scenario) -> String? {
        if scenario.profile != .linux {
            return "the \(scenario.profile.rawValue) profile (the real CFRunLoop here is the Linux one)"
        }
        guard scenario.threads.count == 1 else {
            return "\(scenario.threads.count) threads (the oracle runs exactly one scenario thread)"
        }
        let thread = scenario.threads[0]
        if thread.isMain {
            return "thread \(thread.name) is the main thread (the oracle runs on a fresh secondary thread)"
        }
        var actions = thread.program + thread.items.flatMap { $0.script.map(\.action) }
        for event in scenario.outside where event.thread == thread.name {
            for action in event.actions {
                if case .run = action {
                    return "a run in an outside event (it would run the outside thread's own loop)"
                }
            }
            actions += event.actions
        }
        return firstUnsupported(actions)
    }

    private static func firstUnsupported(_ actions: [Action]) -> String? {
        for action in actions {
            switch action {
            case .mainQueue(let name, _):
                return "mainQueue \(name) (only the main thread services the main queue)"
            case .performOn(_, let task, _, _):
                return "perform \(task) on a thread (performSelector:onThread: is not in Foundation on Linux)"
            case .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit, .finishOperation,
                .waitUntilAllFinished:
                return "an operation queue (pools are compared with Foundation's OperationQueue instead)"
            case .detach(let task, _):
                return "detach \(task) (threads created on the way are not in the oracle)"
            case .start(let thread):
                return "start \(thread) (threads started on the way are not in the oracle)"
            case .sendTo(let thread, let port, _):
                return "send \(port) on \(thread) (the oracle runs one thread)"
            case .stopMode where CFBridge.stopModeFunction() == nil:
                return "stopMode (_CFRunLoopStopMode is not exported by libFoundation.so)"
            case .performBlock(_, _, let inner), .ifHolds(_, let inner), .dealloc(_, let inner):
                if let reason = firstUnsupported(inner) { return reason }
            default:
                break
            }
        }
        return nil
    }

    private static func deadline(after limit: Duration) -> DispatchTime {
        let interval = limit.dispatchInterval
        return interval == .never ? .distantFuture : .now() + interval
    }
}

/// What the calling thread and the scenario thread share.
final class OracleSession: Sendable {
    private struct State {
        var host: OracleHost?
        var error: (any Error)?
    }

    /// Signalled once the scenario thread has finished (or failed to set up).
    let done = DispatchSemaphore(value: 0)
    private let state = LoopLocked(State())

    var host: OracleHost? { state.withLock { $0.host } }

    func publish(_ host: OracleHost) {
        state.withLock { $0.host = host }
    }

    func end(error: (any Error)?) {
        state.withLock { $0.error = error }
        done.signal()
    }

    /// The trace of a finished scenario, or the error that ended it.
    func outcome() throws -> [LoopEvent] {
        let (host, error) = state.withLock { ($0.host, $0.error) }
        if let error { throw error }
        return host?.trace.events ?? []
    }
}
#else
/// The CF oracle is built on Linux only: it is the Linux CFRunLoop (swift-corelibs-foundation) that the engine is
/// compared with, and its version-1 sources are eventfds. Here CFRunLoop is Apple's and a version-1 source's port a
/// Mach port, so every scenario is refused, with the reason.
public enum CFOracle {
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), maxEvents: Int = .max
    ) throws -> [LoopEvent] {
        throw CFOracleError.unsupported(reason)
    }

    /// Why `scenario` cannot run on the real CFRunLoop here: on this platform, never.
    public static func unsupportedReason(_ scenario: Scenario) -> String? { reason }

    private static let reason = "the CF oracle is built on Linux only (swift-corelibs-foundation's CFRunLoop)"
}
#endif
