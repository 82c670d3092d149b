#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// `performSelector:withObject:afterDelay:[inModes:]` and `cancelPreviousPerformRequestsWithTarget:[selector:
/// object:]` built from CF, as the engine models them (`RunLoopCore+DelayedPerform.swift`, docs/cfrunloop.md,
/// "Delayed performs"): Linux Foundation has none of them, so the oracle makes what Apple documents ("sets up a
/// timer to perform the aSelector message on the current thread's run loop") the way GNUstep does it, one timer
/// per request:
///
/// - a request joins this thread's list, and a one-shot `CFRunLoopTimer` (`delayedPerform` in the trace), due
///   `delay` from now, is added to the request's modes;
/// - when it fires, the request leaves the list and its task runs once, a `perform TASK` callout;
/// - a cancel invalidates the timers of the matching requests of this thread only; ordered performs are not
///   touched.
final class OracleDelayedPerformer: @unchecked Sendable {
    // @unchecked Sendable: every field is reached under `lock`.
    struct Request {
        var id: Int
        var task: String
        var target: String
        var delay: Duration
        var actions: [Action]
        var timer: CFRunLoopTimer
    }

    private let lock = LoopLock()
    private var requests: [Request] = []
    private var nextID = 0
    private var invalidated = false

    /// Queues a request and adds its timer to `modes`.
    func enqueue(
        task: String, target: String, delay: Duration, modes: [ModeName], actions: [Action], host: OracleHost
    ) {
        lock.withLock {
            guard !invalidated else { return }
            let id = nextID
            nextID += 1
            let fireDate = CFAbsoluteTimeGetCurrent() + max(delay, .zero).secondsValue
            let timer = CFRunLoopTimerCreateWithHandler(nil, fireDate, 0, 0, 0) { [weak host] _ in
                host?.runDelayedPerform(id)
            }!
            requests.append(
                Request(id: id, task: task, target: target, delay: delay, actions: actions, timer: timer))
            for mode in modes { CFRunLoopAddTimer(host.loop, timer, host.cfMode(mode)) }
        }
    }

    /// Invalidates and removes the matching requests; returns how many.
    func cancel(task: String?, target: String) -> Int {
        lock.withLock {
            let matches: (Request) -> Bool = { $0.target == target && (task == nil || $0.task == task) }
            for request in requests where matches(request) { CFRunLoopTimerInvalidate(request.timer) }
            let before = requests.count
            requests.removeAll(where: matches)
            return before - requests.count
        }
    }

    /// The request whose timer fired, taken off the list.
    func take(_ id: Int) -> Request? {
        lock.withLock {
            guard let index = requests.firstIndex(where: { $0.id == id }) else { return nil }
            return requests.remove(at: index)
        }
    }

    /// The end of the scenario, or a halt: every timer goes, later requests queue nothing.
    func invalidate() {
        let timers: [CFRunLoopTimer] = lock.withLock {
            invalidated = true
            return requests.map(\.timer)
        }
        for timer in timers { CFRunLoopTimerInvalidate(timer) }
    }
}

extension OracleHost {
    /// `perform TASK [target T] afterDelay D [in M, …]` on this thread's own loop.
    func performDelayed(_ task: String, target: String, delay: Duration, modes: [ModeName], _ inner: [Action]) {
        guard !modes.isEmpty else { return }
        delayedPerformer.enqueue(task: task, target: target, delay: delay, modes: modes, actions: inner, host: self)
    }

    /// `cancelPrevious TASK [target T]` / `cancelPrevious target T`.
    func cancelDelayedPerforms(task: String?, target: String) {
        let removed = delayedPerformer.cancel(task: task, target: target)
        trace.record(.note, fact: .note(.delayedPerformsCancelled(task: task, target: target, count: removed)))
    }

    /// A `delayedPerform` timer's callout: its request's task, once.
    func runDelayedPerform(_ id: Int) {
        trace.record(.timer, RunLoopCore.delayedPerformTimerName)
        guard let request = delayedPerformer.take(id), !isHalted else { return }
        trace.record(.perform, request.task, fact: .delayed(request.delay))
        perform(request.actions)
    }
}
#endif
