import LoopEngine

// Render: the timeline: each thread awake, asleep or busy, with its callouts marked.

func drawTimeline(
    _ model: AppModel, _ snapshots: [LoopSnapshot], _ rect: Rect, _ timeline: inout TimelineRows,
    _ screen: inout Screen, _ glyphs: Glyphs
) {
    // The hang glyph is in the legend when the trace has a hang to mark.
    let hang = model.session.hangs.isEmpty ? "" : "  \(glyphs.hang) hang"
    // So is the fork when a schedule choice placed an event of the run.
    let fork = model.session.branchMarks.isEmpty ? "" : "  \(glyphs.branch) branch point"
    let labelWidth = 10
    let columns = max(10, rect.width - labelWidth - 1)
    let end = model.now
    let axis = model.timelineZoom.window(now: end, columns: columns)
    // A zoomed timeline names its scale first (the default axis's ticks say it).
    let scale = model.timelineZoom.bucket == nil ? "" : " \(axis.scale)"
    let legend =
        "Timeline\(scale) (\(glyphs.awake) awake  \(glyphs.asleep) asleep\(hang)\(fork)  t timer  s source0  p port  b block  o observer  w wake-up)"
    header(legend, rect, focused: model.focus == .timeline, &screen, glyphs)
    let start = axis.start
    let bucket = axis.bucket
    // One pass over the events inside the window, for every row at once; each row starts from its loop's state
    // where the window begins (asleep, running), read from the checkpointed fold. The rows are kept for the next
    // frame, which folds only the events since: a frame at event 1,000,000 looks at a few events.
    // The first threads, and always the one the loop view shows (in the last lane when it is not among them).
    // A filter by thread keeps only its threads' rows.
    let threads = model.filter?.threads ?? []
    let kept = threads.isEmpty ? snapshots : snapshots.filter { threads.contains($0.thread) }
    var loops = Array(kept.prefix(rect.height - 2))
    if !loops.isEmpty, !loops.contains(where: { $0.thread == model.loopThread }),
        let shown = kept.first(where: { $0.thread == model.loopThread })
    {
        loops[loops.count - 1] = shown
    }
    let key = TimelineRows.Key(
        trace: model.session.traceIdentity, start: start, bucket: bucket, columns: columns,
        threads: loops.map(\.thread))
    if timeline.key != key || timeline.processed > model.cursor {
        let first = min(model.trace.firstIndex(atOrAfter: LoopInstant(nanoseconds: start)), model.cursor)
        let before = model.session.snapshots(after: first)
        timeline.key = key
        timeline.processed = first
        timeline.rows = loops.map { loop in
            let state = before.first { $0.thread == loop.thread }
            var asleep = state?.isSleeping ?? false
            if model.session.fillsFromActivities {
                asleep = TimelineRows.Row.asleep(before: first, on: loop.thread, in: model.trace) ?? asleep
            }
            return TimelineRows.Row(
                cells: [Character](repeating: " ", count: columns), asleep: asleep, runs: state?.runs.count ?? 0)
        }
    }
    let rowOf = Dictionary(loops.enumerated().map { ($1.thread, $0) }, uniquingKeysWith: { first, _ in first })
    // Events after the window's right edge (a panned window) draw nothing: a binary search stops the pass there.
    let last = min(model.cursor, model.trace.firstIndex(atOrAfter: LoopInstant(nanoseconds: axis.end)))
    // The events a schedule choice placed among those folded now, in order: a fork goes in before the event's own
    // letter (the choice came first). A run without races has none.
    let folded = timeline.processed..<max(timeline.processed, last)
    timeline.fold(
        model.trace, folded, rowOf: rowOf, axis: axis, forks: model.session.branchMarks.marked(in: folded),
        followsActivities: model.session.fillsFromActivities, glyphs)
    timeline.processed = max(timeline.processed, last)
    let rows = timeline.rows
    for (row, loop) in loops.enumerated() {
        let y = rect.y + 1 + row
        // Fitted as it will be shown (escapes widen a name), never into the lane's first column.
        let label = TerminalSafeText.terminalSafe(loop.thread)
        screen.put(
            TextFit.middle(label, width: labelWidth - 1, ellipsis: glyphs.ellipsis), x: rect.x, y: y,
            style: glyphs.header, limit: labelWidth - 1)
        var cells = rows[row].cells
        let asleep = rows[row].asleep
        let lastColumn = rows[row].lastColumn
        if rows[row].runs > 0 {
            let nowColumn = min(columns - 1, axis.column(of: end.nanoseconds))
            if nowColumn > lastColumn {
                for fill in max(0, lastColumn + 1)...nowColumn where cells[fill] == " " {
                    cells[fill] = asleep ? glyphs.asleep : glyphs.awake
                }
            }
        }
        let inHang = hangColumns(model, loop.thread, start: start, bucket: bucket, columns: columns)
        for (column, character) in cells.enumerated() {
            var character = character
            let style: Screen.Style
            if inHang.contains(where: { $0.contains(column) }) {
                if character == glyphs.awake || character == glyphs.asleep || character == " " {
                    character = glyphs.hang
                }
                style = glyphs.warning
            } else if character == glyphs.asleep {
                style = glyphs.sleeping
            } else if character == glyphs.awake || character == " " {
                style = .plain
            } else {
                style = glyphs.callout
            }
            screen[rect.x + labelWidth + column, y] = Screen.Cell(character: character, style: style)
        }
    }
    // The axis: round times at their own columns, over the same columns as the marks.
    let axisY = rect.maxY - 1
    for tick in axis.ticks where tick.column + tick.label.count <= columns {
        screen.put(tick.label, x: rect.x + labelWidth + tick.column, y: axisY, style: glyphs.dimmed)
    }
    // Threads without a lane (more than the rows): how many, under the labels; `t` picks one.
    if kept.count > loops.count {
        screen.put(
            String(TextFit.prefix("+\(kept.count - loops.count) more"[...], columns: labelWidth - 1)), x: rect.x,
            y: axisY, style: glyphs.dimmed)
    }
}
