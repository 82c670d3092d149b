import LoopEngine

/// The lines of a hang's stack samples (`loopviz record --stacks`, `LoopRecorder`'s `sampleInterval`): its hottest
/// frames, and the stack seen most often.
extension HangReport {
    /// How many hottest frames are listed, and how many frames of the most frequent stack.
    static let hottestShown = 3
    static let stackShown = 16

    /// What the samples of one segment come to, named.
    struct StackSummary: Hashable {
        /// The functions at the top of the samples (where the thread was), the most frequent first, each with how
        /// many samples it topped.
        var hottest: [(frame: StackSymbolizer.Frame, samples: Int)]
        /// The stack seen most often, top first, and in how many samples.
        var common: [StackSymbolizer.Frame]
        var commonSamples: Int
        var samples: Int

        static func == (a: Self, b: Self) -> Bool {
            a.samples == b.samples && a.common == b.common && a.commonSamples == b.commonSamples
                && a.hottest.map(\.frame) == b.hottest.map(\.frame)
                && a.hottest.map(\.samples) == b.hottest.map(\.samples)
        }
        func hash(into hasher: inout Hasher) { hasher.combine(samples) }

        init?(_ samples: [LoopEvent.StackSample], symbolizer: inout StackSymbolizer) {
            self.init(samples) { symbolizer.frame($0.address, isReturnAddress: $0.isReturnAddress) }
        }

        /// The summary of `samples`, each frame named by `frame`.
        init?(_ samples: [LoopEvent.StackSample], frame: (StackSymbolizer.Lookup) -> StackSymbolizer.Frame) {
            let stacks = samples.filter { !$0.frames.isEmpty }.map { sample in
                sample.frames.enumerated().map {
                    frame(StackSymbolizer.Lookup(address: $0.element, isReturnAddress: $0.offset > 0))
                }
            }
            guard !stacks.isEmpty else { return nil }
            self.samples = stacks.count
            // A frame is counted by its function (all the addresses inside one function are one frame).
            func key(_ frame: StackSymbolizer.Frame) -> String {
                frame.function.map { $0 + "\u{0}" + (frame.module ?? "") } ?? frame.words
            }
            var tops: [String: (frame: StackSymbolizer.Frame, samples: Int, first: Int)] = [:]
            var paths: [[String]: (stack: [StackSymbolizer.Frame], samples: Int, first: Int)] = [:]
            for (index, stack) in stacks.enumerated() {
                let top = stack[0]
                tops[key(top), default: (top, 0, index)].samples += 1
                paths[stack.map(key), default: (stack, 0, index)].samples += 1
            }
            hottest = tops.values.sorted { ($1.samples, $0.first) < ($0.samples, $1.first) }.prefix(
                HangReport.hottestShown
            )
            .map { ($0.frame, $0.samples) }
            let best = paths.values.min { ($1.samples, $0.first) < ($0.samples, $1.first) }!
            common = best.stack
            commonSamples = best.samples
        }
    }

    /// The lines under a segment for its samples; none without samples.
    static func stackLines(_ summary: StackSummary?) -> String {
        guard let summary else { return "" }
        let safe = TerminalSafeText.terminalSafe
        var out = "  hottest frames (\(LoopEvent.count(summary.samples, "stack sample"))):"
        out += summary.hottest.map { " \(safe($0.frame.words)) \($0.samples)/\(summary.samples)" }.joined(
            separator: ",")
        out += "\n  most frequent stack (\(summary.commonSamples)/\(summary.samples)):\n"
        for frame in summary.common.prefix(stackShown) { out += "    \(safe(frame.words))\n" }
        if summary.common.count > stackShown {
            out += "    … \(LoopEvent.count(summary.common.count - stackShown, "more frame"))\n"
        }
        return out
    }
}
