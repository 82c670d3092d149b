import LoopEngine

/// Presenter mode's keys: on and off, the lock on pokes, panels hidden and shown one by one, playing to the next
/// narration.
extension Classroom {
    /// Commands that change the run (pokes): refused while presenter mode locks them.
    static func changesTheRun(_ command: Command) -> Bool {
        switch command {
        case .fireTimer, .signalAndWake, .signalOnly, .sendMessage, .wakeUp, .stop, .performBlock, .scroll,
            .nestedRun, .addTimer, .addSource, .addObserver, .removeItem, .addOperation, .cancelOperation,
            .cancelAllOperations, .toggleSuspended, .raiseLimit, .lowerLimit:
            true
        default: false
        }
    }

    static let lockedMessage = "pokes locked: U unlocks them"
}

/// True when presenter mode refuses `command` (a poke while locked); says so in the status bar.
func presenterRefuses(_ command: Command, _ model: inout AppModel) -> Bool {
    let presenter = model.classroom.presenter
    guard presenter.isOn, presenter.pokesLocked, Classroom.changesTheRun(command) else { return false }
    model.flash = StatusMessage(Classroom.lockedMessage)
    return true
}

func togglePresenter(_ model: inout AppModel) {
    model.classroom.presenter.isOn.toggle()
    model.classroom.presenter.pokesLocked = true
    // The key that turned it on is echoed: the status bar shows the audience what was pressed.
    let keys = model.keys
    model.classroom.presenter.lastKey =
        model.classroom.presenter.isOn ? keys.key(for: .togglePresenter, in: model.view) : nil
    let words =
        model.classroom.presenter.isOn
        ? "presenter mode: pokes locked (\(keys.word(for: .togglePokeLock))), \(keys.word(for: .hidePanel)) hides a "
            + "panel, \(keys.word(for: .showPanel)) shows one, \(keys.word(for: .nextNarration)) plays to the next "
            + "narration"
        : "presenter mode off"
    model.flash = StatusMessage(words)
}

func togglePokeLock(_ model: inout AppModel) {
    guard model.classroom.presenter.isOn else {
        model.flash = "pokes are only locked in presenter mode (\(model.keys.word(for: .togglePresenter)))"
        return
    }
    model.classroom.presenter.pokesLocked.toggle()
    model.flash = StatusMessage(
        model.classroom.presenter.pokesLocked
            ? "pokes locked" : "pokes unlocked: \(model.keys.word(for: .togglePokeLock)) locks them again")
}

/// `z`: hides the focused panel (Tab picks it); `Z`: shows the panel hidden last.
func hideOrShowPanel(hide: Bool, _ model: inout AppModel) {
    guard model.classroom.presenter.isOn else {
        model.flash = "panels are hidden in presenter mode (\(model.keys.word(for: .togglePresenter)))"
        return
    }
    if hide {
        let panel = model.focus
        if !model.classroom.presenter.hidden.contains(panel) { model.classroom.presenter.hidden.append(panel) }
        model.flash = "\(panel.rawValue) hidden (\(model.keys.word(for: .showPanel)) shows it again)"
        // The focus moves on to a panel still shown.
        if let next = AppModel.Panel.allCases.first(where: { !model.classroom.presenter.hidden.contains($0) }) {
            model.focus = next
        }
    } else if let panel = model.classroom.presenter.hidden.popLast() {
        model.focus = panel
        model.flash = "\(panel.rawValue) shown"
    } else {
        model.flash = "every panel is shown"
    }
}

/// The cursor that shows the next narration after the current step: a `say` line's event, or a callout's `say`
/// (searched as far as the replay can compute, within ``narrationSearchLimit`` events: a key must answer at once).
func nextNarrationCursor(_ model: AppModel) throws(NeedsLongerTrace) -> Int? {
    let anchors = Set(model.session.narrationAnchors.indices.compactMap { $0 })
    var index = model.cursor
    while index < model.cursor + narrationSearchLimit {
        if index >= model.trace.count {
            guard model.session.canExtend else { return nil }
            throw NeedsLongerTrace()
        }
        if anchors.contains(index + model.session.forgottenEvents) { return index + 1 }
        if case .note = model.trace[index].fact { return index + 1 }
        index += 1
    }
    return nil
}

/// How many events past the step `d` looks at for the next narration.
let narrationSearchLimit = 5000

/// `d` / Enter: plays (at the speed chosen) up to the next narration and pauses there.
func playToNextNarration(_ model: inout AppModel) throws(NeedsLongerTrace) {
    guard let target = try nextNarrationCursor(model) else {
        model.flash = "no narration after this step"
        return
    }
    model.classroom.playUntil = target
    model.isPaused = false
}

/// After each message: playback that reached the narration it was playing to stops there.
func settlePlayUntil(_ model: inout AppModel, furthestBefore: Int) {
    guard let target = model.classroom.playUntil else { return }
    if model.cursor >= target {
        model.cursor = target
        model.furthest = max(furthestBefore, target)
        model.isPaused = true
        model.classroom.playUntil = nil
    } else if model.isPaused {
        model.classroom.playUntil = nil
    }
}

extension Key {
    /// How the status bar echoes the key in presenter mode.
    var echo: String {
        switch self {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        }
    }
}
