/// The words of the trace: the one place where an event's facts become text. Every export, `check`'s diffs, the
/// UI's panels and its Why pane take their words about an event from here; nothing reads them back.
extension LoopEvent {
    /// `kind name` or just `kind`: the form used when comparing sequences. The Bool of a `run(mode:before:)`
    /// reads `returned true` (the word `expect` lines use).
    package var step: String {
        if let value = returnedValue { return "returned \(value)" }
        if let (question, answer) = queryFact { return "query \(question.words) is \(question.words(for: answer))" }
        if let name { return "\(kind.rawValue) \(name)" }
        return kind.rawValue
    }

    /// The event's facts in words (what a sleep waits for, why a wake happened), or nil when it has none. A
    /// queue's change and a run's result are the event's name already, and are not said twice.
    package var detail: String? { Self.detail(of: fact) }

    /// ``detail`` of an event whose fact is `fact`: the words depend on the fact alone.
    package static func detail(of fact: Fact?) -> String? {
        switch fact {
        case .queue, .result, .stop(.iteration), nil: nil
        case let fact?: fact.words
        }
    }

    /// One line: `time thread dDEPTH mode #ITERATION step (detail)`.
    package var line: String {
        var text = "\(time) \(loop) d\(depth) \(mode ?? "-") #\(iteration) \(step)"
        if let detail { text += " (\(detail))" }
        return text
    }
}

extension LoopEvent: CustomStringConvertible {
    public var description: String { line }
}

extension LoopEvent.Fact {
    /// The fact in the trace's words.
    package var words: String {
        switch self {
        case .run(let limit, let rash): "limit \(limit.words)" + (rash ? ", returnAfterSourceHandled" : "")
        case .messages(let count): "\(count) messages"
        case .late(let due, _, let cause): "due \(due)" + (cause.map { ", " + $0.words } ?? "")
        case .activity(let activity): activity.description
        case .wait(let wait): wait.words
        case .woken(let cause): cause.words
        case .modes(let modes): "modes " + modes.joined(separator: ", ")
        case .wakeUp(let caller, let ignored):
            [caller?.rawValue, ignored?.words].compactMap { $0 }.joined(separator: ", ")
        case .ignored(let ignored): ignored.words
        case .stop(.entry): "during entry"
        case .stop(.iteration): "in an iteration"
        case .stop(.exit): "during exit: discarded"
        case .mode(let mode): "mode \(mode)"
        case .note(let note): note.words
        case .operation(let operation): operation.words
        case .submitted(let submission): submission.words
        case .thread(let use): use.words
        case .cancel(let point): point.words
        case .finish(let outcome): outcome.words
        case .origin(let origin): origin.words
        case .end(let end): end.words
        case .limit(let limit): limit.words
        case .queue(let action): action.rawValue
        case .result(let result): result.description
        case .returned(true): "run(mode:before:) returned true: it ran the loop once, whatever the run's result"
        case .returned(false): "run(mode:before:) returned false: the mode is empty, it did not run"
        case .mark(let mark): mark.words
        case .dropped(let count): "the recorder dropped \(LoopEvent.count(count, "event")): its buffer was full"
        case .stack(let sample): "a stack sample of \(LoopEvent.count(sample.frames.count, "frame"))"
        case .paused(let time):
            "the recorder's sampler did not run for \(LoopEvent.seconds(time)): the process was stopped or had no CPU"
        case .module(let module):
            "a loaded object: its addresses from 0x\(String(module.low, radix: 16)) to 0x\(String(module.high, radix: 16))"
        case .order(let order): "order \(order)"
        case .delayed(let delay): "afterDelay \(LoopEvent.seconds(delay))"
        case .query(let question, let answer): "\(question.call) answered \(question.words(for: answer))"
        case .command(let step): step.words
        case .invalidated(let kind, let modes): LoopEvent.invalidationWords(kind, modes)
        case .fireCalled(repeats: true): "Timer.fire(): outside the timer pass; repeats, so valid on its schedule"
        case .fireCalled(repeats: false): "Timer.fire(): outside the timer pass; one-shot, so invalidated after it"
        case .job(let job): job.words
        }
    }
}

