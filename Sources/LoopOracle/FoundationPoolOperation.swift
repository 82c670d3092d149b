import Foundation
import LoopEngine

/// An operation of the pool oracle: a real `Operation` whose `start()` records the engine's events.
///
/// It implements `start()` itself with its own `isExecuting`/`isFinished`, announced through
/// `didChangeValue(forKey:)` - in swift-corelibs-foundation that call is the KVO: it runs the queue's observer
/// directly (`willChangeValue` does nothing). `isExecuting` makes the operation's internal state `executing` (so
/// a later `cancel()` does not re-ready it); `isFinished` readies its dependents, wakes `waitUntilFinished` and
/// tells the queue, which frees the slot and starts what may start. The `opFinish` event is recorded before that
/// announcement, so nothing that the finish allows can appear earlier in the trace.
///
/// Every decision (start or skip, cancel, finish) is taken under `state`'s lock together with its event, so a
/// `cancel()` racing `start()` is seen either before the start (cancelled before it started) or after (the
/// operation is executing).
final class FoundationPoolOperation: Operation, @unchecked Sendable {
    // @unchecked Sendable: Operation is; what this subclass adds is `let`s and a `LoopLocked`.

    private struct State {
        var spec = OperationSpec(name: "")
        var added = false
        var cancelled = false
        var started = false
        /// Claimed by the one call that finishes the operation.
        var finishing = false
        var finished = false
        /// A `finish` message that came before the start (the socket already had data).
        var messageWaiting = false
        /// The label of the thread that started it.
        var worker: String?
    }

    let queueName: String
    /// Strong: a dispatch thread may still start the operation after the oracle returned; the run lets its
    /// operations go in `cleanUp()`, which breaks the cycle.
    private let run: FoundationPoolRun
    private let state = LoopLocked(State())

    init(name: String, queue: String, run: FoundationPoolRun) {
        queueName = queue
        self.run = run
        super.init()
        self.name = name
        state.withLock { $0.spec.name = name }
    }

    /// Sets what the operation does, before it is added (its first mention may have been as a dependency).
    func configure(_ spec: OperationSpec) {
        state.withLock { state in
            state.spec = spec
            state.added = true
        }
        queuePriority = Operation.QueuePriority(rawValue: spec.priority.rawValue) ?? .normal
    }

    var isAdded: Bool { state.withLock { $0.added } }

    /// True while a `work` operation executes: it will finish by itself.
    var isWorking: Bool {
        state.withLock { state in
            guard state.started, !state.finished, case .work = state.spec.body else { return false }
            return true
        }
    }

    private var operationName: String { state.withLock { $0.spec.name } }

    override var isAsynchronous: Bool {
        state.withLock { state in
            if case .async = state.spec.body { return true }
            return false
        }
    }

    override var isExecuting: Bool { state.withLock { $0.started && !$0.finished } }

    override var isFinished: Bool { state.withLock { $0.finished } }

    // MARK: - Starting

    /// Called by the queue on a dispatch thread.
    override func start() {
        let (worker, before) = run.worker(for: queueName)
        let begun: OperationSpec? = state.withLock { state in
            state.worker = worker
            if state.cancelled || run.isHalted { return nil }
            state.started = true
            run.trace.record(
                worker, .opStart, state.spec.name,
                fact: .thread(before == 0 ? .firstSeen : .reused(before: before)))
            return state.spec
        }
        guard let spec = begun else {
            finish(.cancelledBeforeStart)
            return
        }
        announceExecuting()
        switch spec.body {
        case .work(let duration, let checkEvery):
            work(duration, checkEvery: checkEvery)
        case .async:
            // The upload is under way; it ends with the socket callback (`finish OP`, or the server's reply
            // `replyAfter` after the start) or a cancel. A message that came before the start is read at once.
            if let reply = spec.replyAfter {
                let interval = reply.dispatchInterval
                if interval != .never {
                    DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in
                        if !run.isHalted { deliverMessage() }
                    }
                }
            }
            if state.withLock({ $0.messageWaiting }) { finish(.done) }
        }
    }

    /// Works for `duration` in slices of `checkEvery`, looking at the cancel flag between slices (not after the
    /// last one), as the engine's synchronous operation does. Check points are at fixed offsets from the start.
    private func work(_ duration: Duration, checkEvery: Duration?) {
        let total = max(duration.nanosecondsClamped, 0)
        let slice = checkEvery.map { max($0.nanosecondsClamped, 0) }.flatMap { $0 > 0 ? $0 : nil } ?? total
        let begin = OracleClock.now()
        var elapsed: Int64 = 0
        while elapsed < total && !run.isHalted {
            elapsed += min(slice, total - elapsed)
            OracleClock.sleep(until: begin + elapsed) { !self.run.isHalted }
            if elapsed < total && checkEvery != nil && state.withLock({ $0.cancelled }) {
                finish(.cancelledWhileRunning)
                return
            }
        }
        let cancelled = state.withLock { $0.cancelled }
        finish(cancelled ? .doneAfterLateCancel : .done)
    }

    // MARK: - Cancelling and the socket

    override func cancel() {
        let finishNow: Bool = state.withLock { state in
            let point: LoopEvent.CancelPoint
            var finishNow = false
            if state.finished || state.finishing {
                point = .alreadyFinished
            } else if state.cancelled {
                point = .alreadyCancelled
            } else {
                state.cancelled = true
                if !state.started {
                    point = .queued
                } else if case .async = state.spec.body {
                    // Cancelling the upload cancels its connection, whose callback finishes it.
                    point = .executingConnection
                    finishNow = true
                } else {
                    point = .executingNextCheck
                }
            }
            run.trace.record(queueName, .opCancel, state.spec.name, fact: .cancel(point))
            return finishNow
        }
        // Sets Foundation's own flag; for a queued operation it also drops its dependencies so the queue picks it
        // up (and `start()` skips it) as soon as a slot allows.
        super.cancel()
        if finishNow { finish(.cancelledWhileRunning) }
    }

    /// The socket callback of an asynchronous operation (`finish OP`): it finishes the operation if it executes;
    /// before the start the message waits for it.
    func deliverMessage() {
        enum Effect { case nothing, notAsync, finish(cancelled: Bool) }
        let effect: Effect = state.withLock { state in
            guard case .async = state.spec.body else { return .notAsync }
            if state.finished || state.finishing { return .nothing }
            guard state.started else {
                state.messageWaiting = true
                return .nothing
            }
            return .finish(cancelled: state.cancelled)
        }
        switch effect {
        case .nothing:
            break
        case .notAsync:
            run.trace.record(
                queueName, .note, fact: .note(.notAsynchronous(operationName)))
        case .finish(let cancelled):
            finish(cancelled ? .cancelledWhileRunning : .done)
        }
    }

    // MARK: - Finishing

    private func announceExecuting() {
        willChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isExecuting")
    }

    /// Records `opFinish` with `outcome` (once), then turns `isFinished` and tells the queue.
    private func finish(_ outcome: LoopEvent.FinishOutcome) {
        let claimed: Bool = state.withLock { state in
            guard !state.finishing else { return false }
            state.finishing = true
            run.trace.record(state.worker ?? queueName, .opFinish, state.spec.name, fact: .finish(outcome))
            return true
        }
        guard claimed else { return }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        state.withLock { $0.finished = true }
        didChangeValue(forKey: "isExecuting")
        didChangeValue(forKey: "isFinished")
    }
}
