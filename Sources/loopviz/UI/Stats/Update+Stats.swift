import LoopEngine

/// `H`: opens the aggregate views on the trace computed so far.
func openStats(_ model: inout AppModel) {
    model.overlay = .stats(StatsOverlay(model.trace))
}

/// A key in the aggregate views: Tab and ←→ switch tables, ↑↓ move, Enter shows the events behind the row (a
/// filter, at the first of them), Esc or `H` closes.
func handleStats(_ key: Key, _ overlay: StatsOverlay, _ model: inout AppModel) throws(NeedsLongerTrace) -> [Effect] {
    var overlay = overlay
    let tables = TraceStats.Table.allCases
    let last = max(0, overlay.rowCount - 1)
    let command = model.keys.command(for: key, in: model.view)
    switch key {
    case _ where key == .escape || command == .showStats:
        model.overlay = .none
        return []
    case _ where command == .quit:
        model.quitRequested = true
        return [.quit]
    case .tab, .right, .character("l"):
        overlay.table = tables[(overlay.table.rawValue + 1) % tables.count]
        overlay.row = 0
    case .backTab, .left, .character("h"):
        overlay.table = tables[(overlay.table.rawValue + tables.count - 1) % tables.count]
        overlay.row = 0
    case .up, .character("k"): overlay.row = max(0, overlay.row - 1)
    case .down, .character("j"): overlay.row = min(last, overlay.row + 1)
    case .pageUp: overlay.row = max(0, overlay.row - 10)
    case .pageDown: overlay.row = min(last, overlay.row + 10)
    case .home: overlay.row = 0
    case .end: overlay.row = last
    case .enter:
        switch overlay.target(row: overlay.row) {
        case .filter(let filter, let first):
            model.overlay = .none
            model.filter = filter
            model.logScroll = 0
            model.isPaused = true
            try move(&model, to: first + 1)
            model.flash = StatusMessage(
                "filter \(filter.typed): step \(first + 1) is the first", detail: matchKeys(model.keys))
        case .event(let index, let what):
            model.overlay = .none
            model.isPaused = true
            try move(&model, to: index + 1)
            model.flash = StatusMessage(
                "\(what): step \(index + 1)", detail: "\(model.keys.word(for: .showStats)) shows the totals again")
        case .none(let why):
            model.flash = StatusMessage(why)
        }
        return []
    default: break
    }
    model.overlay = .stats(overlay)
    return []
}
