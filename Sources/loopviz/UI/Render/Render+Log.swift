import LoopEngine

// Render: the event log.

/// Two columns per nested run, up to ``maximumLogIndent`` levels; deeper events say their depth instead, so the
/// event's name stays on screen (`            [256] source0 s`).
func logIndent(depth: Int) -> String {
    let levels = max(0, depth - 1)
    guard levels > maximumLogIndent else { return String(repeating: " ", count: levels * 2) }
    return String(repeating: " ", count: maximumLogIndent * 2 - 6) + "[\(depth)]".padded(6)
}

/// The widths of an event list's time, thread and mode columns: as wide as the rows shown need (a time with the
/// iteration cost's extra digits, a long worker name), at least the usual widths, at most 16 for a name, so the
/// columns of the rows on screen line up.
struct LogColumns {
    var time = 7
    var thread = 8
    var mode = 9

    init<Events: Collection>(_ events: Events, minimumTime: Int = 7) where Events.Element == LoopEvent {
        time = minimumTime
        for event in events {
            time = max(time, event.time.description.count)
            thread = max(thread, min(16, DisplayWidth.columns(event.loop)))
            mode = max(mode, min(16, DisplayWidth.columns(event.mode ?? "-")))
        }
    }
}

/// The deepest indent of the event log, in nested runs.
let maximumLogIndent = 8

func drawLog(_ model: AppModel, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    let title =
        model.filter.map {
            let (next, back) = (model.keys.word(for: .nextMatch), model.keys.word(for: .previousMatch))
            return
                "Event log, filter \($0.typed) (\(next) \(back) match, \(model.keys.word(for: .closeOverlay)) clears)"
        } ?? "Event log (\(glyphs.upDown) scroll, \(model.keys.word(for: .goTo)) go to)"
    header(title, rect, focused: model.focus == .log, &screen, glyphs)
    let rows = rect.height - 1
    guard rows > 0 else { return }
    let last = max(0, model.cursor - model.logScroll)
    let indexes: [Int]
    var exhausted: String?
    if model.filter != nil {
        (indexes, exhausted) = filteredLogIndexes(model, last: last, rows: rows)
    } else {
        indexes = Array(max(0, last - rows)..<last)
    }
    let widths = LogColumns(indexes.lazy.map { model.trace[$0] })
    // Six columns for the step's number, more for a longer replay's (a windowed one numbers up to 10⁷): the
    // columns stay where they are as the step moves.
    // (The file's count too: a bad line met later shortens the replay, not the column.)
    let widest = max(model.session.shownEventCount, model.session.replayIndex?.count ?? 0)
    let numberWidth = max(6, String(widest).count)
    let top = rect.y + 1 + (exhausted == nil ? 0 : 1)
    if let exhausted {
        screen.put(
            TextFit.fit(exhausted, width: rect.width, ellipsis: glyphs.ellipsis), x: rect.x, y: rect.y + 1,
            style: glyphs.dimmed)
    }
    for (row, index) in indexes.enumerated() {
        let event = model.trace[index]
        let y = top + row
        let indent = logIndent(depth: event.depth)
        // A fork beside the step number: this event's place depends on a schedule choice (the Why says which).
        let fork = model.session.branchMarks.isMarked(index) ? glyphs.branch : " "
        var text =
            String(model.session.eventNumberOffset + index + 1).leftPadded(numberWidth) + fork + " "
            + event.time.description.leftPadded(widths.time) + "  "
        text += event.loop.padded(widths.thread) + " " + (event.mode ?? "-").padded(widths.mode) + " " + indent
        text += event.kind.rawValue
        if let name = event.name { text += " " + name }
        if let detail = event.detail { text += "  (" + detail + ")" }
        if let mark = model.bookmarks.mark(at: model.session.eventNumberOffset + index + 1) {
            text += "  " + (model.theme.unicode ? "⚑" : "*") + (mark.note.isEmpty ? "" : " " + mark.note)
        }
        var style: Screen.Style = .plain
        if index == model.cursor - 1 {
            style = glyphs.current
        } else if event.kind.isCallout {
            style = glyphs.callout
        } else if event.kind == .result {
            style = glyphs.result
        } else if event.kind == .sleep || event.kind == .wake {
            style = glyphs.sleeping
        } else if event.kind.isActivity {
            style = glyphs.activity
        }
        // Fitted as it will be shown: escapes widen a name or a mark with control characters.
        screen.put(
            TextFit.fit(TerminalSafeText.terminalSafe(text), width: rect.width, ellipsis: glyphs.ellipsis), x: rect.x,
            y: y, style: style)
    }
}

/// The events of a filtered log, oldest first, ending at `last` (the step shown is always among them, so the log
/// says where playback is): the last rows of the filter's index before `last`, a binary search and one look per
/// row. When they do not fill the rows, the first row says that no earlier event matches.
func filteredLogIndexes(
    _ model: AppModel, last: Int, rows: Int
) -> (indexes: [Int], exhausted: String?) {
    guard let index = model.currentFilterIndex else { return ([], nil) }
    var kept = index.last(rows, before: last).map(Int.init)
    let shown = model.cursor - 1
    if shown >= 0 && shown < last, !kept.contains(shown) {
        kept.insert(shown, at: kept.firstIndex { $0 > shown } ?? kept.count)
        if kept.count > rows { kept.removeFirst() }
    }
    guard kept.count < rows else { return (kept, nil) }
    return (Array(kept.suffix(rows - 1)), "(no earlier event matches)")
}
