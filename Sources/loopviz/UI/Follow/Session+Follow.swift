import LoopEngine

extension Session {
    /// `--follow`: a read-only replay of a recording still being written, empty until its first lines are read.
    /// Its loop is the recording's thread (`main` until the header says), and its hangs are found again as it grows.
    init(following fileName: String) {
        let scenario = Scenario(
            name: fileName, threads: [ThreadSpec(name: "main", isMain: true, items: [], program: [])])
        self.init(liveScript: LoopScript(scenario: scenario, header: [Self.followHeader(nil)]))
        isReplay = true
        isFollowing = true
        fillsFromActivities = true
    }

    /// Takes what a look at the file found; the number of oldest events forgotten to stay within the live budget
    /// (``maximumLiveEvents``).
    mutating func appendFollowed(_ batch: FollowBatch) -> Int {
        if let header = batch.header {
            script.scenario.name = header.scenario
            followedHeader = header
            // The recording's thread names the loop (read before any event: the header is the first line).
            if let thread = header.recording?.thread, trace.isEmpty {
                script.scenario.threads[0].name = thread
                script.scenario.threads[0].isMain = thread == "main"
                refold()
            }
        }
        for event in batch.events
        where followedThreads.count < ThreadLimit.maximumThreads && !followedThreads.contains(event.loop) {
            followedThreads.append(event.loop)
        }
        if batch.header != nil || followedThreads.count > 1 {
            script.header = [Self.followHeader(followedHeader, threads: followedThreads)]
        }
        if let problem = batch.problem, followProblem == nil { followProblem = problem }
        let dropped = batch.events.reduce(0) { if case .dropped(let count) = $1.fact { $0 + count } else { $0 } }
        // Only a recording of observer activities fills the timeline from them; a loopviz trace has runs and sleeps.
        if batch.events.contains(where: { [.runStart, .result, .sleep, .wake].contains($0.kind) }) {
            fillsFromActivities = false
        }
        let forgotten = appendLive(batch.events, dropped: dropped, ended: batch.ended || liveEnded)
        // The hang marks appear as the busy segments end (found again over the events kept), with their stacks'
        // frames named as the feed read them.
        followedFrames.merge(batch.frames) { old, _ in old }
        if !batch.events.isEmpty || forgotten > 0 {
            let earlier = hangs
            hangs = TimelineHangs(trace)
            hangs.nameStacks(trace, frames: followedFrames, keeping: earlier)
        }
        return forgotten
    }

    /// The words the followed recording shows instead of a lesson's header comment; `threads`: those its events
    /// named so far.
    static func followHeader(_ header: JSONLTraceHeader?, threads: [String] = []) -> String {
        let source = header?.recording.map { " from " + recordingSource($0, threads: threads) } ?? ""
        return "A recording followed as it is written\(source): read-only (pokes are unavailable)."
    }

    /// `app (pid 12), thread main`, or `app (pid 12), 3 threads` once a recording of every thread's loop has
    /// named more than one.
    static func recordingSource(_ recording: JSONLTraceHeader.Recording, threads: [String]) -> String {
        let which = threads.count > 1 ? "\(threads.count) threads" : "thread \(threads.first ?? recording.thread)"
        return "\(recording.process) (pid \(recording.pid)), \(which)"
    }
}
