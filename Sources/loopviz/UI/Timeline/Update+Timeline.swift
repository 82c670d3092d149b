import LoopEngine

extension AppModel {
    /// The timeline's columns at this width (the panel spans the screen, less its 10-column thread labels and a
    /// border column), as `drawTimeline` lays them out.
    var timelineColumns: Int { max(10, width - 11) }

    /// The instant of the run's last event computed so far: what `0` fits and `<` stops at.
    var runEnd: Int64 { trace.count > 0 ? trace[trace.count - 1].time.nanoseconds : 0 }
}

/// `>` `<` `(` `)` `0`: zooms the timeline around the step, pans it, fits the whole run. A key at its bound
/// changes nothing and says why.
func moveTimeline(_ command: Command, _ model: inout AppModel) {
    let zoom = model.timelineZoom
    let columns = model.timelineColumns
    let now = model.now
    let moved: TimelineZoom?
    let bound: String
    switch command {
    case .zoomIn:
        moved = zoom.zoomed(in: true, now: now, runEnd: model.runEnd, columns: columns)
        bound = "the timeline is at its finest: 1µs a column"
    case .zoomOut:
        moved = zoom.zoomed(in: false, now: now, runEnd: model.runEnd, columns: columns)
        // A windowed replay's timeline holds the events read, not the whole file's.
        bound =
            model.session.replayIndex == nil
            ? "the timeline shows the whole run" : "the timeline shows the whole of the events read"
    case .panEarlier:
        moved = zoom.panned(later: false, now: now, columns: columns)
        bound = "the timeline is at the run's start"
    case .panLater:
        moved = zoom.panned(later: true, now: now, columns: columns)
        bound = "the timeline ends at the step"
    default:
        // The whole run; a windowed replay's whole window (from its first event read, not from 0).
        let end = max(model.runEnd, now.nanoseconds)
        let start = model.session.replayIndex == nil ? 0 : model.trace.first?.time.nanoseconds ?? 0
        moved = TimelineZoom(bucket: TimelineZoom.fitting(end - start, columns: columns), end: end)
        bound = ""
    }
    guard let moved else {
        model.flash = StatusMessage(bound)
        return
    }
    model.timelineZoom = moved
    model.flash = StatusMessage("timeline: \(moved.window(now: now, columns: columns).words)")
}
