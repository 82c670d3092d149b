/// Renders a trace as aligned text columns: time, thread, depth, mode, event, name, detail.
///
///     time     thread  depth  mode     event          name  detail
///     0.000    T       1      default  entry
///     0.050    T       1      default  timer          T1
public enum TextTraceFormatter {
    public static let header = ["time", "thread", "depth", "mode", "event", "name", "detail"]

    public static func format(_ events: [LoopEvent], header showHeader: Bool = true) -> String {
        var rows: [[String]] = showHeader ? [header] : []
        for event in events {
            rows.append([
                event.time.description, event.loop, String(event.depth), event.mode ?? "-",
                indent(event.depth) + event.kind.rawValue, event.name ?? "", event.detail ?? "",
            ])
        }
        return align(rows)
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
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var lines: [String] = []
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
