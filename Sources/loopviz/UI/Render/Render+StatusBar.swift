import LoopEngine

// Render: the title line and the status bar.

func drawTitle(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    screen.fill(Rect(x: 0, y: 0, width: model.width, height: 1), style: glyphs.title)
    // A replay names the clock its file was written on.
    let clock = model.session.replayClock.map { $0 == .real } ?? model.session.isLive ? "real clock  " : ""
    let right =
        " \(clock)t=\(model.now)s  step \(model.session.eventNumberOffset + model.cursor)/"
        + "\(model.session.shownEventCount)\(model.session.canExtend ? "+" : "") "
    let file = model.fileName.split(separator: "/").last.map(String.init) ?? model.fileName
    // Whole when it fits; else without the file name; else the scenario's name cut with an ellipsis: never a
    // name cut mid-word against the clock.
    let room = model.width - right.count - 1
    let name = model.session.script.scenario.name
    var title = " loopviz  \(name)  (\(file))"
    if DisplayWidth.columns(title) > room { title = " loopviz  \(name)" }
    title = TextFit.fit(title, width: room, ellipsis: glyphs.ellipsis)
    screen.put(title, x: 0, y: 0, style: glyphs.title, limit: room)
    screen.put(right, x: model.width - right.count, y: 0, style: glyphs.title)
}

