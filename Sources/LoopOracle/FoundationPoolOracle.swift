import Dispatch
import Foundation
import LoopEngine

/// Why the pool oracle could not produce a trace.
public enum FoundationPoolOracleError: Error, Sendable, CustomStringConvertible {
    /// The scenario uses something the pool oracle cannot run (see ``FoundationPoolOracle/unsupportedReason(_:)``).
    case unsupported(String)
    /// The programs, outside events and operations had not ended when the time limit passed. `partialTrace` is the
    /// trace up to that moment; everything was then cancelled, resumed and finished so no thread stays blocked.
    case timedOut(limit: Duration, partialTrace: [LoopEvent])

    public var description: String {
        switch self {
        case .unsupported(let reason): "unsupported by the Foundation pool oracle: \(reason)"
        case .timedOut(let limit, let trace): "the scenario did not end within \(limit) (\(trace.count) events so far)"
        }
    }
}

/// Runs the pool part of a scenario on real `Foundation.OperationQueue`s (swift-corelibs-foundation), in real time,
/// and records a trace in the engine's vocabulary so that ``PoolComparison`` can hold it against the engine's.
///
/// Every scenario thread is a fresh `Thread` doing its program; outside events happen on threads of their own at
/// their times. A program may use the pool actions, `work` (a real sleep) and `note`; nothing else (there is no
/// run loop here). Each queue is an `OperationQueue` with its name, `maxConcurrentOperationCount` (nil: the
/// default, -1) and `isSuspended`; each operation an `Operation` subclass with its `queuePriority` and
/// `addDependency` calls, made before it is added - a dependency on an operation of another queue is on the very
/// object that queue runs (corelibs readies the dependent and reschedules its queue when that one finishes). `cancel`, `cancelAllOperations`, `isSuspended`,
/// `maxConcurrentOperationCount` and `waitUntilAllOperationsAreFinished` are called as the actions say.
///
/// The trace:
/// - `opAdd` (thread = the queue), recorded just before `addOperation`;
/// - `opStart` (thread = `worker N`, a label per real thread numbered in the order this run first saw it; detail
///   `first use of this thread` or `reused thread (k before)`), recorded in `start()` on the dispatch thread;
///   the first time a thread is seen a `threadCreate` precedes it. libdispatch owns those threads: a "first
///   use" thread may be older than the scenario, and their exits cannot be seen (no `threadExit`);
/// - `opCancel` (thread = the queue; detail `queued`, `executing: …`, `already cancelled`, `already finished: no
///   effect`), recorded in `cancel()`, so also for each operation `cancelAllOperations` cancels;
/// - `opFinish` (thread = the worker; detail `done`, `cancelled before it started`, `cancelled while running`),
///   recorded before the operation turns `isFinished`, so before the queue readies a dependent or starts the
///   next one;
/// - `queue` (thread = the queue): `suspended`, `resumed`, `limit` (detail N, or `default (libdispatch
///   decides)`), `cancelAll`, `waitAll`; `note`s. A raised limit or a resume is recorded before the queue is
///   told, a lowered limit or a suspension after, so a start never appears to break a limit the queue did not
///   have yet. No `opReady`: readiness is the queue's private business.
///
/// Facts about corelibs' `OperationQueue` (Sources/Foundation/Operation.swift) that the comparison relies on:
/// - it honours `queuePriority`: ready operations wait in one FIFO list per level, and `_schedule()` walks the
///   levels from `veryHigh` down, handing ready operations to its concurrent dispatch queue while fewer than
///   `maxConcurrentOperationCount` are dispatched. So a burst added while suspended starts, after `isSuspended =
///   false`, highest priority first and in add order within a level; under a limit of 1 that order is exact.
///   Without suspension the first operation added to an idle queue starts at once, whatever comes after it.
/// - a cancelled operation that has not started stays in the queue until a free slot lets the queue dispatch it;
///   `start()` then sees `isCancelled` and finishes without running. In a suspended queue that happens only
///   after a resume (the engine finishes it at the cancel: same outcome, other time, and it can never be "never
///   finished" there).
/// - it calls `start()` on a dispatch worker whether or not `isAsynchronous` is true; the operation is finished
///   when it says so with the `isFinished` key (corelibs has no real KVO: `didChangeValue(forKey:)` calls the
///   queue's observer directly, and `willChangeValue` does nothing).
///
/// So the oracle's operations implement `start()` themselves, as a concurrent operation does, with their own
/// `isExecuting`/`isFinished` reported through `didChangeValue(forKey:)`: that is what lets the trace record the
/// start and the finish at the exact moments, under the operation's lock, without racing a concurrent `cancel()`.
/// A `work` operation sleeps in `start()` in slices of its check interval and looks at its cancel flag between
/// slices; an `async` operation returns from `start()` executing and finishes at the `finish OP` action (a message
/// that came before the start waits for it), at the server's reply `replyAfter` after its start (a dispatch
/// timer), or at a cancel.
public enum FoundationPoolOracle {
    /// How long everything must stay still, after the programs and outside events ended, for the operations not
    /// finished then to count as never finishing (a suspended queue, a limit of 0, an async operation nobody
    /// finishes).
    public static let defaultSettle: Duration = .milliseconds(300)

