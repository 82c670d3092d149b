/// Two runs of one scenario (two schedules) or of two scenarios, side by side, step by step: `loopviz diff`.
///
/// Unlike `TraceComparison` (the engine against the real CFRunLoop, a program's observable steps only, thread
/// by thread), a diff keeps every event of both runs in the order they happened, threads interleaved: where two
/// schedules part is an interleaving first, and an outcome later.
package struct TraceDiff: Sendable {
    package let left: [LoopEvent]
    package let right: [LoopEvent]
    /// The first step where the two differ (thread, depth, kind, name, what a program reads), nil when none does.
    package let firstDifference: Int?

    package init(left: [LoopEvent], right: [LoopEvent]) {
        self.left = left
        self.right = right
        firstDifference = Self.firstDifference(left, right)
    }

    /// The first step where `left` and `right` differ, nil when none does: the one rule of "the same step" for
    /// `loopviz diff` and the UI's side by side (`V`). Two steps are the same when their thread, depth, kind, name
    /// and what a program reads of them agree (``ObservableOutcome/sameStep(_:_:)``); times may differ. A run that
    /// ends first differs at its end. The first `start` steps are known to agree (the events before a poke) and
    /// are not compared.
    package static func firstDifference<
        Left: RandomAccessCollection<LoopEvent>, Right: RandomAccessCollection<LoopEvent>
    >(
        _ left: Left, _ right: Right, from start: Int = 0
    ) -> Int? where Left.Index == Int, Right.Index == Int {
        let common = min(left.count, right.count)
        return (min(max(0, start), common)..<common).first {
            !ObservableOutcome.sameStep(left[left.startIndex + $0], right[right.startIndex + $0])
        } ?? (left.count == right.count ? nil : common)
    }

    package var agrees: Bool { firstDifference == nil }

    /// The two runs side by side under their titles (`A: …`, `B: …`), `>>` on the first difference; each side is
    /// `time thread step`, the step indented by depth.
    package func sideBySide(leftTitle: String, rightTitle: String) -> String {
        var rows: [[String]] = [["", "#", "A", "", "", "B", "", ""]]
        for index in 0..<max(left.count, right.count) {
            let one = index < left.count ? left[index] : nil
            let other = index < right.count ? right[index] : nil
            rows.append(
                [index == firstDifference ? ">>" : "", String(index)] + Self.cells(one) + Self.cells(other))
        }
        let titles = "A: \(TerminalSafeText.terminalSafe(leftTitle))\nB: \(TerminalSafeText.terminalSafe(rightTitle))\n"
        return titles + TextTraceFormatter.align(rows.map { $0.map(TerminalSafeText.terminalSafe) })
    }

    private static func cells(_ event: LoopEvent?) -> [String] {
        guard let event else { return ["", "", ""] }
        return [
            event.time.description, event.loop,
            String(repeating: "  ", count: max(0, event.depth - 1)) + event.step,
        ]
    }
}
