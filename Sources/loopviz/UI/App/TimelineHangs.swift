import LoopEngine

/// The hangs of one trace, per thread: its busy segments (``BusySegment``, the rule `loopviz hangs` uses) at least
/// as long as the threshold. Found once per trace, in one pass, so a frame only looks up the few that cross its
/// window.
struct TimelineHangs: Equatable {
    /// The shortest busy segment marked: the default of `loopviz hangs`.
    static let threshold = HangsCommand.defaultThreshold

    /// Each thread's hangs, in the order they began (a thread's segments never overlap).
    private(set) var byLoop: [String: [BusySegment]] = [:]
    /// A recording's stack samples in each hang, named (``nameStacks(_:)``): by thread, by the hang's first event.
    private(set) var stacks: [String: [Int: HangReport.StackSummary]] = [:]

    init() {}

    init(_ events: some Collection<LoopEvent>) {
        keep(BusySegment.all(in: events))
    }

    /// The hangs of a computed trace, found without building most of its events (every run and poke's new trace).
    init(_ trace: LoopTrace) {
        keep(BusySegment.all(in: trace, keepingAtLeast: Self.threshold))
    }

    private mutating func keep(_ segments: [BusySegment]) {
        for segment in segments where segment.length >= Self.threshold {
            byLoop[segment.loop, default: []].append(segment)
        }
    }

    /// Names the stack samples of each hang of a recording (`loopviz record --stacks`): what `loopviz hangs` shows
    /// under a hang, for the Why pane. Reads the symbol tables of the files the samples lie in, once: called when a
    /// recording is opened, never while drawing.
    mutating func nameStacks(_ events: some Collection<LoopEvent>) {
        guard !byLoop.isEmpty else { return }
        var symbolizer = StackSymbolizer()
        var samples: [String: [Int: [LoopEvent.StackSample]]] = [:]
        for (index, event) in events.enumerated() {
            switch event.fact {
            case .module(let module): symbolizer.add(module: module, path: event.name ?? "")
            case .stack(let sample):
                guard let hang = hang(containing: index, on: event.loop) else { continue }
                samples[event.loop, default: [:]][hang.startIndex, default: []].append(sample)
            default: continue
            }
        }
        for (loop, hangs) in samples {
            for (start, list) in hangs {
                if let summary = HangReport.StackSummary(list, symbolizer: &symbolizer) {
                    stacks[loop, default: [:]][start] = summary
                }
            }
        }
    }

    /// Names the stack samples of each hang of a recording being followed, with the frames named so far as it was
    /// read (`FollowFeed`); a hang with the same bounds in `earlier` (the hangs found before the last look) keeps
    /// its summary, so a look reads only the events of hangs that are new or grew.
    mutating func nameStacks(
        _ events: LoopTrace, frames: [StackSymbolizer.Lookup: StackSymbolizer.Frame], keeping earlier: TimelineHangs
    ) {
        guard !frames.isEmpty else { return }
        for (loop, segments) in byLoop {
            let before = Dictionary(
                (earlier.byLoop[loop] ?? []).map { ($0.start, $0) }, uniquingKeysWith: { first, _ in first })
            for segment in segments {
                if let same = before[segment.start], same.end == segment.end {
                    if let summary = earlier.stacks[loop]?[same.startIndex] {
                        stacks[loop, default: [:]][segment.startIndex] = summary
                    }
                    continue
                }
                var samples: [LoopEvent.StackSample] = []
                for index in segment.startIndex...min(segment.endIndex, events.count - 1) {
                    let event = events[index]
                    if event.loop == loop, case .stack(let sample) = event.fact { samples.append(sample) }
                }
                let summary = HangReport.StackSummary(samples) {
                    frames[$0] ?? StackSymbolizer.Frame(function: nil, module: nil, address: $0.address)
                }
                if let summary { stacks[loop, default: [:]][segment.startIndex] = summary }
            }
        }
    }

    /// `loop`'s hangs that began at or before `last` and end at or after `first`.
    func hangs(on loop: String, from first: LoopInstant, to last: LoopInstant) -> ArraySlice<BusySegment> {
        guard let segments = byLoop[loop] else { return [] }
        // Segments of one loop are ordered and disjoint: their ends are sorted too.
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].end < first { low = middle + 1 } else { high = middle }
        }
        var upper = low
        while upper < segments.count, segments[upper].start <= last { upper += 1 }
        return segments[low..<upper]
    }

    /// The hang the event at `index` (on `loop`) lies in, if it lies in one.
    func hang(containing index: Int, on loop: String) -> BusySegment? {
        guard let segments = byLoop[loop] else { return nil }
        var low = 0
        var high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].endIndex < index { low = middle + 1 } else { high = middle }
        }
        guard low < segments.count, segments[low].startIndex <= index else { return nil }
        return segments[low]
    }
}
