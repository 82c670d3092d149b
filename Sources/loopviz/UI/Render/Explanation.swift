import LoopEngine

/// The "Why" line: one or two sentences for the current step, naming the rule that produced it.
enum Explanation {
    static func text(for index: Int, in trace: [LoopEvent]) -> String {
        let event = trace[index]
        let name = event.name ?? ""
        switch event.kind {
        case .runStart:
            return "CFRunLoopRunInMode(\(name)) starts (\(event.detail ?? "")). An empty or unknown mode would "
                + "return finished at once, without calling any observer."
        case .entry:
            return "The mode has a source or a timer, so the run begins: observers see entry."
        case .beforeTimers:
            return "Iteration \(event.iteration): beforeTimers is only a notice - no timer fires here. Timers fire "
                + "after the wait, when the timer port is the one that woke the loop."
        case .beforeSources:
            return "beforeSources: next the loop runs queued blocks, then every signalled version-0 source."
        case .source0:
            return "source0 \(name) was signalled, so it is performed now. Because a source0 ran, this iteration "
                + "polls instead of sleeping: no beforeWaiting, no afterWaiting."
        case .block:
            return "A block queued with CFRunLoopPerformBlock for this mode runs in a blocks pass (three per "
                + "iteration). Queuing a block never wakes the loop."
        case .beforeWaiting:
            return "Nothing was performed this iteration, so the loop is about to sleep: observers see beforeWaiting "
                + "(a hang monitor stops its watchdog here)."
        case .sleep:
            if event.detail == "poll" {
                return "No beforeWaiting: a source0 was performed in this iteration (or the time limit is 0), so the "
                    + "loop polls its ports without sleeping."
            }
            return "The thread sleeps in the kernel \(event.detail ?? ""). Only a port (a message, the timer port, "
                + "a wake-up) ends the wait; a signalled source0 does not."
        case .wake:
            return "The wait returned because of \(event.detail ?? "nothing"). Exactly one port is taken per wait; "
                + "others stay ready for the next iteration."
        case .afterWaiting:
            return "afterWaiting: the loop woke up. What woke it is handled now - a timer fires only here."
        case .timer:
            if let detail = event.detail, detail.hasPrefix("due") {
                return "timer \(name) fires late (\(detail)): it fires once for every missed tick, then keeps its "
                    + "original grid."
            }
            return "The timer port woke the loop and timer \(name) is due: it fires. A repeating timer moves to the "
                + "next point of its grid after now."
        case .source1:
            return "A message on port \(name) woke the loop by itself (no wake-up needed); one port is served per "
                + "iteration\(event.detail.map { ", \($0) read at once" } ?? "")."
        case .observer:
            return "Observer \(name) is called for \(event.detail ?? "an activity"), in ascending order; a one-shot "
                + "observer is invalidated after its first call."
        case .mainQueue:
            return "The main thread drains the libdispatch main queue (block \(name)); this counts as a handled source."
        case .perform:
            return "Task \(name) sent with performSelector:onThread: runs from the thread's perform source (a source0)."
        case .exit:
            return "The run ends: observers see exit, whatever the result."
        case .result:
            return resultText(name)
        case .enqueue:
            return "Block \(name) is queued (\(event.detail ?? "")). It runs in the next blocks pass of a run in one "
                + "of those modes; queuing never wakes a sleeping loop."
        case .signal:
            return "\(name) is signalled. A signal does not wake a sleeping loop: it waits for something that does."
        case .send:
            return "A message is sent to port \(name): the port becomes ready and wakes a sleeping loop by itself."
        case .wakeUp:
            if let detail = event.detail, detail.contains("ignored") {
                return "CFRunLoopWakeUp is ignored (\(detail)): the loop checks for work before it sleeps again anyway."
            }
            return "CFRunLoopWakeUp writes the wake-up port\(event.detail.map { " (\($0))" } ?? ""): the next wait "
                + "returns at once."
        case .stop:
            if let detail = event.detail, detail.contains("ignored") {
                return "CFRunLoopStop with no run active does nothing: a stop before a run is not remembered."
            }
            return "CFRunLoopStop marks the innermost run stopped and wakes it; it ends at the end of this iteration "
                + "unless handledSource or timedOut wins."
        case .schedule:
            return "Source \(name) is added to \(event.detail ?? "a mode"): its schedule callout runs."
        case .cancel:
            return "Source \(name) is removed from \(event.detail ?? "a mode"): its cancel callout runs."
        case .note:
            return event.detail ?? ""
        case .opAdd:
            return "Operation \(name) is added to queue \(event.loop) (\(event.detail ?? "")). It becomes ready when "
                + "every dependency has finished."
        case .opReady:
            return "\(name) is ready. Ready operations start highest priority first, first added first within a "
                + "level, while fewer than maxConcurrentOperationCount execute."
        case .opStart:
            return "\(name) starts on worker \(event.loop), a \(event.detail ?? "thread"). A pool reuses an idle "
                + "thread instead of creating one per task."
        case .opCancel:
            return "cancel() on \(name) (\(event.detail ?? "")): a queued operation finishes without running; a "
                + "running one only sees isCancelled at its next check."
        case .opFinish:
            return "\(name) finished: \(event.detail ?? "done"). Its thread is free for the next operation, and "
                + "operations that depend on it may become ready."
        case .threadCreate:
            return "A new thread \(event.loop) is created (\(event.detail ?? "")): the cost a pool saves."
        case .threadExit:
            return "Thread \(event.loop) ends (\(event.detail ?? ""))."
        case .queue:
            return "Queue \(event.loop): \(name)\(event.detail.map { " \($0)" } ?? "")."
        }
    }

    static func resultText(_ name: String) -> String {
        switch name {
        case "finished": "finished: the mode has no source and no timer left (observers do not count)."
        case "stopped": "stopped: CFRunLoopStop reached this run. RunLoop.run() would simply run it again."
        case "timedOut": "timedOut: the run's time limit passed (checked after every iteration)."
        case "handledSource": "handledSource: returnAfterSourceHandled was set and a source was performed."
        default: "The run returned \(name)."
        }
    }
}
