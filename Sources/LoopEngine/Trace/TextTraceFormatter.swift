/// Renders a trace as aligned text columns: time, thread, depth, mode, event, name, detail.
///
///     time     thread  depth  mode     event          name  detail
///     0.000    T       1      default  entry
///     0.050    T       1      default  timer          T1
///
/// Every string from the scenario (thread, mode, item names, `say` texts, details) is shown through
/// `TerminalSafeText.terminalSafe(_:)`: a control sequence in a scenario file is printed as `\e…`, never sent
/// to the terminal.
public enum TextTraceFormatter {
    package static let header = ["time", "thread", "depth", "mode", "event", "name", "detail"]

    /// The whole trace, every column as wide as its widest cell.
    public static func format(_ events: some Sequence<LoopEvent>, header showHeader: Bool = true) -> String {
        var stream = Stream(header: showHeader, lookahead: .max)
        for event in events { _ = stream.append(event) }
        return stream.finish()
    }

    /// The cells of one event's line, made safe for a terminal.
    static func row(_ event: LoopEvent) -> [String] {
        [
            event.time.description, TerminalSafeText.terminalSafe(event.loop), String(event.depth),
            event.mode.map(TerminalSafeText.terminalSafe) ?? "-", indent(event.depth) + event.kind.rawValue,
            event.name.map(TerminalSafeText.terminalSafe) ?? "", event.detail.map(TerminalSafeText.terminalSafe) ?? "",
        ]
    }

    /// The text trace line by line as events arrive, for a run that writes as it goes.
    ///
    /// Column widths come from the first `lookahead` events (held back until then, or until the end): a trace
    /// that short is laid out exactly as ``format(_:header:)`` lays it out. Later a wider cell widens its column
    /// from that line on, so a long trace's columns stay aligned in stretches and memory stays flat.
    public struct Stream {
        private let showHeader: Bool
        private let lookahead: Int
        private var held: [[String]] = []
        private var widths: [Int]?

        /// A stream that prints the header first when `header` is set, and holds up to `lookahead` rows to
        /// measure the columns before it gives them out.
        public init(header: Bool = true, lookahead: Int = 1_000) {
            showHeader = header
            self.lookahead = max(0, lookahead)
            if header { held.append(TextTraceFormatter.header) }
        }

        /// Takes one event; returns the text ready to write (empty while the first lines are held back).
        public mutating func append(_ event: LoopEvent) -> String {
            let cells = TextTraceFormatter.row(event)
            guard var widths else {
                held.append(cells)
                return held.count - (showHeader ? 1 : 0) >= lookahead ? release() : ""
            }
            let line = TextTraceFormatter.line(cells, widening: &widths)
            self.widths = widths
            return line
        }

        /// The lines still held back (all of a short trace).
        public mutating func finish() -> String {
            widths == nil ? release() : ""
        }

        private mutating func release() -> String {
            var fixed = [Int](repeating: 0, count: TextTraceFormatter.header.count)
            for row in held {
                for (index, cell) in row.enumerated() {
                    fixed[index] = max(fixed[index], DisplayWidth.columns(cell))
                }
            }
            var text = ""
            for row in held { text += TextTraceFormatter.line(row, widening: &fixed) }
            held = []
            widths = fixed
            return text
        }
    }

    /// One line: every cell but the last padded to its column's width (widened first if the cell is wider),
    /// trailing spaces removed, then a newline.
    private static func line(_ cells: [String], widening widths: inout [Int]) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            if index == cells.count - 1 {
                line += cell
            } else {
                widths[index] = max(widths[index], DisplayWidth.columns(cell))
                line += DisplayWidth.padded(cell, to: widths[index] + 2)
            }
        }
        while line.last == " " { line.removeLast() }
        return line + "\n"
    }

    /// Nested runs are indented in the event column so their shape shows.
    private static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: max(0, depth - 1))
    }

    /// Pads every column but the last to its widest cell.
    static func align(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.columns(cell)) }
        }
        var lines: [String] = []
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += cell
                } else {
                    line += DisplayWidth.padded(cell, to: widths[index] + 2)
                }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
