import LoopEngine

/// The words of the aggregate views, in one place: the UI's overlay (`H`) and `loopviz stats` print the same
/// tables from a ``TraceStats``.
extension TraceStats {
    /// The three tables, in the overlay's tab order.
    enum Table: Int, CaseIterable, Equatable {
        case items, activities, iterations

        var title: String {
            switch self {
            case .items: "per item"
            case .activities: "per activity"
            case .iterations: "per iteration"
            }
        }
    }

    /// A bar of a histogram is at most this wide.
    static let barWidth = 40

    /// The header of `table` (nil for the histograms, which label their own lines).
    static func header(_ table: Table) -> String? {
        switch table {
        case .items:
            pad("thread", 10) + pad("kind", 11) + pad("item", 18) + right("calls", 8) + right("total", 11)
                + right("longest", 11) + "  modes"
        case .activities:
            pad("activity", 15) + right("count", 8) + right("mean gap", 12) + right("longest gap", 13)
        case .iterations: nil
        }
    }

    /// One line per row of `table`: the rows the overlay selects, in order. The histograms have one row per
    /// bucket of iteration lengths, then one per bucket of sleep lengths. `ascii`: durations without `µ`.
    func rows(_ table: Table, bar: Character = "#", ascii: Bool = false) -> [String] {
        let safe = TerminalSafeText.terminalSafe
        let time = { (duration: Duration) in LoopEvent.readable(duration, ascii: ascii) }
        switch table {
        case .items:
            return items.map { item in
                pad(safe(item.loop), 10) + pad(item.kind.rawValue, 11) + pad(safe(item.name ?? "-"), 18)
                    + Self.right(String(item.calls), 8) + Self.right(time(item.total), 11)
                    + Self.right(time(item.longest), 11) + "  "
                    + item.modes.map(safe).joined(separator: ",")
            }
        case .activities:
            return activities.map { activity in
                Self.pad(activity.kind.rawValue, 15) + Self.right(String(activity.count), 8)
                    + Self.right(activity.meanGap.map(time) ?? "-", 12)
                    + Self.right(activity.gaps == 0 ? "-" : time(activity.longestGap), 13)
            }
        case .iterations:
            return Self.bars(iterations, bar: bar) + Self.bars(sleeps, bar: bar)
        }
    }

    /// The line above each histogram's bars (the sleeps' follows the iterations' rows).
    func histogramTitles(ascii: Bool = false) -> (iterations: String, sleeps: String) {
        (
            "iteration lengths: \(LoopEvent.count(iterations.total, "iteration")), the longest "
                + LoopEvent.readable(iterations.longest, ascii: ascii),
            "sleep lengths: \(LoopEvent.count(sleeps.total, "sleep")), the longest "
                + LoopEvent.readable(sleeps.longest, ascii: ascii)
        )
    }

    /// What the items table leaves out, when the bound cut it.
    var otherCallsLine: String? {
        otherCalls == 0
            ? nil
            : "\(LoopEvent.count(otherCalls, "more callout")) of items past the first \(Self.maximumItems) not listed"
    }

    /// `loopviz stats`: every table, titled.
    func text(file: String) -> String {
        var out = "\(TerminalSafeText.terminalSafe(file)): \(LoopEvent.count(events, "event"))\n"
        for table in Table.allCases {
            out += "\n\(table.title)\n"
            if let header = Self.header(table) { out += header + "\n" }
            let lines = rows(table)
            if table == .iterations {
                let titles = histogramTitles()
                let split = Bucket.allCases.count
                out += titles.iterations + "\n" + lines[..<split].joined(separator: "\n") + "\n"
                out += titles.sleeps + "\n" + lines[split...].joined(separator: "\n") + "\n"
            } else {
                out += lines.map { $0 + "\n" }.joined()
                if table == .items, lines.isEmpty { out += "no callouts\n" }
                if table == .items, let other = otherCallsLine { out += other + "\n" }
            }
        }
        return out
    }

    /// A bucket's label: the lengths it holds.
    static func label(_ bucket: Bucket) -> String {
        switch bucket {
        case .zero: "0"
        case .belowMillisecond: "< 1ms"
        case .milliseconds1: "1-10ms"
        case .milliseconds10: "10-100ms"
        case .milliseconds100: "100ms-1s"
        case .seconds1: "1-10s"
        case .seconds10: ">= 10s"
        }
    }

    /// One line per bucket: its label, a bar scaled to the fullest bucket (a bucket that is not empty has at
    /// least one mark), its count.
    static func bars(_ histogram: Histogram, bar: Character) -> [String] {
        let fullest = max(1, histogram.counts.max() ?? 0)
        return Bucket.allCases.map { bucket in
            let count = histogram.counts[bucket.rawValue]
            let marks = count == 0 ? 0 : max(1, count * barWidth / fullest)
            return pad(label(bucket), 10) + pad(String(repeating: bar, count: marks), barWidth + 1) + String(count)
        }
    }

    /// `text` and spaces to `width` (at least one space after it).
    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` right-aligned in `width`.
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }

    private func pad(_ text: String, _ width: Int) -> String { Self.pad(text, width) }
}
