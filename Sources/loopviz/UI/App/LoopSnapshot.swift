import LoopEngine

/// What one thread's loop looks like after a prefix of the trace: the state the panels draw. Folded from
/// events, so stepping back and forth always shows exactly what the engine did.
struct LoopSnapshot: Equatable {
    struct Run: Equatable {
        var mode: String
        var iteration: Int
        var limit: String
        /// `CFRunLoopStop` set this run's flag (§10.2: a stop marks the innermost run only; a nested run
        /// started after it has its own, clear flag, and the stop ends the outer run once control returns to it).
        var stopPending = false
    }

    var thread: String
    var runs: [Run] = []
    var isSleeping = false
    var sleepDetail = ""
    var lastWake = ""
    var lastCallout: String?
    /// The stop flag of the innermost run (the one a stop ends next).
    var pendingStop: Bool { runs.last?.stopPending ?? false }
    /// Sources removed from a mode (their cancel callout's event), by name: the modes they left. Added back to a
    /// mode (a schedule event), they are in it again.
    var removedFrom: [String: Set<String>] = [:]
    /// Items a program invalidated (their `invalidate` event): out of every mode for good.
    var invalidated: Set<String> = []
    var pendingWakeUp = false
    var signalled: Set<String> = []
    var pendingMessages: [String: Int] = [:]
    /// How often each timer fired, and when it last did (bounded: a long trace's state stays small).
    var timerFireCounts: [String: Int] = [:]
    var lastTimerFire: [String: LoopInstant] = [:]
    /// Fires that came late (a missed tick, or a millisecond or more after the deadline: the `late` fact).
    var lateFires: [String: Int] = [:]
    var observerCalls: [String: Int] = [:]
    /// Blocks queued and not yet run, in order.
    var blocksQueued: [String] = []
    var spentObservers: Set<String> = []
    var lastResult: String?
    var iterations = 0
    var now: LoopInstant = .zero
    /// Folded from the middle of a trace (a window of a long file, a live trace that forgot its oldest events):
    /// the runs already started are known from this thread's first event, which says how deep it is and in which
    /// mode (``apply(_:observers:)``).
    var joinsMidTrace = false

    init(thread: String, joinsMidTrace: Bool = false) {
        self.thread = thread
        self.joinsMidTrace = joinsMidTrace
    }

    var currentMode: String? { runs.last?.mode }

    /// One-line state: running, handling X, sleeping until T, woken by Y.
    var state: String {
        if runs.isEmpty { return lastResult.map { "not running (last run: \($0))" } ?? "not running" }
        if isSleeping { return "sleeping " + sleepDetail }
        if let lastCallout { return "handling \(lastCallout)" }
        return "running"
    }

    mutating func apply(_ event: LoopEvent, observers oneShot: Set<String>) {
        guard event.loop == thread else { return }
        now = event.time
        if joinsMidTrace {
            // The runs this thread's first event is inside: its mode is the innermost's (a run's start names its
            // own, and starts it below); an outer one's is unknown.
            joinsMidTrace = false
            let starts = event.kind == .runStart
            let depth = starts ? event.depth - 1 : event.depth
            while runs.count < depth {
                let innermost = !starts && runs.count == depth - 1
                runs.append(Run(mode: innermost ? event.mode ?? "?" : "?", iteration: 0, limit: ""))
            }
        }
        // A recording has no runStart or result (an observer sees neither): its runs are known from entry and depth.
        if event.kind == .entry, runs.count < event.depth {
            runs.append(Run(mode: event.mode ?? "?", iteration: 0, limit: ""))
        }
        if event.kind != .result, runs.count > event.depth { runs.removeLast(runs.count - event.depth) }
        switch event.kind {
        case .runStart:
            runs.append(Run(mode: event.name ?? "?", iteration: 0, limit: event.detail ?? ""))
            lastCallout = nil
        case .result:
            if !runs.isEmpty { runs.removeLast() }
            lastResult = event.name
            lastCallout = nil
        case .entry, .exit:
            lastCallout = nil
        case .beforeTimers:
            if !runs.isEmpty { runs[runs.count - 1].iteration = event.iteration }
            iterations += 1
            lastCallout = nil
        case .beforeSources, .beforeWaiting, .afterWaiting:
            lastCallout = nil
        case .sleep:
            lastCallout = nil
            isSleeping = event.wait?.isPoll != true
            sleepDetail = event.detail ?? ""
        case .wake:
            isSleeping = false
            lastWake = event.detail ?? ""
            if event.wakeCause == .wakeUpPort { pendingWakeUp = false }
        case .source0:
            lastCallout = "source0 \(event.name ?? "")"
            if let name = event.name { signalled.remove(name) }
        case .source1:
            lastCallout = "source1 \(event.name ?? "")"
            if let name = event.name {
                pendingMessages[name] = max(0, (pendingMessages[name] ?? 0) - event.messagesConsumed)
            }
        case .timer:
            lastCallout = "timer \(event.name ?? "")"
            if let name = event.name {
                timerFireCounts[name, default: 0] += 1
                lastTimerFire[name] = event.time
                if event.lateDue != nil { lateFires[name, default: 0] += 1 }
            }
        case .block:
            lastCallout = "block \(event.name ?? "")"
            if let name = event.name, let index = blocksQueued.firstIndex(of: name) { blocksQueued.remove(at: index) }
        case .observer:
            lastCallout = "observer \(event.name ?? "") (\(event.detail ?? ""))"
            if let name = event.name {
                observerCalls[name, default: 0] += 1
                if oneShot.contains(name) { spentObservers.insert(name) }
            }
        case .mainQueue, .perform:
            lastCallout = "\(event.kind.rawValue) \(event.name ?? "")"
        case .signal:
            if let name = event.name { signalled.insert(name) }
        case .enqueue:
            if let name = event.name { blocksQueued.append(name) }
        case .send:
            if let name = event.name { pendingMessages[name, default: 0] += 1 }
        case .wakeUp:
            if !event.wasIgnored { pendingWakeUp = true }
        case .stop:
            if !event.wasIgnored, !runs.isEmpty { runs[runs.count - 1].stopPending = true }
        case .schedule:
            if let name = event.name, case .mode(let mode) = event.fact { removedFrom[name]?.remove(mode) }
        case .cancel:
            if let name = event.name, case .mode(let mode) = event.fact {
                removedFrom[name, default: []].insert(mode)
            }
        case .invalidate:
            if let name = event.name { invalidated.insert(name) }
        case .note, .query, .command:
            break
        case .opAdd, .opReady, .opStart, .opCancel, .opFinish, .threadCreate, .threadExit, .queue:
            // The pool view follows these (PoolSnapshot); a thread's loop state does not change.
            break
        }
    }
}
