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
        let threads = tail.threads
        let specs = (threads.isEmpty ? ["T"] : threads).map {
            ThreadSpec(name: $0, isMain: $0 == header.recording?.thread && $0 == "main", items: [], program: [])
        }
        let scenario = Scenario(name: header.scenario, threads: specs)
        self.init(liveScript: LoopScript(scenario: scenario, header: Self.replayHeader(header, threads: threads)))
        isReplay = true
        let events = tail.events
        appendLive(events, dropped: tail.dropped, ended: false, forgottenBefore: tail.forgotten)
        hangs = TimelineHangs(self.trace)
        hangs.nameStacks(self.trace)
        fillsFromActivities = !self.trace.contains { [.runStart, .result, .sleep, .wake].contains($0.kind) }
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