extension LoopEvent {
    /// `timer, left default and tracking`: what the invalidated item is and the modes it left.
    static func invalidationWords(_ kind: Kind, _ modes: [String]) -> String {
        let what =
            switch kind {
            case .source0: "version-0 source"
            case .source1: "port source"
            default: kind.rawValue
            }
        return modes.isEmpty ? what : "\(what), left " + LoopEvent.list(modes)
    }

    /// `a`, `a and b`, `a, b and c`.
    package static func list(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension LoopEvent.CommandStep {
    /// `posted to inputSource, 2 queued`, `performed by inputSource`, `dropped: inputSource was invalidated`.
    package var words: String {
        switch outcome {
        case .posted(let queued): "posted to \(source), \(queued) queued"
        case .refused(let capacity): "refused: the queue of \(source) is full (\(LoopEvent.count(capacity, "command")))"
        case .performed: "performed by \(source)"
        case .dropped: "dropped: \(source) was invalidated with it queued"
        }
    }
}

extension LoopEvent.Mark {
    /// `mark`, `begin`, `end`.
    package var words: String {
        switch self {
        case .point: "mark"
        case .begin: "begin"
        case .end: "end"
        }
    }
}

extension LoopEvent.RunLimit {
    /// `poll`, `forever`, `0.200s`.
    package var words: String {
        switch self {
        case .poll: "poll"
        case .forever: "forever"
        case .seconds(let duration): LoopEvent.seconds(duration)
        }
    }
}

extension LoopEvent.Wait {
    /// `poll`, `indefinitely`, `until timer T at 0.100 or time limit at 0.200`, and what is ready already, which
    /// ends the wait at once: `until time limit at 0.200, but port P is ready`.
    package var words: String {
        switch self {
        case .poll: return "poll"
        case .sleep(let timer, let limit, let ready):
            var wakers: [String] = []
            if let timer { wakers.append("timer \(timer.name) at \(timer.fireTime)") }
            if let limit { wakers.append("time limit at \(limit)") }
            let until = wakers.isEmpty ? "indefinitely" : "until " + wakers.joined(separator: " or ")
            switch ready {
            case nil, .nothing?: return until
            case .port(let name, _)?: return until + ", but port \(name) is ready"
            case .wakeUpPort?: return until + ", but the wake-up port is ready"
            case .timerPort?: return until + ", but the timer port is ready"
            case .mainQueue?: return until + ", but the main queue is ready"
            case .unknownPort(let number)?: return until + ", but port#\(number) is ready"
            }
        }
    }
}

extension LoopEvent.LateCause {
    /// `loop busy`, `mode not running`, `added late`, `slept past it`.
    package var words: String {
        switch self {
        case .busy: "loop busy"
        case .modeNotRunning: "mode not running"
        case .addedAfterDue: "added late"
        case .sleptPast: "slept past it"
        }
    }
}

extension LoopEvent.WakeCause {
    /// `nothing`, `wakeUp`, `timer port`, `main queue`, `port P (3 messages)`.
    package var words: String {
        switch self {
        case .nothing: "nothing"
        case .wakeUpPort: "wakeUp"
        case .timerPort: "timer port"
        case .mainQueue: "main queue"
        case .port(let name, let messages): "port \(name)" + (messages > 1 ? " (\(messages) messages)" : "")
        case .unknownPort(let number): "port#\(number)"
        }
    }
}

extension LoopEvent.Ignored {
    package var words: String {
        switch self {
        case .noRun: "ignored: no run"
        case .afterTheWait: "ignored: after the wait"
        case .portSource: "ignored: a port source is performed for a message, never for a signal"
        }
    }
}

extension LoopEvent.Note {
    package var words: String {
        switch self {
        case .say(let text): text
        case .duplicateOperation(let name): "operation \(name) was already added: ignored"
        case .notAsynchronous(let name): "finish \(name): it is not an asynchronous operation, it finishes by itself"
        case .noSuchQueue(let operation, let queue): "add \(operation): there is no queue \(queue)"
        case .noSuchThread(let task, let thread): "perform \(task): there is no thread \(thread)"
        case .performInline(let task): "perform \(task) inline (waitUntilDone on its own thread)"
        case .emptyModeSpins(let mode):
            "run(mode:before:) returned NO at once: \(mode) is empty, so this loop would spin"
        case .timerOrderUnused(let timer, let order):
            "timer \(timer) has order \(order): CF stores a timer's order but never uses it; timers fire by deadline"
        case .ownerDeallocating(let owner): "\(owner)'s dealloc begins: weak references to \(owner) are nil now"
        case .ownerFreed(let owner): "\(owner)'s dealloc returned: \(owner) is freed"
        case .usesDeallocatedOwner(let owner, let property):
            "uses a deallocated owner: \(owner).\(property) after \(owner) was freed (a bad access on a device)"
        case .emptyModeReturned(let mode): "run(mode: \(mode), before:) returned false at once: the mode is empty"
        case .performsCancelled(let task?, let target, let count):
            "cancelPerformSelector \(task) target \(target): \(LoopEvent.count(count, "queued perform")) removed"
        case .performsCancelled(nil, let target, let count):
            "cancelPerformSelectorsWithTarget \(target): \(LoopEvent.count(count, "queued perform")) removed"
        case .delayedPerformsCancelled(let task?, let target, let count):
            "cancelPreviousPerformRequests target \(target) selector \(task): "
                + "\(LoopEvent.count(count, "delayed perform")) removed"
        case .delayedPerformsCancelled(nil, let target, let count):
            "cancelPreviousPerformRequests target \(target): \(LoopEvent.count(count, "delayed perform")) removed"
        case .taskSuspended(let task, .yield):
            "\(task) awaits Task.yield(): the rest of \(task) goes to the global executor, "
                + "then to the back of the main queue"
        case .taskSuspended(let task, .sleep(let duration)):
            "\(task) sleeps \(LoopEvent.seconds(duration)): the rest of \(task) is queued when its timer fires"
        case .taskFinished(let task): "\(task) is done: its last main-actor job returned"
        case .asyncMainLeavesMainThread(let task):
            "\(task) awaits for the first time: the main thread calls dispatch_main() and leaves; libdispatch runs "
                + "the main queue on a worker thread from now on, and the main run loop runs no more"
        case .asyncMainRunsMainLoop(let task):
            "\(task) awaits for the first time: the main thread runs CFRunLoopRun() in default, which drains the "
                + "main queue, until the loop is stopped (Darwin's runtime, not verified here)"
        case .refusedAfterMainThreadExit(let item, .block):
            "the main thread has exited: CF does not queue block \(item) on the main run loop (it logs "
                + "\"Attempting to perform block on main runloop, but the main thread has exited\" once)"
        case .refusedAfterMainThreadExit(let item, let kind):
            "the main thread has exited: CF does not add \(kind.rawValue) \(item) to the main run loop (it logs "
                + "\"Attempting to add \(kind == .timer ? "timer" : kind == .observer ? "observer" : "source") to main "
                + "runloop, but the main thread has exited\" once)"
        case .asyncMainExits(let task, .returned): "\(task) returned: exit(0) ends the process, every thread with it"
        case .asyncMainExits(let task, .loopReturned):
            "CFRunLoopRun() returned: the async main's entry calls exit(0), ending the process before the rest of "
                + "\(task) runs"
        case .addDeclined(let item, let kind, let holder):
            "\(kind.rawValue) \(item) is in \(holder)'s loop: CF silently does not add it here (one loop per "
                + "\(kind.rawValue))"
        }
    }
}

extension LoopEvent.OperationFacts {
    /// `priority normal, after A, B, work 1.000s check every 0.100s`.
    package var words: String {
        var parts = ["priority \(priority)"]
        if !dependencies.isEmpty { parts.append("after " + dependencies.joined(separator: ", ")) }
        parts.append(bodyWords)
        return parts.joined(separator: ", ")
    }

    /// What it does: `async`, `async, reply after 0.300s`, `work 1.000s check every 0.100s`.
    package var bodyWords: String {
        switch body {
        case .async:
            return replyAfter.map { "async, reply after \(LoopEvent.seconds($0))" } ?? "async"
        case .work(let duration, let check):
            var text = "work \(LoopEvent.seconds(duration))"
            if let check { text += " check every \(LoopEvent.seconds(check))" }
            return text
        }
    }
}

extension DispatchSubmission {
    /// `a block (nothing to cancel it with), work 0.200s` or `a DispatchWorkItem, work 0.200s`.
    package var words: String {
        let what =
            switch kind {
            case .block: "a block (async returns nothing to cancel it with)"
            case .workItem: "a DispatchWorkItem"
            }
        return "\(what), work \(LoopEvent.seconds(work))"
    }
}

extension LoopEvent.ThreadUse {
    package var words: String {
        switch self {
        case .new: "new thread"
        case .firstSeen: "first use of this thread"
        case .reused(let before): "reused thread (\(before) before)"
        }
    }
}

extension LoopEvent.CancelPoint {
    package var words: String {
        switch self {
        case .alreadyFinished: "already finished: no effect"
        case .alreadyCancelled: "already cancelled"
        case .queued: "queued: it finishes when the queue starts it"
        case .handedTo(let worker): "handed to \(worker), not started"
        case .executingConnection: "executing: the connection is cancelled"
        case .executingNextCheck: "executing: it stops at its next check"
        case .workItemQueued: "a work item not reached yet: the queue will skip its block"
        case .workItemRunning: "a work item already running: its block goes on to the end"
        }
    }
}

extension LoopEvent.FinishOutcome {
    package var words: String {
        switch self {
        case .done: "done"
        case .doneAfterLateCancel: "done (the cancel came with no check point left)"
        case .cancelledBeforeStart: "cancelled before it started"
        case .cancelledWhileRunning: "cancelled while running"
        case .workItemSkipped: "skipped: cancelled before the queue reached it, its block never ran"
        case .workItemRanDespiteCancel: "done: its block ran to the end although it was cancelled"
        case .blockDone: "done: its block returned"
        }
    }
}

extension LoopEvent.ThreadOrigin {
    package var words: String {
        switch self {
        case .worker(let queue): "worker of \(queue)"
        case .dispatch(let queue): "libdispatch's thread, first seen running an operation of \(queue)"
        case .detached: "detached for one task"
        }
    }
}

extension LoopEvent.ThreadEnd {
    package var words: String {
        switch self {
        case .idle(let timeout, let ran, let work):
            "idle for \(LoopEvent.seconds(timeout)): retired after \(LoopEvent.count(ran, work.rawValue))"
        case .taskDone: "its task is done"
        }
    }
}

extension LoopEvent.QueueLimit {
    /// `2`, `default (4)`, `default (libdispatch decides)`.
    package var words: String {
        switch self {
        case .count(let count): "\(count)"
        case .automatic(let width): "default (\(width.map(String.init) ?? "libdispatch decides"))"
        }
    }
}

extension LoopEvent {
    /// A duration in the trace's words: `0.250s`.
    package static func seconds(_ duration: Duration) -> String {
        formatSeconds(duration.nanosecondsClamped) + "s"
    }

    /// A duration for people reading a table (the aggregate views, `loopviz stats`), in the unit that keeps it
    /// short: `0`, `800 ns`, `1.5 µs`, `11.7 ms`, `1.25 s`; `ascii` writes `us` for `µs`.
    package static func readable(_ duration: Duration, ascii: Bool = false) -> String {
        let nanoseconds = duration.nanosecondsClamped
        let magnitude = nanoseconds.magnitude
        // `digits` decimals of `unit` nanoseconds, rounded half up.
        func scaled(_ unit: UInt64, _ digits: Int, _ name: String) -> String {
            let scale: UInt64 = digits == 1 ? 10 : 100
            let step = unit / scale
            let counted = (magnitude + step / 2) / step
            let fraction = String(counted % scale)
            let padded = String(repeating: "0", count: digits - fraction.count) + fraction
            return (nanoseconds < 0 ? "-" : "") + "\(counted / scale).\(padded) " + name
        }
        if magnitude == 0 { return "0" }
        if magnitude < 1_000 { return "\(nanoseconds) ns" }
        // The next unit from where rounding would reach 1000.0.
        if magnitude < 999_950 { return scaled(1_000, 1, ascii ? "us" : "µs") }
        if magnitude < 999_950_000 { return scaled(1_000_000, 1, "ms") }
        return scaled(1_000_000_000, 2, "s")
    }

    /// `1 operation`, `2 operations`.
    package static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
