import LoopEngine

/// The cursor after the next event the view shows (the end of the trace if there is none; the session computes
/// further when it can).
func nextShown(after cursor: Int, _ model: AppModel) throws(NeedsLongerTrace) -> Int {
    if let next = (min(cursor, model.trace.count)..<model.trace.count).first(where: {
        model.isShown(model.trace[$0])
    }) {
        return next + 1
    }
    if model.session.canExtend { throw NeedsLongerTrace() }
    // A windowed replay reads the window after this one (the step is handled again there).
    if model.session.eventsAfterWindow > 0 && !model.isHandlingAgain {
        throw NeedsLongerTrace(showing: model.session.forgottenEvents + model.trace.count + 1)
    }
    return model.view == .loop ? cursor + 1 : model.trace.count
}

/// `g N`: moves to event N, saying so when N is outside the events there are (the nearest is shown). A windowed
/// replay numbers the file's events: N may be in another window.
func goTo(_ number: Int, _ model: inout AppModel) throws(NeedsLongerTrace) {
    let offset = model.session.eventNumberOffset
    try move(&model, to: number - offset)
    let count = model.session.shownEventCount
    if number < 1 && count > 0 {
        model.flash = "no event \(number): events are numbered 1-\(count); showing event 1"
        try move(&model, to: 1 - offset)
    } else if number > count {
        var soFar = model.session.canExtend ? " so far" : ""
        if case .invalid(let failure) = model.session.replayProblem {
            soFar = " before line \(failure.line) of the file, which is not an event"
        } else if model.session.replayProblem != nil {
            soFar = " before the place the file could not be read"
        }
        model.flash = StatusMessage(
            "no event \(number): there are \(count) events\(soFar); showing the last",
            detail: model.session.replayProblem.map { TraceIndex.describe($0, path: model.fileName) })
    }
}

/// Moves the cursor, computing further if the session can show more.
func move(_ model: inout AppModel, to target: Int) throws(NeedsLongerTrace) {
    if target > model.trace.count && model.session.canExtend && !model.isHandlingAgain { throw NeedsLongerTrace() }
    // A windowed replay: a step outside the window held, or near an edge of it that is not the file's, reads the
    // window around it (the log and the timeline then have events on both sides of the step).
    let session = model.session
    let margin = Session.replayWindowEvents / 8
    if session.replayIndex != nil && !model.isHandlingAgain
        && (target > model.trace.count - margin && session.eventsAfterWindow > 0
            || target < margin && session.forgottenEvents > 0)
    {
        throw NeedsLongerTrace(showing: session.forgottenEvents + target)
    }
    let back = target < model.cursor
    model.cursor = min(max(0, target), model.trace.count)
    model.furthest = max(model.furthest, model.cursor)
    // Back in time: playing in real time goes on from the step shown, not from where it had been.
    if back { model.playClock = model.now }
    model.logScroll = 0
}

/// Advances playback by `seconds` of wall time.
func advancePlayback(_ model: inout AppModel, by seconds: Double) throws(NeedsLongerTrace) {
    guard !model.isPaused, !model.isTooSmall, model.overlay == .none, model.classroom.question == nil else { return }
    if model.session.isLive && !model.session.isReplay || model.session.isFollowing {
        // The real threads (or the followed file) set the pace: playing shows everything they have done so far.
        if model.cursor < model.trace.count { try move(&model, to: model.trace.count) }
        return
    }
    if model.cursor >= model.trace.count {
        // One doubling a tick: the next tick asks again.
        if model.session.canExtend && !model.isHandlingAgain { throw NeedsLongerTrace() }
        // A windowed replay plays on into the next window.
        if model.session.eventsAfterWindow > 0 && !model.isHandlingAgain {
            throw NeedsLongerTrace(showing: model.session.forgottenEvents + model.trace.count + 1)
        }
        return
    }
    if let rate = AppModel.speeds[model.speedIndex].stepsPerSecond {
        model.stepCredit += seconds * rate
        let steps = Int(model.stepCredit)
        model.stepCredit -= Double(steps)
        // A step is an event the view shows: the pool view plays the pool's events, not its workers' loops.
        var target = model.cursor
        for _ in 0..<steps { target = try nextShown(after: target, model) }
        if steps > 0 { try move(&model, to: target) }
    } else {
        // Real time: show every event whose virtual time has come.
        model.playClock = max(model.playClock, model.now) + .secondsValue(seconds)
        var target = model.cursor
        while target < model.trace.count && model.trace[target].time <= model.playClock { target += 1 }
        if target > model.cursor { try move(&model, to: target) }
    }
}
