import Dispatch
import LoopEngine

/// One block of a scenario submitted to a real `DispatchQueue` (libdispatch), recording its start, cancel and
/// finish in the pool's vocabulary so that ``PoolComparison`` holds it against the engine's.
///
/// A plain block is `queue.async { … }`: nothing to cancel. A work item is a `DispatchWorkItem` submitted with
/// `queue.async(execute:)`; its `notify` block, which libdispatch runs once the queue has run - or skipped - the
/// item, records the skip of an item cancelled before its block began. What this relies on, checked on this
/// machine's libdispatch (swift-corelibs-libdispatch): `cancel()` before the queue reaches the item makes the queue
/// skip its block and go on to the next at once, and still run its `notify`; `cancel()` while the block runs only
/// sets `isCancelled`, and the block runs to its end.
///
/// `@unchecked Sendable`: everything mutable is in `state`; `item` is set in `init` and only read afterwards.
final class FoundationDispatchItem: @unchecked Sendable {
    private struct State {
        var started = false
        var finished = false
        var cancelRecorded = false
        /// The label of the thread that ran the block.
        var worker: String?
    }

    let name: String
    let queueName: String
    let kind: DispatchSubmission.Kind
    private let work: Duration
    private let state = LoopLocked(State())
    private var item: DispatchWorkItem?
    private unowned let run: FoundationPoolRun

    private static let notifyQueue = DispatchQueue(label: "loopviz pool oracle: work item notify")

    init(name: String, queue: String, kind: DispatchSubmission.Kind, work: Duration, run: FoundationPoolRun) {
        self.name = name
        queueName = queue
        self.kind = kind
        self.work = work
        self.run = run
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Its block runs now (a real sleep nothing could observe early: the settling waits for it).
    var isWorking: Bool { state.withLock { $0.started && !$0.finished } }

    /// `queue.async { block }` or `queue.async(execute: item)`.
    func submit(to queue: DispatchQueue) {
        switch kind {
        case .block:
            queue.async { [self] in body() }
        case .workItem:
            let item = DispatchWorkItem { [self] in body() }
            self.item = item
            // On a serial queue of its own, which libdispatch overcommits: `.global()` has about one thread per
            // core, which the sleeping blocks and operations of a busy test run can hold for a long time.
            item.notify(queue: Self.notifyQueue) { [self] in skippedIfNeverRan() }
            queue.async(execute: item)
        }
    }

    /// `item.cancel()` on a work item (the parser refuses a cancel of a plain block: it has no handle).
    func cancel() {
        guard let item else { return }
        state.withLock { state in
            let point: LoopEvent.CancelPoint =
                if state.finished {
                    .alreadyFinished
                } else if state.cancelRecorded {
                    .alreadyCancelled
                } else if state.started {
                    .workItemRunning
                } else {
                    .workItemQueued
                }
            state.cancelRecorded = true
            run.trace.record(queueName, .opCancel, name, fact: .cancel(point))
            item.cancel()
        }
    }

    /// The block, on a libdispatch thread.
    private func body() {
        let (worker, before) = run.worker(for: queueName)
        let begun = state.withLock { state in
            guard !run.isHalted else { return false }
            state.started = true
            state.worker = worker
            run.trace.record(
                worker, .opStart, name, fact: .thread(before == 0 ? .firstSeen : .reused(before: before)))
            return true
        }
        guard begun else { return }
        let (deadline, overflow) = OracleClock.now().addingReportingOverflow(max(work.nanosecondsClamped, 0))
        OracleClock.sleep(until: overflow ? .max : deadline) { !self.run.isHalted }
        let cancelled = item?.isCancelled ?? false
        state.withLock { state in
            guard !run.isHalted else { return }
            state.finished = true
            run.trace.record(
                worker, .opFinish, name, fact: .finish(cancelled ? .workItemRanDespiteCancel : .blockDone))
        }
    }

    /// The work item's `notify`: an item whose block never began was skipped by its queue.
    private func skippedIfNeverRan() {
        state.withLock { state in
            guard !state.started, !state.finished, !run.isHalted else { return }
            state.finished = true
            run.trace.record(queueName, .opFinish, name, fact: .finish(.workItemSkipped))
        }
    }

    /// After the trace is frozen: cancels what has not run, so nothing waits for a sleep that is over.
    func cleanUp() {
        item?.cancel()
    }
}
