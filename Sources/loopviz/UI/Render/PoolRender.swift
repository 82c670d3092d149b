import LoopEngine

/// Where the pool view's panels go, for a screen of at least 80×24: worker lanes across the top, the queue on
/// the left, counters and the pool's events on the right, above the Why panel.
struct PoolLayout {
    var lanes: Rect
    var queue: Rect
    var counters: Rect
    var log: Rect

    /// The queue panel's smallest height: its header, executing, the five priorities, finished.
    static let minimumQueueHeight = 8

    /// How many lanes fit above the smallest queue panel (eight at 80×24).
    static func maximumLanes(above bottom: Int) -> Int { max(1, bottom - 1 - minimumQueueHeight - 2) }

    init(width: Int, above bottom: Int, lanes laneCount: Int) {
        let shown = min(max(1, laneCount), Self.maximumLanes(above: bottom))
        lanes = Rect(x: 0, y: 1, width: width, height: shown + 2)
        let right = width >= 110 ? width / 2 : min(56, max(32, width * 2 / 5))
        let top = lanes.maxY
        queue = Rect(x: 0, y: top, width: width - right, height: max(2, bottom - top))
        counters = Rect(x: width - right, y: top, width: right, height: min(6, max(2, bottom - top)))
        log = Rect(x: width - right, y: counters.maxY, width: right, height: max(0, bottom - counters.maxY))
    }
}

/// The time axis of the worker lanes: a fixed scale, chosen so the whole of the pool's activity in the computed
/// trace fits, so replaying fills the lanes left to right instead of rescaling them.
struct LaneScale {
    /// Nanoseconds per column.
    var bucket: Int64
    var columns: Int

    static let steps: [Int64] = [1, 2, 5]

    init(columns: Int, span: LoopInstant) {
        self.columns = max(1, columns)
        let needed = max(Int64(1_000_000), (span.nanoseconds + Int64(self.columns) - 1) / Int64(self.columns))
        var scale: Int64 = 1_000_000
        var chosen: Int64?
        while chosen == nil {
            chosen = Self.steps.map { $0 * scale }.first { $0 >= needed }
            scale *= 10
        }
        bucket = chosen ?? needed
    }

    func column(of time: LoopInstant) -> Int { Int(time.nanoseconds / bucket) }
    var end: LoopInstant { LoopInstant(nanoseconds: bucket * Int64(columns)) }
}

func drawPoolView(_ model: AppModel, _ pool: PoolSnapshot, above bottom: Int, _ screen: inout Screen, _ glyphs: Glyphs)
{
    guard let queue = model.shownQueueState else { return }
    let layout = PoolLayout(width: model.width, above: bottom, lanes: queue.workers.count + pool.detached.count)
    let lanes = chooseLanes(queue, pool, count: layout.lanes.height - 2)
    drawLanes(model, queue, lanes, layout.lanes, &screen, glyphs)
    drawQueue(model, pool, queue, layout.queue, &screen, glyphs)
    drawCounters(model, queue, layout.counters, &screen, glyphs)
    drawPoolLog(model, layout.log, &screen, glyphs)
}

// MARK: - Worker lanes

/// The lanes to draw, in creation order: the queue's workers and the detached threads, dropping the oldest
/// detached threads, then the oldest retired workers, when there are more than `count`.
private func chooseLanes(_ queue: PoolSnapshot.Queue, _ pool: PoolSnapshot, count: Int) -> [PoolSnapshot.Worker] {
    var lanes = (queue.workers + pool.detached).enumerated().sorted {
        ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset)
    }.map(\.element)
    func isDetached(_ lane: PoolSnapshot.Worker) -> Bool { !queue.workers.contains(lane) }
    while lanes.count > count, let index = lanes.firstIndex(where: isDetached) { lanes.remove(at: index) }
    while lanes.count > count, let index = lanes.firstIndex(where: \.isRetired) { lanes.remove(at: index) }
    return Array(lanes.suffix(count))
}

