import LoopEngine

extension TimelineRows {
    /// Folds the events in `range` into the rows: each event's lane fills up to its column, then takes its mark (a
    /// branch point's fork first, then the event's letter). `rowOf` says whose rows are drawn, `forks` are the
    /// marked events in `range`, ascending.
    ///
    /// One pass over the compact trace: no event is built, a thread's row is found by its name id (looked up once),
    /// a fact read only for a sleep or a wake (and not again for the same id), and each row changed in place. That is what makes `0` (every event up
    /// to the step, in one pass) fast at 1,000,000 events.
    mutating func fold(
        _ trace: LoopTrace, _ range: Range<Int>, rowOf: [String: Int], axis: TimelineWindow, forks: [Int],
        followsActivities: Bool, _ glyphs: Glyphs
    ) {
        guard !range.isEmpty else { return }
        // By name id: the row drawing that thread, `unknown` until looked up, `hidden` when none does.
        let unknown = -2
        let hidden = -1
        var rowByID: [Int] = []
        var nextFork = 0
        // The last sleep's and wake's fact and what it said: a wake's cause and a poll are kept once in the trace, so
        // the same id comes again and again (a sleep's deadlines are each its own: read every time).
        var sleepFact: (id: UInt32, polled: Bool) = (0, false)
        var wakeFact: (id: UInt32, byWakeUpPort: Bool) = (0, false)
        trace.forEachCompact(in: range) { index, event in
            let forked = nextFork < forks.count && forks[nextFork] == index
            if forked { nextFork += 1 }
            let id = Int(event.loop)
            if id >= rowByID.count { rowByID += [Int](repeating: unknown, count: id + 1 - rowByID.count) }
            if rowByID[id] == unknown { rowByID[id] = rowOf[trace.name(id: event.loop)] ?? hidden }
            let row = rowByID[id]
            guard row >= 0 else { return }
            let kind = LoopTrace.kind(code: event.kind)
            // What a sleep's or a wake's fact says, read for those only (a poll does not put the lane to sleep; a
            // wake-up port's wake is a `w`).
            var polled = false
            var byWakeUpPort = false
            if kind == .sleep && event.fact != 0 {
                if event.fact != sleepFact.id {
                    var isPoll = false
                    if case .wait(let wait) = trace.fact(id: event.fact - 1) { isPoll = wait.isPoll }
                    sleepFact = (event.fact, isPoll)
                }
                polled = sleepFact.polled
            }
            if kind == .wake && event.fact != 0 {
                if event.fact != wakeFact.id {
                    var port = false
                    if case .woken(let cause) = trace.fact(id: event.fact - 1) { port = cause == .wakeUpPort }
                    wakeFact = (event.fact, port)
                }
                byWakeUpPort = wakeFact.byWakeUpPort
            }
            rows[row].fold(
                kind: kind, depth: Int(event.depth), polled: polled, byWakeUpPort: byWakeUpPort,
                column: axis.column(of: event.nanoseconds), forked: forked, followsActivities: followsActivities,
                glyphs)
        }
    }
}

extension TimelineRows.Row {
    /// One event of this row's thread, at `column` (drawn only inside the window), then the state it leaves.
    fileprivate mutating func fold(
        kind: LoopEvent.Kind, depth: Int, polled: Bool, byWakeUpPort: Bool, column: Int, forked: Bool,
        followsActivities: Bool, _ glyphs: Glyphs
    ) {
        let own = letter(kind, byWakeUpPort: byWakeUpPort)
        if column == lastColumn && !forked && own == nil {
            // The common case zoomed out (thousands of events a column): the lane is drawn up to this column and
            // the column is taken (every event drawn leaves a mark or the lane's state in its own column), so this
            // event changes only the state below.
        } else if column >= 0 && column < cells.count {
            if runs > 0 && max(0, lastColumn + 1) < column {
                for fill in max(0, lastColumn + 1)..<column where cells[fill] == " " {
                    cells[fill] = asleep ? glyphs.asleep : glyphs.awake
                }
            }
            if forked { place(glyphs.branchMark, at: column, in: &cells, glyphs) }
            if let own {
                place(own, at: column, in: &cells, glyphs)
            } else if cells[column] == " " {
                cells[column] = asleep ? glyphs.asleep : glyphs.awake
            }
            lastColumn = max(lastColumn, column)
        }
        switch kind {
        case .runStart: runs += 1
        case .result: runs = max(0, runs - 1)
        case .sleep: asleep = !polled
        case .wake: asleep = false
        default: break
        }
        if followsActivities { follow(activity: kind, depth: depth) }
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
    // Already in its own column (the same callout again, zoomed out): nothing to do, as the look below would find.
    if current == mark { return }
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

/// The letter of an event of this kind (a wake-up's only when the wake-up port woke the loop), nil for none.
private func letter(_ kind: LoopEvent.Kind, byWakeUpPort: Bool) -> Character? {
    switch kind {
    case .timer: "t"
    case .source0: "s"
    case .source1: "p"
    case .block: "b"
    case .observer: "o"
    case .mainQueue: "q"
    case .perform: "P"
    case .result: "|"
    case .wake: byWakeUpPort ? "w" : nil
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
