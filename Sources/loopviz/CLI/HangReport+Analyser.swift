import LoopEngine

extension HangReport {
    /// Collects, in a second pass over a recording, the events of each listed segment's own loop, and analyses
    /// each segment once its last event has passed. What it holds is bounded by ``maxEvents``: a segment with more
    /// events than that is not analysed (its lines say so) rather than held whole.
    struct Analyser {
        /// The most events held for one segment's analysis.
        static let maxEvents = 500_000

        private let segments: [BusySegment]
        private var buffers: [[LoopEvent]]
        private var overflowed: [Bool]
        /// The recorder's pause notes of a segment's loop right after its end (until that loop's next step): the
        /// sampler writes one when the process runs again, and the loop may have reached its sleep first.
        private var pauses: [[LoopEvent]]
        /// The ended segments whose loop has not taken a step since, by loop.
        private var trailing: [String: [Int]] = [:]
        private var index = 0
        /// The first segment not yet ended: those before it take no more events, so each event costs the segments
        /// open at it, not every segment listed.
        private var first = 0

        init(_ segments: [BusySegment]) {
            self.segments = segments
            buffers = Array(repeating: [], count: segments.count)
            overflowed = Array(repeating: false, count: segments.count)
            pauses = Array(repeating: [], count: segments.count)
        }

        /// Takes the trace's next event (the events in trace order, as the first pass read them).
        mutating func add(_ event: LoopEvent) {
            defer { index += 1 }
            while first < segments.count && segments[first].endIndex < index {
                trailing[segments[first].loop, default: []].append(first)
                first += 1
            }
            if !trailing.isEmpty, let positions = trailing[event.loop] {
                if case .paused = event.fact {
                    for position in positions where pauses[position].count < 16 { pauses[position].append(event) }
                } else if event.kind != .note {
                    trailing[event.loop] = nil
                }
            }
            for position in first..<segments.count {
                let segment = segments[position]
                // Segments are in the order they began: none after this one has begun yet.
                if segment.startIndex > index { break }
                guard index <= segment.endIndex, event.loop == segment.loop, !overflowed[position] else { continue }
                if buffers[position].count >= Self.maxEvents {
                    overflowed[position] = true
                    buffers[position] = []
                } else {
                    buffers[position].append(event)
                }
            }
        }

        /// Each segment's stack samples (a recording's `stack` notes on its loop), in the order of the segments.
        func samples() -> [[LoopEvent.StackSample]] {
            buffers.map { events in
                events.compactMap { if case .stack(let sample) = $0.fact { sample } else { nil } }
            }
        }

        /// Each segment's analysis, in the order of the segments.
        func finish() -> [HangAnalysis?] {
            segments.indices.map { position in
                let own = buffers[position]
                guard !overflowed[position], !own.isEmpty else { return nil }
                let segment = segments[position]
                return HangAnalysis(
                    events: own, loop: segment.loop, depth: segment.depth, from: 0, to: own.count - 1,
                    pauses: pauses[position])
            }
        }
    }
}
