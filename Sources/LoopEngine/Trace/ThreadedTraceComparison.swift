/// Compares the traces of a scenario with several threads (or a detached one) thread by thread.
///
/// Across threads, the real interleaving is not fixed where causality does not fix it (two threads acting at about
/// the same moment), so no merged order is compared. What is determined, and compared:
/// - **each thread's own trace**, as ``TraceComparison`` compares one loop's (activities, callouts, run starts and
///   results, the Bools `run(mode:before:)` returns), plus the program's own notes (`say`), which show where a thread
///   that runs no loop got to (a `perform … wait` returning);
/// - **the causal order of hand-overs** (sends, signals, performs, main-queue blocks, waits): every time is measured
///   on one clock from one start on both sides, and each thread's times must agree within the tolerance, so an
///   effect on one thread that came before its cause on another, or a wait that did not wait, shows as a step out
///   of place or late on the thread it reached. Two events of different threads less than twice the tolerance apart
///   are not ordered against each other.
package struct ThreadedTraceComparison: Sendable {
    /// One thread's comparison.
    package struct Thread: Sendable {
        package let name: String
        package let comparison: TraceComparison
    }

    /// Every thread seen on either side: the `declared` ones in their order, then the others (detached threads) in
    /// the order they first appear.
    package let threads: [Thread]

    package var agrees: Bool { threads.allSatisfy(\.comparison.agrees) }

    /// The threads that differ, in order.
    package var differing: [Thread] { threads.filter { !$0.comparison.agrees } }

    package init(
        engine: [LoopEvent], reference: [LoopEvent], declared: [String], tolerance: Duration = .milliseconds(20),
        ignoringRunBoundaries: Bool = false, sourceCallouts: Set<String> = []
    ) {
        var names = declared
        for event in engine + reference where !names.contains(event.loop) { names.append(event.loop) }
        threads = names.map { name in
            Thread(
                name: name,
                comparison: TraceComparison(
                    engine: engine.filter { $0.loop == name }, reference: reference.filter { $0.loop == name },
                    tolerance: tolerance, ignoringRunBoundaries: ignoringRunBoundaries, includingSayNotes: true,
                    sourceCallouts: sourceCallouts))
        }
    }

    /// How many steps each thread compared, e.g. `main 2 steps, worker 17 steps`.
    package var stepCounts: String {
        threads.map { thread in
            let count = thread.comparison.engine.count
            return "\(TerminalSafeText.terminalSafe(thread.name)) \(count) step\(count == 1 ? "" : "s")"
        }
        .joined(separator: ", ")
    }

    /// Each thread's two traces side by side (``TraceComparison/sideBySide(engineTitle:referenceTitle:)``), under
    /// a `thread NAME:` line; only the differing threads when `differingOnly`.
    package func sideBySide(differingOnly: Bool = false) -> String {
        let shown = differingOnly ? differing : threads
        return shown.map { thread in
            "thread \(TerminalSafeText.terminalSafe(thread.name)):\n" + thread.comparison.sideBySide()
        }.joined(separator: "\n")
    }
}
