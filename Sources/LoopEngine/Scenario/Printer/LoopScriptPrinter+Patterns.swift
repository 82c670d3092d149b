/// Event patterns, as `expect` lines, `say … after`, `ask` choices and claims write them, with their times written
/// to the precision they match at (`Expectation.Step.resolution`).
extension LoopScriptPrinter.Lines {
    /// `[never] [TIME] [THREAD:] EVENT {clauses} [count]`; `claim`: a line of claims, where `never` is a count.
    func stepText(_ step: Expectation.Step, claim: Bool) -> String {
        var parts: [String] = []
        if claim && step.count == .exactly(0) { parts.append(w("never")) }
        if let time = step.time { parts.append(timeText(time, resolution: step.resolution)) }
        if let thread = step.thread { parts.append(thread + ":") }
        if let returned = step.returned {
            // The event words (`returned`, the kinds) are the trace's, not keywords: LoopEvent.Kind reads them.
            parts.append("returned " + (returned ? "true" : "false"))
        } else if let query = step.query {
            var text = w("query") + " " + query.question.words
            if let answer = query.answer {
                text += " " + w("is") + " "
                if case .date(let instant) = answer {
                    text += timeText(.nanoseconds(instant.nanoseconds), resolution: query.resolution)
                } else {
                    text += query.question.words(for: answer)
                }
            }
            parts.append(text)
        } else {
            parts.append(step.kind.rawValue)
            if let name = step.name { parts.append(name) }
        }
        if let mode = step.mode { parts.append(w("in") + " " + mode) }
        if let range = step.range {
            switch (range.start, range.end) {
            case (let start?, let end?):
                let (written, resolution) = rangeEnd(end, after: start)
                parts.append(
                    w("between") + " " + exactTime(start) + " " + w("and") + " "
                        + timeText(written, resolution: resolution))
            case (let start?, nil): parts.append(w("after") + " " + exactTime(start))
            case (nil, let end?): parts.append(w("before") + " " + exactTime(end))
            case (nil, nil): break
            }
        }
        switch step.count {
        case nil, .exactly(0)?: break
        case .exactly(let n)?: parts.append(countText(n))
        case .atMost(let n)?: parts.append(w("at") + " " + w("most") + " " + countText(n))
        case .atLeast(let n)?: parts.append(w("at") + " " + w("least") + " " + countText(n))
        }
        return parts.joined(separator: " ")
    }

    private func countText(_ n: Int) -> String {
        n == 1 ? w("once") : "\(n) " + w("times")
    }

    /// The powers of ten of a second, coarsest first: the precisions a time can be written to.
    private static let resolutions: [Int64] = (0...9).map { power in
        (0..<(9 - power)).reduce(1) { value, _ in value * 10 }
    }

    /// A time whose precision does not matter (a range's start, `before`, `after`): written as coarsely as it is
    /// exact.
    private func exactTime(_ time: Duration) -> String {
        let nanoseconds = time.nanosecondsClamped
        let resolution = Self.resolutions.first { nanoseconds % $0 == 0 } ?? 1
        return timeText(time, resolution: .nanoseconds(resolution))
    }

    /// A range's end is the written end plus its precision (`between 2.0s and 2.5s` ends before 2.6 s): the
    /// coarsest precision that gives back `end` without ending before `start`.
    private func rangeEnd(_ end: Duration, after start: Duration) -> (Duration, Duration) {
        let nanoseconds = end.nanosecondsClamped
        for resolution in Self.resolutions where nanoseconds % resolution == 0 {
            let written = Duration.nanoseconds(nanoseconds - resolution)
            if written >= start { return (written, .nanoseconds(resolution)) }
        }
        return (end - .nanoseconds(1), .nanoseconds(1))
    }

    /// `time` written so that it is read back with `resolution` (a power of ten of a second): `2s`, `0.5s`,
    /// `370ms`, `1.25ms`, `40us`, `7ns`.
    func timeText(_ time: Duration, resolution: Duration) -> String {
        let nanoseconds = time.nanosecondsClamped
        let step = resolution.nanosecondsClamped
        guard let power = Self.resolutions.firstIndex(of: step), nanoseconds % step == 0 else {
            return "\(nanoseconds)ns"
        }
        // The unit at or above the precision, and the decimals below it.
        let (unit, scale): (String, Int64) =
            power <= 2 ? ("s", 1_000_000_000) : power <= 5 ? ("ms", 1_000_000) : power <= 8 ? ("us", 1000) : ("ns", 1)
        let decimals = power <= 2 ? power : power <= 5 ? power - 3 : power <= 8 ? power - 6 : 0
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / UInt64(scale)
        var text = (nanoseconds < 0 ? "-" : "") + "\(whole)"
        if decimals > 0 {
            let fraction = magnitude % UInt64(scale)
            var digits = String(fraction)
            digits = String(repeating: "0", count: String(scale).count - 1 - digits.count) + digits
            text += "." + digits.prefix(decimals)
        }
        return text + unit
    }
}
