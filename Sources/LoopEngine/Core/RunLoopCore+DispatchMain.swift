/// The main queue without the run loop: what Linux's libdispatch does once an async `main` has called
/// `dispatch_main()` (docs/concurrency.md, "The async main").
extension RunLoopCore {
    /// `dispatch_main()` on the main thread's loop: the main thread leaves, and libdispatch serves the main queue
    /// as it serves any serial queue, on a worker thread, with no run loop around it: each job runs as soon as it
    /// is queued, first in first out, one after the other; no observer, timer, source, block or perform of this
    /// loop runs again (none is looked at). Returns when the backend halts (the process exits).
    ///
    /// Probed on Linux (`Scripts/concurrency-async-main-probe.swift`): during such a job `Thread.isMainThread` is
    /// false and `CFRunLoopCopyCurrentMode(CFRunLoopGetMain())` is nil.
    package func serveMainQueueWithoutLoop() {
        guard let mainQueuePort else { preconditionFailure("\(name) is not the main thread's loop") }
        let queueOnly = waiter.makePortSet(label: "\(name).dispatchMain")
        waiter.insert(mainQueuePort, into: queueOnly)
        // Its wake-up port too, for the backend's halt alone (a real kernel wakes a halted run through it): a
        // `CFRunLoopWakeUp` of this loop writes nothing now, as no run is active.
        waiter.insert(wakeUpPort, into: queueOnly)
        defer {
            waiter.remove(mainQueuePort, from: queueOnly)
            waiter.remove(wakeUpPort, from: queueOnly)
            waiter.closePortSet(queueOnly)
        }
        lock.lock()
        defer { lock.unlock() }
        mainThreadHasExited = true
        while !isHalted {
            lock.unlock()
            let outcome = waiter.wait(on: queueOnly, poll: false)
            lock.lock()
            guard outcome != .halted, !isHalted else { return }
            // A serial queue has no drains: every job queued meanwhile, and each one a job queues, runs in turn.
            while !isHalted, !mainQueue.isEmpty {
                var queue = mainQueue
                let job = queue.removeFirst()
                mainQueue = queue
                emit(.mainQueue, job.name, job.job.map { .job($0) })
                callout(.mainQueue, job.name) { job.action() }
            }
        }
    }

    /// True, with a note saying so, when this is the main loop and the main thread has left: CF's
    /// `CFRunLoopAddSource`, `CFRunLoopAddTimer`, `CFRunLoopAddObserver` and `CFRunLoopPerformBlock` return at once
    /// then, logging an error once per process (docs/concurrency.md, "The async main"). Called under the lock.
    func refusesAfterMainThreadExitLocked(_ name: String, _ kind: LoopEvent.Kind) -> Bool {
        guard mainThreadHasExited else { return false }
        emit(.note, name, .note(.refusedAfterMainThreadExit(item: name, kind: kind)))
        return true
    }
}
