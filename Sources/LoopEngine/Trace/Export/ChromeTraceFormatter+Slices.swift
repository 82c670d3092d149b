extension ChromeTraceFormatter {
    /// A slice of the timeline as the Chrome export draws it, for other exports that show the same spans (the
    /// Firefox Profiler's markers): one rule for where a callout or a sleep ends, not two.
    package struct Slice: Hashable, Sendable {
        package enum Role: Hashable, Sendable {
            case run, iteration, callout, sleep
        }

        package var role: Role
        /// The event that opened it (its kind and item name the slice).
        package var event: Int
        /// Nanoseconds since the clock's origin.
        package var start: Int64
        package var duration: Int64
    }

    /// Every run, iteration, callout and sleep slice of `events`, in the order they open.
    package static func slices(_ events: LoopTrace) -> [Slice] {
        var builder = Builder(events: events)
        builder.build()
        return builder.records.compactMap { record in
            guard case .slice(let role) = record.content else { return nil }
            let kind: Slice.Role =
                switch role {
                case .run: .run
                case .iteration: .iteration
                case .callout: .callout
                case .sleep: .sleep
                }
            return Slice(role: kind, event: record.event, start: record.ts, duration: record.dur)
        }
    }
}
