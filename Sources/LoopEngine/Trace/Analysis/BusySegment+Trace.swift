extension BusySegment {
    /// ``all(in:)`` of a compact trace, the same segments, without building most of its events. The ``Finder``
    /// is given the events that can begin, end or mark a segment, and every event of a loop whose segment may be
    /// closing (after its `beforeWaiting`, `exit` or an observer's callout). Any other event only moves the loop's
    /// open segment to end at it, as the next event given for that loop does too: it is skipped, and the last one
    /// skipped of each loop is given at the end (a segment still open ends with its loop's last event). A poke's
    /// new trace is searched for hangs this way (the UI's timeline): a million events of a 1 ms timer build three
    /// events in seven.
    ///
    /// `shortest`: only the segments at least that long are returned (the timeline's hangs), not every one.
    package static func all(in trace: LoopTrace, keepingAtLeast shortest: Duration = .zero) -> [BusySegment] {
        var finder = Finder(keepingAtLeast: shortest)
        // Per loop id: the last event of that loop skipped since one was given (-1: none), and whether the last
        // one given may have left the loop's segment closing.
        var skipped: [Int] = []
        var closing: [Bool] = []
        let (given, closes) = (Self.given, Self.closes)
        trace.forEachCompact(in: 0..<trace.count) { index, compact in
            let loop = Int(compact.loop)
            if loop >= skipped.count {
                skipped += Array(repeating: -1, count: loop + 1 - skipped.count)
                closing += Array(repeating: false, count: loop + 1 - closing.count)
            }
            let kind = Int(compact.kind)
            guard given[kind] || closing[loop] else {
                skipped[loop] = index
                return
            }
            finder.add(trace[index], at: index)
            skipped[loop] = -1
            closing[loop] = closes[kind]
        }
        for index in skipped where index >= 0 { finder.add(trace[index], at: index) }
        return finder.finish().kept
    }

    /// By kind code: the kinds that begin, end or mark a segment, always given to the finder.
    private static let given = table([.afterWaiting, .entry, .beforeWaiting, .exit, .note])
    /// By kind code: the kinds after which a loop's segment may be closing (its observers of `beforeWaiting` or
    /// `exit`, and its `sleep`, still belong to it): the loop's next event is given too.
    private static let closes = table([.beforeWaiting, .exit, .observer])

    private static func table(_ kinds: Set<LoopEvent.Kind>) -> [Bool] {
        (0...255).map { $0 < LoopEvent.Kind.allCases.count && kinds.contains(LoopTrace.kind(code: UInt8($0))) }
    }
}
