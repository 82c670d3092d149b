import LoopEngine

/// The timeline in words, for `--screen-reader`: the range shown, the scale, and what is marked in the range (the
/// shown steps only), per thread — callouts, sleeps, hangs and the schedule's branch points — so a listener hears
/// what a sighted user sees in the lanes.
func timelineWords(_ model: AppModel) -> String {
    let window = model.timelineZoom.window(now: model.now, columns: model.timelineColumns)
    let first = model.trace.firstIndex(atOrAfter: LoopInstant(nanoseconds: window.start))
    let last = min(model.cursor, model.trace.firstIndex(atOrAfter: LoopInstant(nanoseconds: window.end)))
    var sleeps: [String: Int] = [:]
    var callouts: [String: Int] = [:]
    var order: [String] = []
    // At most `maximumCounted` events are counted (a key press, not a frame; the count says when it stopped).
    let counted = first..<max(first, min(last, first + maximumCounted))
    for index in counted {
        let event = model.trace[index]
        if !order.contains(event.loop) { order.append(event.loop) }
        if event.kind == .sleep, event.wait?.isPoll != true { sleeps[event.loop, default: 0] += 1 }
        if event.kind.isCallout { callouts[event.loop, default: 0] += 1 }
    }
    // The schedule's branch points whose event is in the window (one fork on the lane marks an event several precede).
    var branches: [String: Int] = [:]
    for index in model.session.branchMarks.marked(in: counted) {
        branches[model.trace[index].loop, default: 0] += model.session.branchMarks.points(at: index).count
    }
    var lanes = order.map { loop -> String in
        var words = "\(loop): \(count(callouts[loop] ?? 0, "callout")), \(count(sleeps[loop] ?? 0, "sleep"))"
        let hangs = model.session.hangs.hangs(
            on: loop, from: LoopInstant(nanoseconds: window.start),
            to: min(model.now, LoopInstant(nanoseconds: window.end))
        ).filter { $0.startIndex < model.cursor }
        if !hangs.isEmpty { words += ", \(count(hangs.count, "hang"))" }
        if let forks = branches[loop] { words += ", \(count(forks, "branch point"))" }
        return words
    }
    if lanes.isEmpty { lanes = ["no step shown in it"] }
    let cut = last - first > maximumCounted ? " (the first \(maximumCounted) events counted)" : ""
    return "Timeline \(window.words): " + lanes.joined(separator: "; ") + cut + "."
}

/// Events the words count at most: a million-event window is described from its first events.
private let maximumCounted = 100_000

private func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
