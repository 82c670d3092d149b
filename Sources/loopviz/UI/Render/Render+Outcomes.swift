import LoopEngine

// Render: the outcome list (`X`).

/// One row an outcome: its number, how many schedules lead to it, its schedule's id, where it first parts
/// from the default's outcome.
func outcomeRows(_ list: OutcomeList) -> [String] {
    list.entries.enumerated().map { index, entry in
        let count = LoopEvent.count(entry.schedules, "schedule")
        let apart = entry.divergence.map { "first step apart: " + $0 } ?? "the default schedule's outcome"
        return "\(index + 1). \(count), schedule \(entry.schedule.id): \(apart)"
    }
}

/// What the exploration covered: every schedule, or which bound stopped it and how many schedules it left.
func outcomeCoverage(_ list: OutcomeList) -> String {
    let run = "\(LoopEvent.count(list.schedulesRun, "schedule")) run"
    var text: String
    switch list.stop {
    case .scheduleLimit(let limit)?:
        text = "\(run), stopped at \(limit) with \(list.schedulesLeft) more known (loopviz explore goes further)"
    case .timeLimit?:
        text =
            "\(run), stopped at \(ExploreReport.words(OutcomeList.bounds.timeLimit)) with \(list.schedulesLeft) "
            + "more known (loopviz explore goes further)"
    case nil:
        text = "\(run), every schedule"
    }
    if list.branchPointsCut { text += "; later branch points took the default order" }
    return text
}

/// The whole list as lines, for the screen reader: the coverage, then each outcome with its first choice apart.
func outcomeListText(_ list: OutcomeList, glyphs: Glyphs) -> [String] {
    var lines = ["\(LoopEvent.count(list.entries.count, "outcome")), \(outcomeCoverage(list)); Enter opens one"]
    for (entry, row) in zip(list.entries, outcomeRows(list)) {
        lines.append(TerminalSafeText.terminalSafe(row))
        if let departure = entry.departure {
            lines.append("  first choice apart: " + TerminalSafeText.terminalSafe(departure.words))
        }
    }
    return lines
}

func drawOutcomes(_ model: AppModel, _ list: OutcomeList, _ screen: inout Screen, _ glyphs: Glyphs) {
    let rows = outcomeRows(list).map(TerminalSafeText.terminalSafe)
    let (rect, visible) = listBox(model, rows: rows.count, maxWidth: 110, &screen, glyphs)
    let title = "Outcomes, \(outcomeCoverage(list)) (\(glyphs.plain("↑↓")) Enter opens, Esc)"
    // The last row, when the list fits: where the highlighted outcome's schedule first leaves the default.
    let highlighted = list.entries.isEmpty ? nil : list.entries[min(list.row, list.entries.count - 1)]
    let footer = highlighted?.departure.map { "first choice apart: " + TerminalSafeText.terminalSafe($0.words) }
    drawListRows(title: title, rows, row: list.row, in: rect, visible: visible, footer: footer, &screen, glyphs)
}
