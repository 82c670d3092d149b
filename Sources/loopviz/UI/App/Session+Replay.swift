import LoopEngine

extension Session {
    /// A read-only replay of a trace file (a LoopRecorder recording, or `run --trace jsonl`): the events are the
    /// file's, shown as a finished real-clock session is, and nothing can be poked (there is no loop to act on).
    init(replay trace: JSONLTrace) {
        var tail = ReplayTail()
        trace.events.forEach { tail.append($0) }
        self.init(replay: trace.header, tail: tail)
    }

    /// A replay of what a stream of the file kept (`TraceLoader.stream`): its last events, and how many came before.
    init(replay header: JSONLTraceHeader, tail: ReplayTail) {
        self.init(
            replay: header, events: tail.events, threads: tail.threads, dropped: tail.dropped, before: tail.forgotten)
    }

    /// A replay of a long file read a window at a time: the window's events, the threads of the windows read
    /// before (`known`: a thread keeps its lane), and the index to read others with.
    init(replay index: TraceIndex, window: TraceWindow, known: [String] = [], replacing previous: Session? = nil) {
        var tail = ReplayTail(capacity: max(1, window.events.count))
        window.events.forEach { tail.append($0) }
        var threads = known
        for thread in tail.threads where threads.count < ThreadLimit.maximumThreads && !threads.contains(thread) {
            threads.append(thread)
        }
        self.init(
            replay: index.header, events: window.events, threads: threads, dropped: tail.dropped, before: window.base,
            replacing: previous)
        replayIndex = index
        // A line that is not an event ends the replay for good: windows read later stop before it.
        replayProblem = window.problem ?? previous?.replayProblem
        replayEnd = window.problem != nil ? window.base + window.events.count : previous?.replayEnd
        replayThreads = threads
    }

    private init(
        replay header: JSONLTraceHeader, events: [LoopEvent], threads: [String], dropped: Int, before: Int,
        replacing previous: Session? = nil
    ) {
        let specs = (threads.isEmpty ? ["T"] : threads).map {
            ThreadSpec(name: $0, isMain: $0 == header.recording?.thread && $0 == "main", items: [], program: [])
        }
        let scenario = Scenario(name: header.scenario, threads: specs)
        self.init(
            liveScript: LoopScript(scenario: scenario, header: Self.replayHeader(header, threads: threads)),
            replacing: previous)
        isReplay = true
        replayClock = header.clock
        appendLive(events, dropped: dropped, ended: false, forgottenBefore: before)
        hangs = TimelineHangs(self.trace)
        hangs.nameStacks(self.trace)
        fillsFromActivities = !self.trace.contains { [.runStart, .result, .sleep, .wake].contains($0.kind) }
    }

    /// The events a window of a long file holds: a jump reads this many (a few megabytes) around its step.
    static let replayWindowEvents = 16_384

    /// The events of a windowed replay's file after the window shown (up to the line that is not an event, once a
    /// window met one: the replay ends there).
    var eventsAfterWindow: Int {
        guard let end = replayReach else { return 0 }
        return max(0, end - forgottenEvents - trace.count)
    }

    /// The events a windowed replay can show: the file's, or those before its line that is not an event.
    private var replayReach: Int? { replayIndex.map { replayEnd ?? $0.count } }

    /// What is added to a step's place in the trace held to number it as the screen does: a windowed replay numbers
    /// the file's events, whatever window is held (a live session numbers those it holds).
    var eventNumberOffset: Int { replayIndex == nil ? 0 : forgottenEvents }

    /// The events the screen numbers: a windowed replay's file's (as far as it can be read), else those held.
    var shownEventCount: Int { replayIndex == nil ? trace.count : replayedEventCount }

    /// The events of the whole replay: a windowed replay's file's, or those held.
    var replayedEventCount: Int { forgottenEvents + trace.count + eventsAfterWindow }

    /// Asks for the window of a long file around its event `target` (a count: the events shown), nil when the
    /// replay is not windowed or that window is the one shown.
    mutating func requestWindow(showing target: Int) -> ReplayWindowRequest? {
        guard let replayIndex, let reach = replayReach else { return nil }
        let size = Self.replayWindowEvents
        let target = min(max(0, target), reach)
        let lower = max(0, min(target - size / 2, reach - size))
        let range = lower..<min(reach, lower + size)
        guard range.lowerBound != forgottenEvents || range.count != trace.count else { return nil }
        pendingWindow = range
        return ReplayWindowRequest(index: replayIndex, range: range)
    }

    /// Takes the window asked for; false (and nothing changes) for a window not asked for.
    mutating func adoptWindow(_ window: TraceWindow) -> Bool {
        guard let replayIndex, let pendingWindow, window.base == pendingWindow.lowerBound else { return false }
        self = Session(replay: replayIndex, window: window, known: replayThreads, replacing: self)
        return true
    }

    /// What the trace can know, for the Why pane: a recording of observer activities (no run, sleep or wake events:
    /// LoopRecorder's) knows nothing of what ran between them.
    var knowledge: Explanation.Knowledge { isReplay && fillsFromActivities ? .observerActivitiesOnly : .everyEvent }

    /// The words the replay shows instead of a lesson's header comment.
    static func replayHeader(_ header: JSONLTraceHeader, threads: [String] = []) -> [String] {
        let source =
            header.recording.map { "recorded from " + recordingSource($0, threads: threads) }
            ?? "written by loopviz on the \(header.clock.rawValue) clock"
        return ["A trace, \(source): a read-only replay (pokes are unavailable)."]
    }

    /// The words a poke gets in a replay.
    static let replayPokeMessage = "a recorded trace is read-only: pokes are unavailable"
}

/// A window of a long trace file to read (``Effect/readReplayWindow(_:)``), answered by
/// ``AppMessage/replayWindowRead(_:)``.
struct ReplayWindowRequest: Equatable, Sendable {
    var index: TraceIndex
    var range: Range<Int>

    /// Reads it (blocking: a few megabytes, tens of milliseconds).
    func read() -> TraceWindow { index.read(range) }
}
