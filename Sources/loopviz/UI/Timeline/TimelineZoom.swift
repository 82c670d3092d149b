import LoopEngine

/// How the timeline is zoomed and panned: nil ``bucket`` is the default axis (``TimelineWindow/init(end:columns:)``:
/// the whole run while it fits, then following the step); a bucket is a chosen column width, with the window's right
/// edge at the step or, after a pan or a fit, at a fixed instant. Pure values: `update` changes them, `render` reads
/// them.
struct TimelineZoom: Equatable {
    /// Nanoseconds per column, nil for the default axis.
    var bucket: Int64?
    /// The instant at the window's right edge, nil to follow the step.
    var end: Int64?

    /// Column widths the keys step through, finest first: 1, 2, 5 × powers of ten, from 1 µs to 1000 s a column.
    static let levels: [Int64] = (0..<10).flatMap { power -> [Int64] in
        var scale: Int64 = 1000
        for _ in 0..<power { scale *= 10 }
        return [1, 2, 5].map { $0 * scale }
    }
    /// The finest column: 1 µs.
    static let finest = levels[0]

    /// The window this zoom shows: `columns` columns ending at the step (`now`) or at the fixed end.
    func window(now: LoopInstant, columns: Int) -> TimelineWindow {
        guard let bucket else { return TimelineWindow(end: now, columns: columns) }
        return TimelineWindow(end: end ?? now.nanoseconds, bucket: bucket, columns: columns)
    }

    /// The finest level that shows `0...runEnd` in `columns` columns.
    static func fitting(_ runEnd: Int64, columns: Int) -> Int64 {
        levels.first { $0 * Int64(max(1, columns)) > runEnd } ?? levels[levels.count - 1]
    }

    /// One level finer (`in`) or coarser, around the step: the step keeps its column. Nil when already at the bound
    /// (1 µs a column, or the whole run in view).
    func zoomed(in zoomIn: Bool, now: LoopInstant, runEnd: Int64, columns: Int) -> TimelineZoom? {
        let current = window(now: now, columns: columns).bucket
        let coarsest = Self.fitting(max(runEnd, now.nanoseconds), columns: columns)
        let next =
            zoomIn
            ? Self.levels.last { $0 < current }
            : Self.levels.first { $0 > current }
        guard let next, next <= coarsest || zoomIn else { return nil }
        var result = TimelineZoom(bucket: next, end: nil)
        if let end {
            // The step keeps its column: its distance from the right edge scales with the column width.
            let offset = end - now.nanoseconds
            result.end = now.nanoseconds + offset / current * next
        }
        return result
    }

    /// Half a window earlier (`later` false) or later; a window reaching the step follows it again. Nil when it
    /// cannot move (at the run's start, or already at the step).
    func panned(later: Bool, now: LoopInstant, columns: Int) -> TimelineZoom? {
        let shown = window(now: now, columns: columns)
        let right = shown.start + shown.bucket * Int64(shown.columns)
        let half = shown.bucket * Int64(max(1, shown.columns / 2))
        if later {
            guard let end else { return nil }
            let moved = end + half
            return TimelineZoom(bucket: shown.bucket, end: moved >= now.nanoseconds ? nil : moved)
        }
        guard shown.start > 0 else { return nil }
        return TimelineZoom(bucket: shown.bucket, end: max(right - shown.bucket - half, half))
    }
}
