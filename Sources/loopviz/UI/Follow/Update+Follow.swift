import LoopEngine

/// `--follow`: the view shows the newest event while it follows (playing at the end of the trace); a step back
/// or a pause stops following, and End follows again.
func takeFollowed(_ batch: FollowBatch, _ model: inout AppModel) throws(NeedsLongerTrace) {
    let following = model.isFollowing
    let endedBefore = model.session.liveEnded
    let forgotten = model.session.appendFollowed(batch)
    if forgotten > 0 && model.cursor <= forgotten && !following {
        model.flash = "the step shown was among the \(forgotten) oldest events, now forgotten"
    }
    model.cursor = max(0, model.cursor - forgotten)
    model.furthest = max(0, model.furthest - forgotten)
    if following { try move(&model, to: model.trace.count) }
    if let problem = batch.problem {
        model.flash = problem.message
    } else if batch.ended && !endedBefore {
        model.flash = StatusMessage(Session.followEndedMessage)
    }
}

/// End: back to the newest event, following again; in a recording replayed whole, its last step.
func followNewest(_ model: inout AppModel) throws(NeedsLongerTrace) {
    guard model.session.isFollowing else {
        if model.session.isReplay {
            // A windowed replay's last step is its file's.
            try move(&model, to: model.trace.count + model.session.eventsAfterWindow)
            return
        }
        model.flash =
            "\(model.keys.word(for: .followNewest)) follows a recording as it grows: loopviz --follow FILE.jsonl"
        return
    }
    model.isPaused = false
    try move(&model, to: model.trace.count)
}

extension AppModel {
    /// True while a followed recording's view shows each new event as it arrives.
    var isFollowing: Bool { session.isFollowing && !isPaused && cursor >= trace.count }
}

extension Session {
    /// The status bar once the recording says the program ended.
    static let followEndedMessage = "the program has ended: its recording is complete"
    /// The status bar's marker while following is paused.
    static func followPausedMarker(_ keys: KeyMap = .standard) -> String {
        "following paused: \(keys.word(for: .followNewest)) to follow again"
    }
}