private func drawLanes(
    _ model: AppModel, _ queue: PoolSnapshot.Queue, _ lanes: [PoolSnapshot.Worker], _ rect: Rect,
    _ screen: inout Screen, _ glyphs: Glyphs
) {
    let title =
        "Workers of \(queue.name) (\(model.keys.word(for: .togglePoolView, in: .pool)): loop view)  \(glyphs.idle) idle  \(glyphs.created) created  "
        + "\(glyphs.retired) retired  letter: \(queue.workNoun)"
    header(title, rect, focused: false, &screen, glyphs)
    let wide = model.width >= 120
    let summaryWidth = wide ? 26 : 0
    let labelWidth = min(14, max(11, (lanes.map(\.name.count).max() ?? 0) + 1))
    // One column before the first time slot holds the creation mark of a thread created at 0.
    let columns = max(10, rect.width - labelWidth - 1 - summaryWidth - 1)
    let scale = LaneScale(columns: columns, span: laneSpan(model))
    let nowColumn = min(columns - 1, scale.column(of: model.now))
    let total = queue.workers.count + model.pool.detached.count
    if lanes.isEmpty {
        screen.put(
            TextFit.fit(
                "no worker thread yet: the first \(queue.workNoun) to start creates one", width: rect.width - 2,
                ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 1, style: glyphs.dimmed)
    }
    if total > lanes.count {
        let text = " +\(total - lanes.count) not shown "
        screen.put(text, x: rect.maxX - text.count - 1, y: rect.y, style: glyphs.dimmed)
    }
    for (row, worker) in lanes.enumerated() {
        let y = rect.y + 1 + row
        let labelStyle = worker.isRetired ? glyphs.dimmed : glyphs.header
        screen.put(
            TextFit.fit(worker.name, width: labelWidth - 1, ellipsis: glyphs.ellipsis), x: rect.x, y: y,
            style: labelStyle)
        let cells = laneCells(worker, queue, scale: scale, now: model.now, nowColumn: nowColumn, glyphs: glyphs)
        for (index, cell) in cells.enumerated() {
            var style: Screen.Style
            switch cell {
            case " ": continue
            case glyphs.idle: style = glyphs.dimmed
            case glyphs.created, glyphs.retired: style = glyphs.activity
            case glyphs.awake: style = .plain
            default:
                let operation = queue.operations.first { $0.symbol == cell }
                style = operation?.cancelled == true ? glyphs.warning : glyphs.callout
                if operation.map({ $0.name == model.selectedOperation }) == true { style.reverse = true }
            }
            screen[rect.x + labelWidth + index, y] = Screen.Cell(character: cell, style: style)
        }
        if wide {
            screen.put(
                TextFit.fit(laneSummary(worker, queue: queue), width: summaryWidth, ellipsis: glyphs.ellipsis),
                x: rect.maxX - summaryWidth, y: y, style: glyphs.dimmed)
        }
    }
    let axisY = rect.maxY - 1
    let left = rect.x + labelWidth + 1
    let end = "\(scale.end)s"
    let endX = left + columns - end.count
    screen.put("\(LoopInstant(nanoseconds: scale.bucket))s/col", x: rect.x, y: axisY, style: glyphs.dimmed)
    let nowText = "\(glyphs.nowMark) \(model.now)s"
    let nowX = left + nowColumn
    if nowX > left + 2 || model.cursor == 0 { screen.put("0s", x: left, y: axisY, style: glyphs.dimmed) }
    if nowX + nowText.count < endX || model.cursor == 0 { screen.put(end, x: endX, y: axisY, style: glyphs.dimmed) }
    if model.cursor > 0 {
        // Near the right end the time goes left of the mark.
        if nowX + nowText.count <= left + columns {
            screen.put(nowText, x: nowX, y: axisY, style: glyphs.warning)
        } else {
            let text = "\(model.now)s \(glyphs.nowMark)"
            screen.put(text, x: nowX - text.count + 1, y: axisY, style: glyphs.warning)
        }
    }
}

/// How far the lanes' time axis reaches: the last pool event of the computed trace (and the time shown).
private func laneSpan(_ model: AppModel) -> LoopInstant {
    let last = model.trace.last { $0.kind.isPool }?.time ?? .zero
    return max(max(last, model.now) + .milliseconds(1), .zero + .seconds(1))
}

/// One lane: a character per time slot (the operation running, idle, created, retired), up to the time shown.
private func laneCells(
    _ worker: PoolSnapshot.Worker, _ queue: PoolSnapshot.Queue, scale: LaneScale, now: LoopInstant,
    nowColumn: Int, glyphs: Glyphs
) -> [Character] {
    var cells = [Character](repeating: " ", count: scale.columns + 1)
    let first = scale.column(of: worker.createdAt)
    let last = min(nowColumn, worker.retiredAt.map { scale.column(of: $0) } ?? nowColumn)
    guard first <= nowColumn else { return cells }
    let isDetached = !queue.workers.contains { $0.name == worker.name && $0.createdAt == worker.createdAt }
    if first <= last {
        for column in first...last {
            let start = column == first ? worker.createdAt.nanoseconds : Int64(column) * scale.bucket
            let end = min(Int64(column + 1) * scale.bucket, now.nanoseconds)
            var best: (overlap: Int64, symbol: Character)?
            for run in worker.runs {
                let runEnd = (run.end ?? now).nanoseconds
                guard run.start.nanoseconds <= end, runEnd >= start else { continue }
                // A run of no length in this slot still shows (it happened here).
                let overlap = min(runEnd, end) - max(run.start.nanoseconds, start)
                if best == nil || overlap > best!.overlap {
                    best = (overlap, queue.operation(named: run.operation)?.symbol ?? "?")
                }
            }
            cells[column + 1] = best?.symbol ?? (isDetached ? glyphs.awake : glyphs.idle)
        }
    }
    cells[first] = glyphs.created
    if let retired = worker.retiredAt, scale.column(of: retired) <= nowColumn {
        let column = scale.column(of: retired) + 1
        let free = cells[column] == glyphs.idle || cells[column] == " " || cells[column] == glyphs.awake
        cells[min(cells.count - 1, free ? column : column + 1)] = glyphs.retired
    }
    return cells
}

private func laneSummary(_ worker: PoolSnapshot.Worker, queue: PoolSnapshot.Queue) -> String {
    let noun = queue.dispatch == nil ? "op" : "block"
    let runs = worker.operationsRun == 1 ? "1 \(noun)" : "\(worker.operationsRun) \(noun)s"
    if let retired = worker.retiredAt { return " \(runs), retired \(retired)s" }
    if let current = worker.current { return " \(runs), runs \(current)" }
    return " \(runs), idle"
}

// MARK: - The queue

private func drawQueue(
    _ model: AppModel, _ pool: PoolSnapshot, _ queue: PoolSnapshot.Queue, _ rect: Rect, _ screen: inout Screen,
    _ glyphs: Glyphs
) {
    let state = queue.suspended ? "SUSPENDED" : "running"
    let count = model.session.script.scenario.queues.count
    let which = count > 1 ? " (\(model.shownQueue + 1)/\(count), \(model.keys.word(for: .nextQueue, in: .pool)))" : ""
    let kind =
        switch queue.dispatch {
        case nil: "limit \(queue.limitText)"
        case .serial: "serial dispatch queue"
        case .concurrent: "concurrent dispatch queue, width \(queue.width)"
        }
    header("Queue \(queue.name)\(which)  \(kind)  \(state)  (j/k select)", rect, focused: true, &screen, glyphs)
    var lines: [(label: String, text: String, operation: PoolSnapshot.Operation?)] = []
    let executing = queue.executing
    if executing.isEmpty {
        lines.append(("executing", "-", nil))
    }
    for (index, operation) in executing.enumerated() {
        var text = "\(operation.worker ?? "?") from \(operation.startedAt ?? .zero)s  \(operation.body)"
        if operation.cancelRequested { text += "  cancel requested" }
        lines.append((index == 0 ? "executing" : "", text, operation))
    }
    // A dispatch queue has no priorities: one line of blocks in submission order.
    let levels: [(label: String, waiting: [PoolSnapshot.Operation])] =
        queue.dispatch == nil
        ? QueuePriority.allCases.reversed().map { ($0.description, queue.waiting(at: $0)) }
        : [("waiting", queue.waiting)]
    for (label, waiting) in levels {
        if waiting.isEmpty { lines.append((label, "-", nil)) }
        for (index, operation) in waiting.enumerated() {
            let state = PoolNote.waiting(operation, in: pool).text
            lines.append((index == 0 ? label : "", "\(state)  \(operation.body)", operation))
        }
    }
    let finished = queue.operations.filter { $0.state == .finished }
    let done = finished.filter { !$0.cancelled }.map(\.name)
    let cancelled = finished.filter(\.cancelled).map(\.name)
    let rows = rect.height - 1
    // The finished ones take the rows left, wrapped.
    let textWidth = max(10, rect.width - 14)
    var wrapped = wrap(done.isEmpty ? "-" : done.joined(separator: " "), width: textWidth)
    if !cancelled.isEmpty { wrapped += wrap("cancelled: " + cancelled.joined(separator: " "), width: textWidth) }
    let room = max(1, rows - lines.count)
    for (index, line) in wrapped.prefix(room).enumerated() {
        let more = index == room - 1 && wrapped.count > room
        lines.append((index == 0 ? "finished" : "", more ? line + " " + glyphs.ellipsis : line, nil))
    }

    let selectedLine = lines.firstIndex { $0.operation?.name == model.selectedOperation && $0.operation != nil }
    let start = selectedLine.map { max(0, min($0 - rows + 1 + rows / 3, lines.count - rows)) } ?? 0
    let labelWidth = 10
    for (row, line) in lines.dropFirst(max(0, start)).prefix(rows).enumerated() {
        let y = rect.y + 1 + row
        screen.put(line.label, x: rect.x + 1, y: y, style: glyphs.header, limit: labelWidth)
        let x = rect.x + 1 + labelWidth
        let width = rect.maxX - x - 1
        guard let operation = line.operation else {
            let style = line.text == "-" ? glyphs.dimmed : Screen.Style.plain
            screen.put(
                TextFit.fit(line.text, width: width - 2, ellipsis: glyphs.ellipsis), x: x + 2, y: y, style: style)
            continue
        }
        let selected = operation.name == model.selectedOperation
        var style: Screen.Style =
            operation.state == .executing ? glyphs.callout : (operation.state == .ready ? .plain : glyphs.dimmed)
        if operation.cancelRequested { style = glyphs.warning }
        screen.put(selected ? glyphs.arrow : " ", x: x, y: y, style: glyphs.current)
        var nameStyle = style
        if selected { nameStyle = glyphs.current }
        let name = "\(operation.symbol) \(operation.name)".padded(12)
        screen.put(TextFit.fit(name, width: width - 1, ellipsis: glyphs.ellipsis), x: x + 1, y: y, style: nameStyle)
        screen.put(
            TextFit.fit(line.text, width: width - name.count - 2, ellipsis: glyphs.ellipsis), x: x + 1 + name.count + 1,
            y: y, style: style)
    }
}

// MARK: - Counters and the pool's events

private func drawCounters(
    _ model: AppModel, _ queue: PoolSnapshot.Queue, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs
) {
    header("Counters", rect, focused: false, &screen, glyphs)
    let counters = queue.counters
    var lines: [(String, Screen.Style)] = [
        (
            "executing \(counters.executing)/\(queue.width)  max \(counters.maxExecuting)",
            counters.executing > 0 ? glyphs.callout : .plain
        ),
        ("threads created \(counters.threadsCreated)  reused \(counters.threadsReused)", .plain),
        ("        retired \(counters.threadsRetired)  alive \(queue.liveWorkers)", .plain),
        ("finished \(counters.finished)  cancelled \(counters.cancelled)", .plain),
    ]
    let note = PoolNote.queue(queue)
    lines.append((note.text, note.kind == .idleTimeout ? glyphs.dimmed : glyphs.warning))
    for (row, line) in lines.prefix(rect.height - 1).enumerated() {
        screen.put(
            TextFit.fit(line.0, width: rect.width - 2, ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 1 + row,
            style: line.1)
    }
}

private func drawPoolLog(_ model: AppModel, _ rect: Rect, _ screen: inout Screen, _ glyphs: Glyphs) {
    guard rect.height >= 2 else { return }
    let pages = "\(model.keys.word(for: .pageUp, in: .pool))/\(model.keys.word(for: .pageDown, in: .pool))"
    header("Pool events (\(pages))", rect, focused: false, &screen, glyphs)
    let rows = rect.height - 1
    // The shown events just before the cursor, found backwards from it: as many as the panel and its scroll need.
    var indices: [Int] = []
    var index = model.cursor - 1
    while index >= 0 && indices.count < rows + model.logScroll {
        if model.isShown(model.trace[index]) { indices.append(index) }
        index -= 1
    }
    indices.reverse()
    let last = max(0, indices.count - model.logScroll)
    let shown = indices[max(0, last - rows)..<last]
    let widths = LogColumns(shown.map { model.trace[$0] }, minimumTime: 6)
    let room = rect.width - 2
    /// The row of event `index`: in columns (`padded`), or the thread unpadded; with its detail or without; with
    /// its thread or without.
    func row(_ index: Int, padded: Bool, detail: Bool, thread: Bool = true) -> String {
        let event = model.trace[index]
        var text = event.time.description.leftPadded(widths.time) + " "
        if thread { text += (padded ? event.loop.padded(widths.thread + 1) : event.loop) + " " }
        text += event.kind.rawValue
        if let name = event.name { text += " " + name }
        if detail, let more = event.detail { text += " (" + more + ")" }
        return text
    }
    // Columns when every row fits in them; else the threads unpadded. A row too wide ends its detail at a word;
    // one whose name does not fit even without the detail loses its thread, so the operation's name stays on
    // screen.
    let padded = shown.allSatisfy { row($0, padded: true, detail: false).count <= room }
    for (line, index) in shown.enumerated() {
        let thread = row(index, padded: padded, detail: false).count <= room
        let text = row(index, padded: padded, detail: true, thread: thread)
        let event = model.trace[index]
        let style: Screen.Style =
            index == model.cursor - 1
            ? glyphs.current : (event.kind == .opStart || event.kind == .opFinish ? glyphs.callout : .plain)
        screen.put(
            TextFit.fit(text, width: room, ellipsis: glyphs.ellipsis), x: rect.x + 1, y: rect.y + 1 + line,
            style: style)
    }
}
