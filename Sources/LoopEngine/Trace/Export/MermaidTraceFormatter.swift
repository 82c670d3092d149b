/// Renders a trace as a Mermaid `sequenceDiagram` for slides and docs: the loop talking to its items, one
/// `loop` block per iteration.
///
/// Choices, and why:
/// - Participants, all declared up front in a fixed order: `World` (the outside world: other threads, the
///   user), one per loop thread, then observers, sources, ports and timers in order of first appearance.
///   Ids are sanitised (`Timer_T1`: ASCII letters, digits and `_`, made unique) with a kind prefix that keeps
///   every id clear of Mermaid keywords, which its lexer matches case-insensitively as prefixes (`Loop_T`
///   would start a `loop` block); the alias shows the kind and the original name.
/// - Every iteration of an outermost run is a `loop iteration N` block. A nested run is a shaded `rect` inside
///   the callout's iteration, with its own `loop iteration N (mode)` blocks, so the nesting shows.
/// - Consecutive loop steps (a run's start, activities, sleep, wake, the result) share one compact note,
///   `beforeTimers → beforeSources`, cut by every arrow so the order stays visible.
/// - Callouts are arrows from the loop to the item (`RunLoop_T->>Timer_T1: timer`); blocks and main-queue
///   blocks are arrows from the loop to itself.
/// - Signals, sends, wake-ups and stops are arrows to what they address (the source, the port, the loop).
///   The trace does not record who acted, so the sender is inferred: the item whose callout is running, else
///   `World` while a run is active (the loop is asleep or between steps, only another thread can act), else
///   the thread itself (its program, outside any run). An outside action that lands while a callout works is
///   therefore drawn from that callout. The run's own time limit is an arrow from the loop to itself; an
///   ignored wake-up or stop ends in a cross (`-x`).
/// - With several threads each loop's story is told in turn (Mermaid blocks cannot interleave).
/// - Text is escaped for Mermaid with entity codes (`#35;` `#59;` …); control characters (newlines too) and
///   bidirectional controls are shown as escapes (`\n`, `\e`, `\u{202E}`), so no line of the diagram breaks
///   and nothing reaches a terminal raw.
package enum MermaidTraceFormatter {
    /// The whole diagram, ending in a newline. `scenario` becomes its title.
    package static func format(_ events: some Collection<LoopEvent>, scenario: String) -> String {
        let participants = Participants(events)
        var lines = ["sequenceDiagram"]
        if !scenario.isEmpty { lines.append("    title " + escaped(scenario)) }
        lines += participants.declarations.map { "    " + $0 }
        var threads: [String] = []
        for event in events where !threads.contains(event.loop) { threads.append(event.loop) }
        for thread in threads {
            var writer = Writer(participants: participants, loop: participants.loop(thread))
            for event in events where event.loop == thread { writer.write(event) }
            writer.finish()
            lines += writer.lines
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` made safe for a Mermaid label and for a terminal that shows the diagram's source: `#`, `;`, `%`, `<`
    /// and `>` as entity codes (Mermaid decodes `#NN;`); control characters, ESC, DEL and bidirectional controls
    /// as visible escapes (`\e`, `\n`, `\u{202E}`: ``TerminalSafeText/terminalSafe(_:)``).
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in TerminalSafeText.terminalSafe(text).unicodeScalars {
            switch scalar {
            case "#", ";", "%", "<", ">": out += "#\(scalar.value);"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
