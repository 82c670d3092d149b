import LoopEngine

/// The two ways of drawing one pass of the loop, and which step an event belongs to.
enum CycleSteps {
    /// Apple's documented ten steps (Threading Programming Guide, "The Run Loop Sequence of Events").
    static let documented: [(text: String, differs: String?)] = [
        ("Notify: entering the loop", nil),
        ("Notify: timers will fire", "no timer fires here; only a note"),
        ("Notify: sources will fire", nil),
        ("Fire ready non-port sources", "blocks also run before and after"),
        ("Port ready? handle it, go to 9", "a poll, or the main-queue peek"),
        ("Notify: about to sleep", "skipped when polling"),
        ("Sleep: port/timer/timeout/wake", "one port is taken per wait"),
        ("Notify: just woke up", "skipped when polling"),
        ("Process timer, source, wake-up", "timers fire here or in a poll"),
        ("Notify: exiting the loop", "handled > timedOut > stopped > empty"),
    ]

    /// What CFRunLoop.c really does, one line per phase.
    static let implementation: [String] = [
        "entry",
        "beforeTimers",
        "beforeSources",
        "blocks, source0s, blocks",
        "beforeWaiting (not if poll)",
        "wait for ONE port, or poll",
        "afterWaiting (not if poll)",
        "handle it: timer/port/queue",
        "blocks; decide: again?",
        "exit, result",
    ]

    /// The row (0-based) of `trace[index]` in the documented view (`documented`) or in the implementation view,
    /// or nil when it has none. The views number the wait differently: Apple's step 5 (a ready port is handled
    /// at once) is what a poll does in CF, and Apple has a row for the sleep of its own.
    static func step(of index: Int, in trace: LoopTrace, documented: Bool = false) -> Int? {
        let event = trace[index]
        guard documented else { return implementationStep(of: index, in: trace) }
        switch event.kind {
        case .beforeWaiting: return 5
        case .sleep: return event.wait?.isPoll == true ? 4 : 6
        case .wake: return isPollWake(index, in: trace) ? 4 : 6
        case .afterWaiting: return 7
        case .timer, .source1: return 8
        // L7's peek takes the main queue with no wait at all: Apple's "port ready? handle it".
        case .mainQueue: return afterWait(index, in: trace) ? 8 : 4
        case .perform where isTimerPerform(event): return 8
        case .block, .perform: return afterWait(index, in: trace) ? 8 : 3
        case .observer:
            guard case .activity(let activity) = event.fact else { return nil }
            switch activity {
            case .beforeWaiting: return 5
            case .afterWaiting: return 7
            default: return implementationStep(of: index, in: trace)
            }
        default: return implementationStep(of: index, in: trace)
        }
    }

    private static func implementationStep(of index: Int, in trace: LoopTrace) -> Int? {
        let event = trace[index]
        switch event.kind {
        case .runStart, .entry: return 0
        case .beforeTimers: return 1
        case .beforeSources: return 2
        case .source0: return 3
        case .beforeWaiting: return 4
        case .sleep: return 5
        case .wake: return 5
        case .afterWaiting: return 6
        case .timer, .source1, .mainQueue: return 7
        // An ordered or delayed perform runs in its timer's callout (L12), not in a blocks pass.
        case .perform where isTimerPerform(event): return 7
        case .block, .perform: return afterWait(index, in: trace) ? 8 : 3
        case .exit, .result: return 9
        case .observer:
            guard case .activity(let activity) = event.fact else { return nil }
            switch activity {
            case .entry: return 0
            case .beforeTimers: return 1
            case .beforeSources: return 2
            case .beforeWaiting: return 4
            case .afterWaiting: return 6
            case .exit: return 9
            default: return nil
            }
        default: return nil
        }
    }

    /// True for a perform run by a timer (an ordered or a delayed perform), as its fact says.
    static func isTimerPerform(_ event: LoopEvent) -> Bool {
        switch event.fact {
        case .order, .delayed: true
        default: false
        }
    }

    /// True when the `wake` at `index` ends a poll: the last `sleep` of its loop before it polled.
    static func isPollWake(_ index: Int, in trace: LoopTrace) -> Bool {
        let loop = trace[index].loop
        var position = index - 1
        while position >= 0 && index - position <= lookBack {
            let event = trace[position]
            if event.loop == loop && event.kind == .sleep { return event.wait?.isPoll == true }
            position -= 1
        }
        return false
    }

    /// How far back the cycle panel looks for the start of the current wait or iteration: a panel looks only
    /// near the cursor, whatever the length of the trace (other threads' events in between count too).
    static let lookBack = 4096

    /// True when the loop of `trace[index]` already waited in this iteration.
    static func afterWait(_ index: Int, in trace: LoopTrace) -> Bool {
        let loop = trace[index].loop
        var position = index - 1
        while position >= 0 && index - position <= lookBack {
            let event = trace[position]
            if event.loop == loop {
                if event.kind == .wake { return true }
                if event.kind == .beforeTimers || event.kind == .entry { return false }
            }
            position -= 1
        }
        return false
    }
}
