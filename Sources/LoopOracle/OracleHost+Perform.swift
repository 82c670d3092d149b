#if os(Linux)
import CoreFoundation
import Dispatch
import Foundation
import LoopEngine

/// `performSelector:onThread:withObject:waitUntilDone:` the way Foundation does it on Darwin, built from CF here:
/// Linux Foundation has no `performSelector:onThread:` (swift-corelibs-foundation leaves the Objective-C perform
/// family out), so the oracle makes what Darwin's NSThread does for it, and what the engine models
/// (`RunLoopCore.performTask`):
///
/// - each target thread has one perform source, a version-0 `CFRunLoopSource` (order 0) named `performSelector`,
///   made on the first perform and added to the target loop's common modes by every perform;
/// - a perform appends the task to the target's queue (under a lock), signals that source and wakes the target's
///   loop (`CFRunLoopSourceSignal` + `CFRunLoopWakeUp`);
/// - the source's callout takes the tasks queued when it starts and runs them in order, each a `perform TASK`
///   callout; tasks queued meanwhile stay queued and keep the source signalled; with none left the source
///   removes itself from the common modes (Apple: a perform-selector source removes itself after running);
/// - with `wait` the caller blocks on a semaphore until its task has run; a caller that waits for its own thread
///   runs the task at once instead (Foundation would otherwise deadlock).
///
/// A target whose loop nobody runs any more queues the task and never performs it; a caller waiting for it waits
/// until the scenario is halted (its `until`, or the time limit).
final class OraclePerformer: @unchecked Sendable {
    // @unchecked Sendable: every field is reached under `lock`.
    struct Task {
        var name: String
        var actions: [Action]
        var done: DispatchSemaphore?
    }

    private let lock = LoopLock()
    private var source: CFRunLoopSource?
    private var tasks: [Task] = []
    private var invalidated = false

    /// Queues a task and returns the source to signal (made and added to `loop`'s common modes on first use), or
    /// nil once the thread's items were taken away.
    func enqueue(
        _ name: String, _ actions: [Action], done: DispatchSemaphore?, host: OracleHost
    ) -> CFRunLoopSource? {
        lock.withLock {
            guard !invalidated else { return nil }
            if source == nil {
                let callout = SourceCallout(
                    host: host, name: RunLoopCore.performSourceName, kind: .source0, script: []
                ) { [weak host] in host?.runPerformTasks() }
                var context = CFRunLoopSourceContext()
                context.version = 0
                context.info = Unmanaged.passUnretained(callout).toOpaque()
                context.retain = { info in SourceCallout.retain(info) }
                context.release = { info in SourceCallout.release(info) }
                context.perform = { info in SourceCallout.perform(info) }
                source = withExtendedLifetime(callout) { CFRunLoopSourceCreate(nil, 0, &context) }
            }
            // Added again by each request: it removed itself when its queue ran empty (see `requeue`).
            if let source { CFRunLoopAddSource(host.loop, source, kCFRunLoopCommonModes) }
            tasks.append(Task(name: name, actions: actions, done: done))
            return source
        }
    }

    /// The tasks queued now, taken off the queue.
    func takeAll() -> [Task] {
        lock.withLock {
            let taken = tasks
            tasks = []
            return taken
        }
    }

    /// Puts tasks a halt kept from running back at the head of the queue; true when any task is queued. With
    /// none queued the source removes itself from `loop`'s common modes, as a perform-selector source does
    /// (Apple's run-loops chapter; docs/cfrunloop.md §17).
    func requeue(_ kept: [Task], loop: CFRunLoop) -> Bool {
        lock.withLock {
            tasks = kept + tasks
            if tasks.isEmpty, let source { CFRunLoopRemoveSource(loop, source, kCFRunLoopCommonModes) }
            return !tasks.isEmpty
        }
    }

    var performSource: CFRunLoopSource? { lock.withLock { source } }

    /// Invalidates the perform source (the end of the scenario, or a halt); later performs queue nothing.
    func invalidate() {
        let made: CFRunLoopSource? = lock.withLock {
            invalidated = true
            return source
        }
        if let made { CFRunLoopSourceInvalidate(made) }
    }
}

extension OracleHost {
    /// `perform TASK on THREAD [wait]` from this thread, to that thread's loop, which exists from the thread's
    /// creation (`OracleWorld.start` waits for it); the interpreter has performed a waiting task for this thread
    /// itself inline.
    func performTask(_ task: String, onThread thread: String, wait: Bool, _ inner: [Action]) {
        guard let target = world.loopHost(named: thread) else { return }
        let done = wait ? DispatchSemaphore(value: 0) : nil
        guard let source = target.performer.enqueue(task, inner, done: done, host: target) else { return }
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(target.loop)
        guard let done else { return }
        // waitUntilDone: blocked until the target has run the task, or the scenario is halted.
        while done.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
            if isHalted { return }
        }
    }

    /// The perform source's callout (after its `source0 performSelector` event): the queued tasks in order.
    func runPerformTasks() {
        var kept: [OraclePerformer.Task] = []
        for task in performer.takeAll() {
            if isHalted {
                kept.append(task)
                continue
            }
            trace.record(.perform, task.name)
            perform(task.actions)
            task.done?.signal()
        }
        if performer.requeue(kept, loop: loop), let source = performer.performSource {
            CFRunLoopSourceSignal(source)
        }
    }
}
#endif