    /// Runs the pool part of `scenario` on Foundation's `OperationQueue` and returns its trace.
    ///
    /// It ends when the programs and the outside events have ended and every operation added has finished, or
    /// nothing has happened for `settle` while no `work` operation executes.
    ///
    /// - Throws: ``FoundationPoolOracleError/unsupported(_:)``; ``FoundationPoolOracleError/timedOut(limit:partialTrace:)``
    ///   after `timeLimit`.
    public static func run(
        _ scenario: Scenario, timeLimit: Duration = .seconds(10), settle: Duration = defaultSettle
    ) throws -> [LoopEvent] {
        if let reason = unsupportedReason(scenario) { throw FoundationPoolOracleError.unsupported(reason) }
        let run = FoundationPoolRun(scenario)
        let deadline = OracleClock.now().addingReportingOverflow(max(timeLimit.nanosecondsClamped, 0))
        let end = deadline.overflow ? Int64.max : deadline.partialValue
        let group = DispatchGroup()
        for spec in scenario.threads {
            group.enter()
            let thread = Thread {
                FoundationPoolThread(run: run, name: spec.name).perform(spec.program)
                group.leave()
            }
            thread.name = "loopviz pool oracle: \(spec.name)"
            thread.start()
        }
        startOutside(scenario, run: run, group: group)

        let interval = timeLimit.dispatchInterval
        if group.wait(timeout: interval == .never ? .distantFuture : .now() + interval) == .success {
            let settleNanoseconds = max(settle.nanosecondsClamped, 0)
            while OracleClock.now() < end {
                if run.isSettled(quietFor: settleNanoseconds) {
                    let events = run.trace.freeze()
                    run.cleanUp()
                    return events
                }
                OracleClock.sleep(until: OracleClock.now() + 10_000_000) { true }
            }
        }
        let partial = run.trace.freeze()
        run.cleanUp()
        _ = group.wait(timeout: .now() + .seconds(2))
        throw FoundationPoolOracleError.timedOut(limit: timeLimit, partialTrace: partial)
    }

