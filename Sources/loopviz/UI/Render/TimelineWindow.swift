import LoopEngine

/// The timeline's time axis: `columns` columns of `bucket` nanoseconds each from `start`, linear, with the current
/// instant always inside the last column at most (an event at the current instant is drawn, never pushed off the
/// right edge). A column's width is a round number (10 to 50 ms) so the tick labels fall on whole columns
/// and read as round times.
struct TimelineWindow: Equatable {
    var start: Int64
    var bucket: Int64
    var columns: Int

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

    /// The column of an instant (negative before the window, `columns` or more after it).
    func column(of nanoseconds: Int64) -> Int {
        let offset = nanoseconds - start
        return offset < 0 ? -1 - Int((-offset - 1) / bucket) : Int(offset / bucket)
    }

    /// The labelled ticks inside the window: their columns and times (`0.5s`), round times spaced so their labels
    /// never touch.
    var ticks: [(column: Int, label: String)] {
        let spacing =
            Self.tickSpacings.map { $0 * 1_000_000 }.first {
                $0 % bucket == 0 && $0 / bucket >= Int64(Self.minimumTickGap)
            } ?? (bucket * Int64(Self.minimumTickGap))
        var result: [(Int, String)] = []
        var time = (start + spacing - 1) / spacing * spacing
        while column(of: time) < columns {
            result.append((column(of: time), Self.label(time)))
            time += spacing
        }
        return result
    }

    /// `1.5s`, `0.25s`, `12s`: seconds with no trailing zeros.
    static func label(_ nanoseconds: Int64) -> String {
        let milliseconds = nanoseconds / 1_000_000
        let whole = milliseconds / 1000
        var fraction = String(milliseconds % 1000)
        guard fraction != "0" else { return "\(whole)s" }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)s"
    }
}
