#if os(Linux)
extension BenchReport {
    /// The table for people: a header saying what and where, one line per variant, the goals beside the engine.
    var text: String {
        var lines: [String] = []
        lines.append(
            "loopviz bench: LoopEngine vs the real CFRunLoop on the same workloads, alternating engine, CF, … for "
                + "\(rounds) round\(rounds == 1 ? "" : "s")\(quick ? " (--quick: too short to trust)" : "")")
        var machine = "machine: \(cores) core\(cores == 1 ? "" : "s")"
        if let cpuModel { machine += " (\(cpuModel))" }
        if let loadBefore { machine += ", load average \(Self.fixed(loadBefore, 2)) before" }
        if let loadAfter { machine += ", \(Self.fixed(loadAfter, 2)) after" }
        machine += "; \(Self.buildConfiguration) build"
        lines.append(machine)
        if Self.buildConfiguration == "debug" {
            lines.append("warning: a debug build; for figures: swift build -c release && .build/release/loopviz bench")
        }
        lines.append(
            "engine (real): LoopEngine on its real backend (CLOCK_MONOTONIC, epoll, eventfd, timerfd); engine (virtual): "
                + "the same core on the virtual clock, no system calls")
        lines.append("")
        var cells: [[String]] = [["workload", "variant", "median", "p99", "min–max (rounds)", "", "engine/CF", "goal"]]
        for row in rows { cells += tableLines(row) }
        lines += Self.aligned(cells, rightAligned: [2, 3, 4, 6])
        lines.append("")
        for row in rows {
            for note in row.notes { lines.append("NOTE \(row.title): \(note)") }
        }
        let counts = goalCounts
        lines.append(
            "goals: \(counts.met) met, \(counts.notMet) not met\(counts.undecided > 0 ? ", \(counts.undecided) undecided" : "")"
        )
        lines.append(
            "median and p99: of every sample of every round where a workload has a distribution (latencies), else the")
        lines.append(
            "median of the per-round figures. min–max: the per-round figures (per-round medians). noisy: max/min")
        lines.append(
            "> \(Self.fixed(BenchFigure.noisySpread, 1)) across rounds, so do not trust that figure. engine/CF: medians "
                + "measured in this run.")
        return lines.joined(separator: "\n")
    }

    private func tableLines(_ row: BenchRow) -> [[String]] {
        var result: [[String]] = []
        let goals = row.goals.map { goal -> String in
            let (achieved, met) = goal.evaluate(in: row)
            guard let achieved, let met else { return "\(goal.text): undecided" }
            // More digits when two would hide which side of the goal the figure is on (1.00× not met).
            var digits = 2
            while digits < 4 && achieved != goal.factor
                && Self.fixed(achieved, digits) == Self.fixed(goal.factor, digits)
            {
                digits += 1
            }
            let value = goal.against == nil ? Self.format(achieved, row.unit) : Self.fixed(achieved, digits) + "×"
            return "\(goal.text): \(value) \(met ? "met" : "NOT MET")"
        }
        for (index, variant) in row.variants.enumerated() {
            var line = [index == 0 ? row.title : "", variant.name]
            if !variant.isMeasured {
                line += ["–", "–", "–", "", "", ""]
            } else {
                let figure = variant.figure
                let range = Self.bare(figure.minimum, row.unit) + "–" + Self.format(figure.maximum, row.unit)
                line += [
                    Self.format(figure.median, row.unit), figure.p99.map { Self.format($0, row.unit) } ?? "–", range,
                    row.checksNoise && figure.isNoisy ? "noisy" : "",
                ]
                line.append(variant.role == .engine ? row.engineOverCF.map { Self.fixed($0, 2) + "×" } ?? "–" : "")
                line.append("")
            }
            result.append(line)
        }
        // Goals sit beside the engine's line and the lines after it.
        let first = row.index(of: .engine) ?? 0
        for (offset, goal) in goals.enumerated() {
            let target = first + offset
            if target < result.count {
                result[target][7] = goal
            } else {
                result.append(["", "", "", "", "", "", "", goal])
            }
        }
        return result
    }

    /// Pads every column to its widest cell; `rightAligned` columns are padded on the left.
    static func aligned(_ cells: [[String]], rightAligned: Set<Int>) -> [String] {
        let columns = cells.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for line in cells {
            for (index, cell) in line.enumerated() where index < columns - 1 || rightAligned.contains(index) {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return cells.map { line in
            var text = ""
            for (index, cell) in line.enumerated() {
                if index > 0 { text += "  " }
                let padding = String(repeating: " ", count: max(widths[index] - cell.count, 0))
                text += rightAligned.contains(index) ? padding + cell : (index == columns - 1 ? cell : cell + padding)
            }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }

    /// A figure with its unit, e.g. `812 ns`, `4.62 µs`, `0.86 %`.
    static func format(_ value: Double, _ unit: BenchUnit) -> String {
        let number = bare(value, unit)
        switch unit {
        case .count: return number
        case .percent: return number + " %"
        default: return number + " " + unit.rawValue
        }
    }

    /// A figure without its unit, with as many decimals as it deserves.
    static func bare(_ value: Double, _ unit: BenchUnit) -> String {
        guard value.isFinite else { return "–" }
        switch unit {
        case .nanoseconds: return fixed(value, value < 100 ? 1 : 0)
        case .microseconds: return fixed(value, value < 10 ? 2 : (value < 100 ? 1 : 0))
        case .milliseconds: return fixed(value, value < 10 ? 3 : (value < 100 ? 2 : 1))
        case .seconds: return fixed(value, value < 10 ? 3 : 2)
        case .percent: return fixed(value, 2)
        case .count: return fixed(value, value == value.rounded() ? 0 : 1)
        case .bytes, .megabytes: return fixed(value, value < 100 ? 1 : 0)
        }
    }

    /// `value` with exactly `decimals` decimals (no Foundation needed).
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return "\(value)" }
        let integer = Int64(scaled)
        let unit = Int64(scale)
        var text = String(integer / unit)
        if decimals > 0 {
            let fraction = String(integer % unit)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && integer != 0 ? "-" : "") + text
    }
}
#endif
