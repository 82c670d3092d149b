import LoopEngine

/// The two ways of drawing one pass of the loop, and which step an event belongs to.
enum CycleSteps {
    /// One of Apple's documented steps: its words, what CF does differently (nil: nothing), and a brief form of
    /// each for a narrow panel (80 columns), which says the same in fewer words.
    struct DocumentedStep {
        let text: String
        let brief: String
        let differs: String?
        let briefDiffers: String?

        init(_ text: String, brief: String? = nil, differs: String? = nil, briefly: String? = nil) {
            self.text = text
            self.brief = brief ?? text
            self.differs = differs
            self.briefDiffers = briefly ?? differs
        }
    }

    /// Apple's documented ten steps (Threading Programming Guide, "The Run Loop Sequence of Events").
    static let documented: [DocumentedStep] = [
        DocumentedStep("Notify: entering the loop"),
        DocumentedStep(
            "Notify: timers will fire", differs: "no timer fires here; only a note", briefly: "a notice; no timer fires"
        ),
        DocumentedStep("Notify: sources will fire"),
        DocumentedStep(
            "Fire ready non-port sources", differs: "blocks also run before and after",
            briefly: "blocks also run around it"),
        DocumentedStep(
            "Port ready? handle it, go to 9", brief: "Port ready? Handle, go to 9",
            differs: "a poll, or the main-queue peek", briefly: "a poll, or main-queue peek"),
        DocumentedStep("Notify: about to sleep", differs: "skipped when polling"),
        DocumentedStep(
            "Sleep: port/timer/timeout/wake", brief: "Sleep: port, timer or wake", differs: "one port is taken per wait"
        ),
        DocumentedStep("Notify: just woke up", differs: "skipped when polling"),
        DocumentedStep(
            "Process timer, source, wake-up", brief: "Handle timer/source/wake-up",
            differs: "timers fire here or in a poll", briefly: "timers: after wait or poll"),
        DocumentedStep(
            "Notify: exiting the loop", differs: "handled > timedOut > stopped",
            briefly: "handled>timedOut>stopped"),
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
        // A main-queue job outside every run is libdispatch's own (after an async main's dispatch_main()): no loop
        // runs it, so no step of a loop is its.
        if event.kind == .mainQueue && event.depth == 0 { return nil }
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
        // A run of an empty mode neither enters nor exits (no observer sees it): no step is its.
        case .runStart: return entersItsRun(index, in: trace) ? 0 : nil
        case .result: return exitedItsRun(index, in: trace) ? 9 : nil
        case .entry: return 0
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
        case .exit: return 9
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

    /// True when the run that `trace[index]` (a `runStart`) begins goes on to its entry: the next event of its loop
    /// is that entry (an empty or unknown mode returns finished at once, with no entry).
    static func entersItsRun(_ index: Int, in trace: LoopTrace) -> Bool {
        let loop = trace[index].loop
        var position = index + 1
        while position < trace.count && position - index <= lookBack {
            let event = trace[position]
            if event.loop == loop { return event.kind == .entry }
            position += 1
        }
        return false
    }

    /// True when the run whose `result` is `trace[index]` exited through the exit activity (a run of an empty mode
    /// returns from its runStart with none).
    static func exitedItsRun(_ index: Int, in trace: LoopTrace) -> Bool {
        let result = trace[index]
        var position = index - 1
        while position >= 0 && index - position <= lookBack {
            let event = trace[position]
            if event.loop == result.loop && event.depth == result.depth {
                if event.kind == .exit { return true }
                if event.kind == .runStart { return false }
            }
            position -= 1
        }
        return false
    }

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
