#if os(Linux)
import CoreFoundation
import Foundation
import LoopEngine

/// `performSelector:target:argument:order:modes:`, `cancelPerformSelector:target:argument:` and
/// `cancelPerformSelectorsWithTarget:` built from CF, as the engine models them (`RunLoopCore+OrderedPerform.swift`,
/// docs/cfrunloop.md §17): Linux Foundation has none of them (swift-corelibs-foundation leaves the Objective-C
/// perform family out), so the oracle makes the mechanism Apple documents ("sets up a timer to perform the
/// aSelector message … at the start of the next run loop iteration. The timer is configured to run in the modes
/// specified by the modes parameter") with the list GNUstep keeps (sorted by order, FIFO within an order):
///
/// - a request joins this thread's list after the requests of the same order, and a one-shot `CFRunLoopTimer`
///   named `orderedPerform`, due now, is added to the request's modes (to those of the timer already made);
/// - the timer's callout takes the requests whose modes hold the current mode (`common`: a mode made common)
///   off the list and runs them in list order, each a `perform TASK` callout; requests for other modes get a new
///   timer in their modes;
/// - a cancel removes the matching requests and makes the timer again for what remains (none: no timer).
final class OracleOrderedPerformer: @unchecked Sendable {
    // @unchecked Sendable: every field is reached under `lock`.
    struct Request {
        var task: String
        var target: String
        var order: Int
        var modes: [ModeName]
        var actions: [Action]
    }

    private let lock = LoopLock()
    private var requests: [Request] = []
    private var timer: CFRunLoopTimer?
    private var commonModes: Set<ModeName> = [.default]
    private var invalidated = false

    /// The modes the scenario made common (the oracle's `CFRunLoopAddCommonMode` calls).
    func noteCommon(_ modes: [ModeName]) {
        lock.withLock { commonModes.formUnion(modes) }
    }

    /// Queues a request; the timer is made, or joins the request's modes.
    func enqueue(_ request: Request, host: OracleHost) {
        lock.withLock {
            guard !invalidated else { return }
            let index = requests.firstIndex { $0.order > request.order } ?? requests.endIndex
            requests.insert(request, at: index)
            if let timer, CFRunLoopTimerIsValid(timer) {
                for mode in request.modes { CFRunLoopAddTimer(host.loop, timer, host.cfMode(mode)) }
            } else {
                armLocked(host)
            }
        }
    }

    /// Removes the matching requests; returns how many.
    func cancel(task: String?, target: String, host: OracleHost) -> Int {
        lock.withLock {
            let before = requests.count
            requests.removeAll { $0.target == target && (task == nil || $0.task == task) }
            let removed = before - requests.count
            if removed > 0 {
                if let timer { CFRunLoopTimerInvalidate(timer) }
                timer = nil
                armLocked(host)
            }
            return removed
        }
    }

    /// The requests of `mode`, taken off the list; the spent timer is forgotten.
    func takeDue(in mode: ModeName) -> [Request] {
        lock.withLock {
            timer = nil
            let matches: (Request) -> Bool = { request in
                request.modes.contains { $0 == mode || ($0 == .common && self.commonModes.contains(mode)) }
            }
            let due = requests.filter(matches)
            requests.removeAll(where: matches)
            return due
        }
    }

    /// After a callout: a new timer for the requests left, unless one was made meanwhile.
    func rearm(_ host: OracleHost) {
        lock.withLock { if timer == nil && !invalidated { armLocked(host) } }
    }

    private func armLocked(_ host: OracleHost) {
        var modes: [ModeName] = []
        for request in requests {
            for mode in request.modes where !modes.contains(mode) { modes.append(mode) }
        }
        guard !modes.isEmpty else { return }
        let made = CFRunLoopTimerCreateWithHandler(nil, CFAbsoluteTimeGetCurrent(), 0, 0, 0) { [weak host] _ in
            host?.runOrderedPerforms()
        }
        timer = made
        for mode in modes { CFRunLoopAddTimer(host.loop, made, host.cfMode(mode)) }
    }

    /// The end of the scenario, or a halt: the timer goes, later requests queue nothing.
    func invalidate() {
        let made: CFRunLoopTimer? = lock.withLock {
            invalidated = true
            return timer
        }
        if let made { CFRunLoopTimerInvalidate(made) }
    }
}

extension OracleHost {
    /// `perform TASK [target T] order N [in M, …]` on this thread's own loop.
    func performOrdered(_ task: String, target: String, order: Int, modes: [ModeName], _ inner: [Action]) {
        guard !modes.isEmpty else { return }
        orderedPerformer.enqueue(
            .init(task: task, target: target, order: order, modes: modes, actions: inner), host: self)
    }

    /// `cancelPerform TASK [target T]` / `cancelPerforms target T`.
    func cancelOrderedPerforms(task: String?, target: String) {
        let removed = orderedPerformer.cancel(task: task, target: target, host: self)
        trace.record(.note, fact: .note(.performsCancelled(task: task, target: target, count: removed)))
    }

    /// The `orderedPerform` timer's callout: the requests of the current mode, in order.
    func runOrderedPerforms() {
        trace.record(.timer, RunLoopCore.orderedPerformTimerName)
        guard let current = CFRunLoopCopyCurrentMode(loop) else { return }
        for request in orderedPerformer.takeDue(in: scenarioMode(current)) {
            if isHalted { break }
            trace.record(.perform, request.task, fact: .order(request.order))
            perform(request.actions)
        }
        orderedPerformer.rearm(self)
    }
}
#endif
