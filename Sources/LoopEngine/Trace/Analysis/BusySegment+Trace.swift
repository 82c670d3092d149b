extension BusySegment {
    /// ``all(in:)`` of a compact trace, the same segments, without building most of its events: only the events
    /// that can begin, end, close or mark a segment are built and given to the ``Finder``, with the last event of
    /// each loop before them. What the others do to the finder is to move an open segment's end to them, and a
    /// later event of the same loop moves it again: of a run of them only the last counts. The first event after
    /// one that is given is given too (it ends a closing segment). A poke's new trace is searched for hangs this
    /// way (the UI's timeline), a million events in a fraction of the time a full pass takes.
    package static func all(in trace: LoopTrace) -> [BusySegment] {
        var finder = Finder(keepingAtLeast: .zero)
        // Per loop id: the last event of that loop not given yet (-1: none), and whether the last event of that
        // loop given to the finder was one that matters.
        var pending: [Int] = []
        var lastMattered: [Bool] = []
        let matters = Self.mattering
        trace.forEachCompact(in: 0..<trace.count) { index, compact in
            let loop = Int(compact.loop)
            if loop >= pending.count {
                pending += Array(repeating: -1, count: loop + 1 - pending.count)
                lastMattered += Array(repeating: false, count: loop + 1 - lastMattered.count)
            }
            let mattering = matters[Int(compact.kind)]
            guard mattering || lastMattered[loop] else {
                pending[loop] = index
                return
            }
            if pending[loop] >= 0 { finder.add(trace[pending[loop]], at: pending[loop]) }
            pending[loop] = -1
            finder.add(trace[index], at: index)
            lastMattered[loop] = mattering
        }
        for index in pending where index >= 0 { finder.add(trace[index], at: index) }
        return finder.finish().kept
    }

    /// By kind code: the kinds ``Finder/add(_:)`` looks at (the others only move an open segment's end).
    private static let mattering: [Bool] = {
        let kinds: Set<LoopEvent.Kind> = [.afterWaiting, .entry, .beforeWaiting, .exit, .note, .sleep, .observer]
        return (0...255).map { $0 < LoopEvent.Kind.allCases.count && kinds.contains(LoopTrace.kind(code: UInt8($0))) }
    }()
}
