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
        /// Off: every line is built from its cells as strings (what the byte lines are tested against).
        package var buildsPlainLinesAsBytes = true

        /// A stream that prints the header first when `header` is set, and holds up to `lookahead` rows to
        /// measure the columns before it gives them out.
        public init(header: Bool = true, lookahead: Int = 1_000) {
            showHeader = header
            self.lookahead = max(0, lookahead)
            if header { held.append(TextTraceFormatter.header) }
        }

        /// Takes one event; returns the text ready to write (empty while the first lines are held back).
        public mutating func append(_ event: LoopEvent) -> String {
            var bytes: [UInt8] = []
            append(event, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// ``append(_:)`` as UTF-8 appended to `bytes`: what `loopviz run` writes a million lines with. Once the
        /// columns are measured, a line of printable ASCII cells (nearly every line) is built as bytes, without a
        /// string per cell; any other line goes through the cells as strings, so the text is the same either way.
        public mutating func append(_ event: LoopEvent, to bytes: inout [UInt8]) {
            guard widths != nil else {
                held.append(TextTraceFormatter.row(event))
                if held.count - (showHeader ? 1 : 0) >= lookahead { bytes.append(contentsOf: release().utf8) }
                return
            }
            if buildsPlainLinesAsBytes && TextTraceFormatter.appendPlainLine(event, widening: &widths!, to: &bytes) {
                return
            }
            bytes.append(contentsOf: TextTraceFormatter.line(TextTraceFormatter.row(event), widening: &widths!).utf8)
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

    /// ``line(_:widening:)`` of ``row(_:)`` built as bytes, when every cell is printable ASCII (each byte a column,
    /// nothing to make safe, a trailing space a byte): appends the line and returns true. Otherwise appends nothing
    /// and returns false, and the caller builds the line from strings.
    fileprivate static func appendPlainLine(
        _ event: LoopEvent, widening widths: inout [Int], to bytes: inout [UInt8]
    )
        -> Bool
    {
        let start = bytes.count
        func pad(_ column: Int, from cellStart: Int) {
            let width = bytes.count - cellStart
            if width > widths[column] { widths[column] = width }
            bytes.append(contentsOf: repeatElement(0x20, count: widths[column] + 2 - width))
        }
        /// Appends `text` if it is printable ASCII; false (and the line is abandoned) if not.
        func plain(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { utf8 in
                for byte in utf8 where byte < 0x20 || byte >= 0x7F { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
        }
        // A column widened before a cell that is not plain is one the string path widens alike.
        var cellStart = bytes.count
        event.time.appendDescription(to: &bytes)
        pad(0, from: cellStart)
        cellStart = bytes.count
        guard plain(event.loop) else { return abandon(start, &bytes) }
        pad(1, from: cellStart)
        cellStart = bytes.count
        appendInteger(event.depth, to: &bytes)
        pad(2, from: cellStart)
        cellStart = bytes.count
        guard plain(event.mode ?? "-") else { return abandon(start, &bytes) }
        pad(3, from: cellStart)
        cellStart = bytes.count
        if event.depth > 1 { bytes.append(contentsOf: repeatElement(0x20, count: 2 * (event.depth - 1))) }
        guard plain(event.kind.rawValue) else { return abandon(start, &bytes) }
        pad(4, from: cellStart)
        cellStart = bytes.count
        guard plain(event.name ?? "") else { return abandon(start, &bytes) }
        pad(5, from: cellStart)
        if let detail = event.detail, !plain(detail) { return abandon(start, &bytes) }
        while bytes.count > start && bytes[bytes.count - 1] == 0x20 { bytes.removeLast() }
        bytes.append(0x0A)
        return true
    }

    /// Drops the line begun at `start`.
    private static func abandon(_ start: Int, _ bytes: inout [UInt8]) -> Bool {
        bytes.removeSubrange(start...)
        return false
    }

    /// A decimal integer as ASCII.
    private static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
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