    /// One thread per distinct time of the outside events for the scenario's threads; each sleeps until that time
    /// from the start, then performs the events of that time in declaration order.
    private static func startOutside(_ scenario: Scenario, run: FoundationPoolRun, group: DispatchGroup) {
        let threadNames = Set(scenario.threads.map(\.name))
        // An event for a thread the scenario does not have addresses nobody (as in the engine).
        let addressed = scenario.outside.filter { threadNames.contains($0.thread) }
        for (time, events) in OutsideEvent.groupedByTime(addressed) {
            let (deadline, overflow) = run.trace.origin.addingReportingOverflow(max(time.nanosecondsClamped, 0))
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                guard OracleClock.sleep(until: overflow ? .max : deadline, while: { !run.isHalted }) else { return }
                for event in events {
                    FoundationPoolThread(run: run, name: event.thread).perform(event.actions, outside: true)
                }
            }
            thread.name = "loopviz pool oracle: outside at \(LoopInstant.zero + time)"
            thread.start()
        }
    }

    /// Why `scenario` cannot run on Foundation's `OperationQueue` here, or nil when it can.
    public static func unsupportedReason(_ scenario: Scenario) -> String? {
        guard !scenario.queues.isEmpty else {
            return "no operation queue (scenarios without queues are compared with the real CFRunLoop)"
        }
        for queue in scenario.queues {
            if let limit = queue.limit, limit < 0 {
                return "queue \(queue.name) has limit \(limit) (Foundation traps on a negative limit)"
            }
        }
        let threadNames = Set(scenario.threads.map(\.name))
        for thread in scenario.threads {
            if thread.isMain {
                return "thread \(thread.name) is the main thread (the pool oracle runs programs on fresh threads)"
            }
            if let item = thread.items.first {
                return "thread \(thread.name) has run loop item \(item.name) (the pool oracle runs no run loop)"
            }
            if let mode = thread.commonModes.first {
                return "thread \(thread.name) makes mode \(mode.rawValue) common (the pool oracle runs no run loop)"
            }
            if let reason = firstUnsupported(thread.program) { return reason }
        }
        for event in scenario.outside where threadNames.contains(event.thread) {
            if let reason = firstUnsupported(event.actions) { return reason }
        }
        return nil
    }

    private static func firstUnsupported(_ actions: [Action]) -> String? {
        // A detached thread's body is walked into; every other action with a body is refused as a whole.
        Action.first(in: actions) { action in
            switch action {
            case .work, .note, .addOperation, .cancelOperation, .cancelAll, .setSuspended, .finishOperation,
                .waitUntilAllFinished, .detach:
                return nil
            case .setLimit(let queue, let limit):
                guard let limit, limit < 0 else { return nil }
                return "limit \(queue) \(limit) (Foundation traps on a negative limit)"
            default:
                return "\(word(action)) (the pool oracle runs no run loop: programs may only use operation queues, "
                    + "work and notes)"
            }
        }
    }

    /// A short name for an action a pool scenario may not use.
    private static func word(_ action: Action) -> String {
        switch action {
        case .signal(let name): "signal \(name)"
        case .send(let name, _): "send \(name)"
        case .sendTo(let thread, let port, _): "send \(port) on \(thread)"
        case .start(let thread): "start \(thread)"
        case .wakeUp: "wakeUp"
        case .stop: "stop"
        case .stopMode(let mode): "stopMode \(mode.rawValue)"
        case .add(let name, _): "add \(name)"
        case .remove(let name, _): "remove \(name)"
        case .invalidate(let name): "invalidate \(name)"
        case .setNextFireDate(let name, _): "setNextFireDate \(name)"
        case .fire(let name): "fire \(name)"
        case .performBlock(let name, _, _): "perform block \(name)"
        case .mainQueue(let name, _): "mainQueue \(name)"
        case .mainActorTask(let name, _): "mainactor \(name)"
        case .await: "await"
        case .asyncAfter(let name, _, _): "asyncafter \(name)"
        case .addCommonMode(let mode): "addCommonMode \(mode.rawValue)"
        case .run: "a run of the loop"
        case .setFlag(let flag): "set flag \(flag)"
        case .assign(let reference, let value): "\(value ? "set" : "clear") \(reference.key)"
        case .ifHolds: "an if"
        case .dealloc(let owner, _): "dealloc \(owner)"
        case .performOn(_, let task, _, _): "perform \(task) on a thread"
        case .performOrdered(let task, _, _, _, _): "perform \(task) order"
        case .cancelPerforms: "cancelPerform"
        case .performDelayed(let task, _, _, _, _): "perform \(task) afterDelay"
        case .cancelDelayedPerforms: "cancelPrevious"
        case .query(let question): "query \(question.words)"
        case .post(let command, let source): "post \(command) to \(source)"
        case .wakeUpThread(let thread): "wakeUp on \(thread)"
        case .addOn(let thread, let name, _): "add \(name) on \(thread)"
        case .removeOn(let thread, let name, _): "remove \(name) on \(thread)"
        case .work, .note, .detach, .addOperation, .cancelOperation, .cancelAll, .setSuspended, .setLimit,
            .finishOperation,
            .waitUntilAllFinished:
            "a pool action"
        }
    }
}