func drawStatus(_ model: AppModel, _ screen: inout Screen, _ glyphs: Glyphs) {
    let y = model.height - 1
    screen.fill(Rect(x: 0, y: y, width: model.width, height: 1), style: glyphs.title)
    // While the engine computes, the badge says so: the steps shown are the trace before the key.
    let mode = model.isComputing ? "COMPUTING\(glyphs.ellipsis)" : model.playback.rawValue
    var modeStyle = glyphs.title
    modeStyle.bold = true
    screen.put(" \(mode) ", x: 0, y: y, style: modeStyle)
    var text =
        model.session.isFollowing
        ? " following, read-only  t=\(model.now)s  "
        : model.session.isReplay
            ? " recording, read-only  \(model.speedLabel)  t=\(model.now)s  "
            : model.session.isLive ? " real threads  " : " \(model.speedLabel)  t=\(model.now)s  "
    // A schedule other than the default (`X`) is said: the run shown is one of several the races allow.
    if !model.session.schedule.isDefault { text = " schedule \(model.session.schedule.id) " + text }
    // The filter comes first: it changes what the log and the timeline show.
    let keys = model.keys
    if let filter = model.filter {
        let clears = keys.name(of: .closeOverlay, in: model.view).map { " (\($0) clears)" } ?? ""
        text = " filter \(filter.typed)\(clears) " + text
    }
    if model.session.droppedEvents > 0 { text += "\(model.session.droppedEvents) events dropped  " }
    if model.session.forgottenEvents > 0 && model.session.replayIndex == nil {
        text += "\(model.session.forgottenEvents) oldest events forgotten  "
    }
    // Short, to be seen at 80 columns: the flash said it whole when the line was met.
    if case .invalid(let failure) = model.session.replayProblem {
        text += "ends at bad line \(failure.line)  "
    } else if model.session.replayProblem != nil {
        text += "ends: file unreadable  "
    }
    if model.session.reachedEventBudget {
        if case .workLimit(let work) = model.session.haltReason {
            text += "stopped at the work budget (\(work.operations) item operations)  "
        } else {
            text += "stopped at the event budget (\(model.session.maxEvents) events)  "
        }
    }
    if model.session.isFollowing { text += followStatus(model.session, following: model.isFollowing, keys: keys) }
    if model.session.isLive && !model.session.isFollowing && model.session.liveEnded {
        text += "every thread has ended  "
    }
    if let limit = LimitReport.summary(model.session.haltReason),
        let short = LimitReport.shortSummary(model.session.haltReason)
    {
        // The whole sentence where it fits with the key hints' first words; the short form otherwise.
        let room = model.width - mode.count - 2 - DisplayWidth.columns(text) - 20
        text += "stopped: \(limit.count + 11 <= room ? limit : short)  "
    }
    if model.cursor >= model.trace.count, let stuck = LimitReport.stuckShortSummary(model.session.stuckWaits) {
        text += "at the end: \(stuck)  "
    }
    let room = model.width - mode.count - 2
    if let flash = model.flash {
        // What a key did comes first, its essential part (which key, which item) whole; the speed and the clock
        // follow where there is room (never in presenter mode: the audience reads them above).
        let classroom = classroomStatus(model, glyphs)
        // As without a message: a space after the badge, none before the classroom's own words.
        let lead = classroom.isEmpty ? " " : classroom
        let said = lead + flash.fitted(room - DisplayWidth.columns(lead), ellipsis: glyphs.ellipsis)
        let rest = room - DisplayWidth.columns(said) - 2
        let state = model.classroom.presenter.isOn ? "" : text.withoutOuterSpaces
        text =
            said
            + (rest >= 12 && !state.isEmpty ? "  " + TextFit.fit(state, width: rest, ellipsis: glyphs.ellipsis) : "")
    } else {
        // Whole hints only, as many as fit after what the bar has to say; each with the user's key, none for a
        // command without one.
        let view = model.view
        func pair(_ first: Command, _ second: Command, _ separator: String, _ words: String) -> String? {
            guard let one = keys.name(of: first, in: view), let other = keys.name(of: second, in: view) else {
                return nil
            }
            return "\(one)\(separator)\(other) \(words)"
        }
        let common = [
            keys.hint(.help, "help", in: view), keys.hint(.quit, "quit", in: view),
            keys.hint(.togglePause, "play/pause", in: view), pair(.stepForward, .stepBack, "/", "step"),
        ]
        let rest =
            view == .pool
            ? [
                keys.hint(.togglePoolView, "loop view", in: view), keys.hint(.addOperation, "add", in: view),
                keys.hint(.cancelOperation, "cancel", in: view),
                keys.hint(.cancelAllOperations, "cancel all", in: view),
                keys.hint(.toggleSuspended, "suspend", in: view), pair(.lowerLimit, .raiseLimit, " ", "limit"),
            ]
            : model.session.isReplay
                // A recording takes no pokes: its hints are the ones that read it.
                // (`m` "scroll" is a poke: it runs the tracking mode.)
                ? [
                    keys.hint(.pickThread, "thread", in: view), keys.hint(.goTo, "go to", in: view),
                    keys.hint(.search, "search", in: view),
                ]
                : [
                    keys.hint(.signalAndWake, "signal", in: view), keys.hint(.sendMessage, "port", in: view),
                    keys.hint(.fireTimer, "fire", in: view), keys.hint(.wakeUp, "wake", in: view),
                    keys.hint(.stop, "stop", in: view), keys.hint(.pickThread, "thread", in: view),
                    keys.hint(.scroll, "scroll", in: view),
                ]
        // With a library, its keys come right after help and quit.
        let lessons =
            model.library.isEmpty
            ? []
            : [keys.hint(.openPicker, "lessons", in: view), pair(.previousLesson, .nextLesson, " ", "prev/next")]
        let hints = common + rest
        let shown = (Array(hints.prefix(2)) + lessons + hints.dropFirst(2)).compactMap { $0 }
        text = TextFit.fit(classroomStatus(model, glyphs) + text, width: room, ellipsis: glyphs.ellipsis)
        text += TextFit.join(shown, width: room - DisplayWidth.columns(text))
    }
    screen.put(text, x: mode.count + 2, y: y, style: glyphs.title, limit: room)
}

/// `/`: the prompt takes the status bar's place: what is typed, then why Enter did not take it, or how to go on.
func drawSearchPrompt(_ model: AppModel, _ prompt: SearchPrompt, _ screen: inout Screen, _ glyphs: Glyphs) {
    let y = model.height - 1
    screen.fill(Rect(x: 0, y: y, width: model.width, height: 1), style: glyphs.title)
    var badge = glyphs.title
    badge.bold = true
    screen.put(" SEARCH ", x: 0, y: y, style: badge)
    let room = model.width - 9
    let typed = "/\(prompt.typed)_"
    let after =
        prompt.problem.map { "  " + $0.message }
        ?? "  Enter filters, Esc cancels; thread: kind: item: mode: or words"
    let shownTyped = DisplayWidth.columns(typed) > room ? "/" + glyphs.ellipsis + String(typed.suffix(room - 2)) : typed
    let text =
        shownTyped + TextFit.fit(after, width: room - DisplayWidth.columns(shownTyped), ellipsis: glyphs.ellipsis)
    screen.put(text, x: 9, y: y, style: glyphs.title, limit: room)
}
