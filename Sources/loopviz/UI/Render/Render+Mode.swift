import LoopEngine

// Render: the mode panel: the items of the current mode and what each is doing.

func drawMode(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    let loop = focusSnapshot(model, snapshots)
    // The hint names the keys that select (e, E, 1-9) only where there is something to select.
    let hint =
        model.session.isReplay
        ? "a recording lists no items"
        : model.items.isEmpty
            ? "none declared"
            : "\(model.keys.word(for: .nextItem)), \(model.keys.word(for: .previousItem)) or "
                + "\(model.keys.bindings.first { $0.command == .selectItem(0) }?.label ?? "1-9") select"
    let title = loop?.currentMode.map { "Mode \($0): items (\(hint))" } ?? "Items (no run: \(hint))"
    header(
        TextFit.fit(title, width: rect.width - 4, ellipsis: glyphs.ellipsis), rect, focused: model.focus == .mode,
        &screen, glyphs)
    let mode = loop?.currentMode ?? "(no run)"
    guard let spec = model.loopThreadSpec else {
        // A pool's worker or a detached thread: the file declares no items for it.
        let name = model.loopThread
        let text =
            "thread \(name) was started by the run (a pool's worker or a detached thread): the file declares no "
            + "items for it; its schedules and callouts are in the event log."
        for (row, line) in wrap(text, width: rect.width - 2).prefix(rect.height - 1).enumerated() {
            screen.put(line, x: rect.x + 1, y: rect.y + 1 + row)
        }
        return
    }
    let common = Set(spec.commonModes.map(\.rawValue) + ["default"])
    let rows = rect.height - 1
    // More items than rows: a window that keeps the selected item in view, and a last row saying what is hidden.
    let capacity = spec.items.count > rows ? rows - 1 : rows
    let start = model.selectedItem >= capacity ? min(model.selectedItem - capacity + 1, spec.items.count - capacity) : 0
    // Numbers as wide as the largest (` 9`, `10`): a tenth item keeps its column.
    let digits = String(spec.items.count).count
    for (offset, item) in spec.items.dropFirst(start).prefix(capacity).enumerated() {
        let index = start + offset
        let y = rect.y + 1 + offset
        // An item invalidated (its invalidate event) or removed from the mode (its cancel event) is no longer in it.
        let gone = goneLabel(item.name, loop, mode: mode)
        let inMode =
            gone == nil
            && (item.modes.contains { $0.rawValue == mode || ($0 == .common && common.contains(mode)) }
                || pokedInto(item.name, model, mode: mode))
        var style: Screen.Style = inMode ? .plain : glyphs.dimmed
        let selected = index == model.selectedItem
        if selected { style.bold = true }
        let marker = selected ? glyphs.arrow : " "
        screen.put("\(marker)" + String(index + 1).leftPadded(digits) + " ", x: rect.x, y: y, style: style)
        let text =
            (gone ?? (inMode ? "" : modeLabel(item)))
            + describe(item, loop, now: model.now, profile: model.session.script.scenario.profile, glyphs: glyphs)
        screen.put(
            TextFit.fit(text, width: rect.width - 3 - digits, ellipsis: glyphs.ellipsis), x: rect.x + 2 + digits, y: y,
            style: style)
    }
    if spec.items.count > rows {
        let below = spec.items.count - start - capacity
        let text = "   (\(start) above, \(below) below: e, E or 1-9 select)"
        screen.put(
            TextFit.fit(text, width: rect.width - 1, ellipsis: glyphs.ellipsis), x: rect.x, y: rect.y + rows,
            style: glyphs.dimmed)
    }
    if let queued = loop?.blocksQueued, !queued.isEmpty, rect.height - 1 > spec.items.count {
        let y = rect.y + 1 + spec.items.count
        let names = queued.prefix(6).joined(separator: ", ") + (queued.count > 6 ? glyphs.ellipsis : "")
        screen.put(
            TextFit.fit("   blocks queued: \(names)", width: rect.width - 1, ellipsis: glyphs.ellipsis), x: rect.x,
            y: y,
            style: glyphs.warning)
    }
}

