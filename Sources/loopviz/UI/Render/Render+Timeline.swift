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
    // letter (the choice came first). A run without races has none, and the pass looks at nothing more.
    let forks = model.session.branchMarks.marked(in: timeline.processed..<max(timeline.processed, last))
    var nextFork = 0
    for index in timeline.processed..<max(timeline.processed, last) {
        let forked = nextFork < forks.count && forks[nextFork] == index
        if forked { nextFork += 1 }
        let event = model.trace[index]
        guard let row = rowOf[event.loop] else { continue }
        var state = timeline.rows[row]
        let column = axis.column(of: event.time.nanoseconds)
        if column >= 0 && column < columns {
            if state.runs > 0 && max(0, state.lastColumn + 1) < column {
                for fill in max(0, state.lastColumn + 1)..<column where state.cells[fill] == " " {
                    state.cells[fill] = state.asleep ? glyphs.asleep : glyphs.awake
                }
            }
            if forked { place(glyphs.branchMark, at: column, in: &state.cells, glyphs) }
            if let mark = mark(for: event) {
                place(mark, at: column, in: &state.cells, glyphs)
            } else if state.cells[column] == " " {
                state.cells[column] = state.asleep ? glyphs.asleep : glyphs.awake
            }
            state.lastColumn = max(state.lastColumn, column)
        }
        if event.kind == .runStart { state.runs += 1 }
        if event.kind == .result { state.runs = max(0, state.runs - 1) }
        if event.kind == .sleep { state.asleep = event.wait?.isPoll != true }
        if event.kind == .wake { state.asleep = false }
        if model.session.fillsFromActivities { state.follow(activity: event) }
        timeline.rows[row] = state
    }
    timeline.processed = max(timeline.processed, last)
    let rows = timeline.rows
    for (row, loop) in loops.enumerated() {
        let y = rect.y + 1 + row
        screen.put(String(loop.thread.prefix(labelWidth - 1)), x: rect.x, y: y, style: glyphs.header)
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
}

/// Puts a callout's letter (or a branch point's fork) in its column. Two letters that fall in one column both stay
/// visible, in the order they happened: the later one goes to the first free column of the next ones (at most
/// ``maximumDrift``; events come in time order, so there nearly always is one), as the port that woke the loop does
/// after its `afterWaiting` observer. Only at the right edge, or when those are taken, does a letter give way: the
/// least busy one (an observer before a callout; a fork never, being the rarest mark and a race's only sign).
private func place(_ mark: Character, at column: Int, in cells: inout [Character], _ glyphs: Glyphs) {
    func isFree(_ character: Character) -> Bool {
        character == " " || character == glyphs.awake || character == glyphs.asleep
    }
    let current = cells[column]
    let reach = column..<min(cells.count, column + 1 + maximumDrift)
    if isFree(current) {
        cells[column] = mark
    } else if reach.contains(where: { cells[$0] == mark }) {
        // Already shown there (observers are called several times an iteration): one letter says it.
        return
    } else if let free = reach.first(where: { isFree(cells[$0]) }) {
        cells[free] = mark
    } else {
        // No room (the right edge, or a busy stretch): the least busy letter gives way, the earliest of equals,
        // and the others close up in the order they happened.
        var letters = reach.map { cells[$0] } + [mark]
        let rank = { priority(letters[$0], glyphs) }
        if let weakest = letters.indices.min(by: { rank($0) < rank($1) }) {
            letters.remove(at: weakest)
        }
        for (offset, letter) in letters.enumerated() { cells[column + offset] = letter }
    }
}

/// How many columns after its own a letter may be drawn when its column is taken: a wake-up, the observer after it
/// and the callout it led to (`wos`) all show, at most two columns late.
private let maximumDrift = 2

private func mark(for event: LoopEvent) -> Character? {
    switch event.kind {
    case .timer: "t"
    case .source0: "s"
    case .source1: "p"
    case .block: "b"
    case .observer: "o"
    case .mainQueue: "q"
    case .perform: "P"
    case .result: "|"
    case .wake: event.wakeCause == .wakeUpPort ? "w" : nil
    default: nil
    }
}

private func priority(_ character: Character, _ glyphs: Glyphs) -> Int {
    if character == glyphs.branchMark { return 4 }
    return switch character {
    case "t", "s", "p", "P", "q": 3
    case "b", "w": 2
    case "|": 2
    case "o": 1
    default: 0
    }
}
