import LoopEngine

/// The timeline's time axis: `columns` columns of `bucket` nanoseconds each from `start`, linear, with the current
/// instant always inside the last column at most (an event at the current instant is drawn, never pushed off the
/// right edge). A column's width is a round number (10 to 50 ms) so the tick labels fall on whole columns
/// and read as round times.
struct TimelineWindow: Equatable {
    var start: Int64
    var bucket: Int64
    var columns: Int
    /// Times between two labelled ticks the axis may use, smallest first: ``tickSpacings`` for the default axis,
    /// 1, 2, 5 × powers of ten for a zoomed one.
    var spacings: [Int64] = Self.tickSpacings.map { $0 * 1_000_000 }

    /// Column widths the axis may use, smallest first: the smallest that shows the whole run (at least 2 s) is
    /// used; past the widest, the window follows the current instant.
    static let buckets: [Int64] = [5, 10, 20, 25, 30, 40, 50].map { $0 * 1_000_000 }
    /// Times between two labelled ticks, smallest first (in milliseconds).
    static let tickSpacings: [Int64] = [
        100, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 2000, 5000, 10_000, 30_000, 60_000, 300_000,
    ]
    /// Columns between two labels, at least: room for a label such as `12.25s` and a gap of four.
    static let minimumTickGap = 10

    init(end: LoopInstant, columns: Int) {
        let count = max(1, columns)
        let end = max(0, end.nanoseconds)
        let span = max(Int64(2_000_000_000), end)
        let bucket = Self.buckets.first { $0 * Int64(count) > span } ?? Self.buckets[Self.buckets.count - 1]
        self.columns = count
        self.bucket = bucket
        // The window starts on a whole column, so it moves a column at a time and a frame can reuse the rows.
        start = max(0, (end / bucket - Int64(count - 1)) * bucket)
    }

    /// A zoomed axis: `bucket` nanoseconds a column, the last column holding `end` (the window starts at 0 at the
    /// earliest).
    init(end: Int64, bucket: Int64, columns: Int) {
        let count = max(1, columns)
        let bucket = max(1, bucket)
        self.columns = count
        self.bucket = bucket
        start = max(0, (max(0, end) / bucket - Int64(count - 1)) * bucket)
        // 1, 2, 2.5, 5 × powers of ten.
        let levels: [Int64] = TimelineZoom.levels
        let quarters: [Int64] = levels.indices.filter { $0 % 3 == 1 }.map { levels[$0] * 5 / 4 }
        spacings = (levels + quarters).sorted()
    }

    /// The instant just after the window's last column.
    var end: Int64 { start + bucket * Int64(columns) }

    /// The column of an instant (negative before the window, `columns` or more after it).
    func column(of nanoseconds: Int64) -> Int {
        let offset = nanoseconds - start
        return offset < 0 ? -1 - Int((-offset - 1) / bucket) : Int(offset / bucket)
    }

    /// The labelled ticks inside the window: their columns and times (`0.5s`), round times spaced so their labels
    /// never touch.
    var ticks: [(column: Int, label: String)] {
        // The gap also leaves room for the longest label (`12345670µs` at the finest zoom) and two spaces.
        let spacing =
            spacings.first {
                let room = max(Self.minimumTickGap, Self.label(end, spacing: $0).count + 2)
                return $0 % bucket == 0 && $0 / bucket >= Int64(room)
            } ?? (bucket * Int64(Self.minimumTickGap))
        var result: [(Int, String)] = []
        var time = (start + spacing - 1) / spacing * spacing
        while column(of: time) < columns {
            result.append((column(of: time), Self.label(time, spacing: spacing)))
            time += spacing
        }
        return result
    }

    /// `1.5s`, `0.25s`, `12s`: seconds with no trailing zeros.
    static func label(_ nanoseconds: Int64) -> String {
        label(nanoseconds, spacing: 1_000_000_000)
    }

    /// A tick's time in the unit its spacing reads best in: seconds for ticks 100 ms apart or more (`1.5s`),
    /// milliseconds for ticks 100 µs apart or more (`12.25ms`), else microseconds (`1250µs`); no trailing zeros.
    static func label(_ nanoseconds: Int64, spacing: Int64) -> String {
        let (unit, symbol, digits): (Int64, String, Int) =
            spacing >= 100_000_000
            ? (1_000_000_000, "s", 3) : spacing >= 100_000 ? (1_000_000, "ms", 3) : (1000, "µs", 0)
        let whole = nanoseconds / unit
        var rest = nanoseconds % unit
        for _ in 0..<(unit == 1_000_000_000 ? 6 : unit == 1_000_000 ? 3 : 0) { rest /= 10 }
        var fraction = String(rest)
        guard digits > 0, rest != 0 else { return "\(whole)\(symbol)" }
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)\(symbol)"
    }

    /// The scale in words: `10µs a column`, `5ms a column`, `2s a column`.
    var scale: String {
        let (unit, symbol): (Int64, String) =
            bucket >= 1_000_000_000 && bucket % 1_000_000_000 == 0
            ? (1_000_000_000, "s") : bucket >= 1_000_000 && bucket % 1_000_000 == 0 ? (1_000_000, "ms") : (1000, "µs")
        return "\(bucket / unit)\(symbol) a column"
    }
}