/// `[invalidated] ` for an item whose `invalidate` event (the program's, or a poke's) came before the step shown,
/// `[removed] ` for a source whose cancel event took it out of the mode shown; nil for an item still there.
private func goneLabel(_ name: String, _ loop: LoopSnapshot?, mode: String) -> String? {
    if loop?.invalidated.contains(name) == true { return "[invalidated] " }
    return loop?.removedFrom[name]?.contains(mode) == true ? "[removed] " : nil
}

/// True for an item a poke added to `mode` before the step shown (an item added from the keyboard declares no
/// mode: the poke adds it to the mode running at its time).
private func pokedInto(_ name: String, _ model: AppModel, mode: String) -> Bool {
    model.session.interventions.contains { poke in
        poke.afterEvent < model.cursor && (poke.thread ?? model.session.primaryThread.name) == model.loopThread
            && poke.actions.contains(.add(name, ModeName(mode)))
    }
}

/// `profile` dates a Foundation timer as its call does (`foundation init` fires at once on linux).
private func describe(
    _ item: ItemSpec, _ loop: LoopSnapshot?, now: LoopInstant, profile: PlatformProfile, glyphs: Glyphs
) -> String {
    let name = item.name
    switch item.kind {
    case .source0(let order):
        let signalled = loop?.signalled.contains(name) == true
        return "source0 \(name) order \(order)  \(signalled ? "\(glyphs.dot) signalled" : "not signalled")"
    case .port:
        let pending = loop?.pendingMessages[name] ?? 0
        return "port \(name)  " + (pending > 0 ? "\(glyphs.dot) \(pending) pending" : "no message")
    case .timer(_, let interval, _):
        let fires = loop?.timerFireCounts[name] ?? 0
        let first = item.firstFire(profile: profile) ?? .zero
        let next = nextFire(first: first, interval: interval, last: loop?.lastTimerFire[name])
        let every = interval > .zero ? "/\(LoopInstant.zero + interval)s" : " once"
        var text = "timer \(name)\(every) \(glyphs.times)\(fires)"
        if let late = loop?.lateFires[name], late > 0 { text += " late \(glyphs.times)\(late)" }
        if let next, next >= now {
            let span = interval > .zero ? interval : (next - .zero)
            text += " " + bar(remaining: next - now, of: span, glyphs: glyphs) + " \(next)"
        } else if interval == .zero && fires > 0 {
            text += "  (spent)"
        }
        return text
    case .observer(let activities, let repeats, let order):
        let calls = loop?.observerCalls[name] ?? 0
        let spent = loop?.spentObservers.contains(name) == true
        return "observer \(name) \(activities) order \(order)\(repeats ? "" : " once") \(glyphs.times)\(calls)"
            + (spent ? "  (spent)" : "")
    }
}

/// The next deadline on the timer's own grid after its last fire (approximate when a callout moved it).
private func nextFire(first: Duration, interval: Duration, last: LoopInstant?) -> LoopInstant? {
    let start = LoopInstant.zero + first
    guard let last else { return start }
    guard interval > .zero else { return nil }
    let step = interval.nanosecondsClamped
    let behind = max(0, last.nanoseconds - start.nanoseconds)
    return LoopInstant(nanoseconds: start.nanoseconds + (behind / step + 1) * step)
}

private func bar(remaining: Duration, of total: Duration, glyphs: Glyphs) -> String {
    let width = 6
    let totalNanos = max(1, total.nanosecondsClamped)
    let done =
        width - Int((Double(max(0, remaining.nanosecondsClamped)) / Double(totalNanos) * Double(width)).rounded())
    let filled = min(width, max(0, done))
    return "[" + String(repeating: glyphs.full, count: filled) + String(repeating: glyphs.empty, count: width - filled)
        + "]"
}
