/// A point in loop time, in nanoseconds since the clock's origin. Never an interval: use `Duration` for those.
///
/// Virtual clocks start at zero; the real clock's origin is the moment the backend was created.
public struct LoopInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The origin of the clock (the start of a scenario on the virtual clock).
    public static let zero = LoopInstant(nanoseconds: 0)
    /// Later than any instant a loop will ever reach; stands for "no deadline".
    public static let distantFuture = LoopInstant(nanoseconds: .max)
    /// Earlier than any instant a loop has reached (Foundation's `Date.distantPast`).
    public static let distantPast = LoopInstant(nanoseconds: .min)

    /// Earlier than.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `rhs` later; past the end of `Int64` it is ``distantFuture`` (or the earliest instant).
    public static func + (lhs: Self, rhs: Duration) -> Self {
        let (sum, overflow) = lhs.nanoseconds.addingReportingOverflow(rhs.nanosecondsClamped)
        if overflow { return rhs < .zero ? LoopInstant(nanoseconds: .min) : .distantFuture }
        return LoopInstant(nanoseconds: sum)
    }

    /// The instant `rhs` earlier.
    public static func - (lhs: Self, rhs: Duration) -> Self { lhs + (.zero - rhs) }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Self, rhs: Self) -> Duration {
        .nanoseconds(lhs.nanoseconds &- rhs.nanoseconds)
    }

    /// The instant as seconds since the origin.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Seconds with millisecond precision, e.g. `0.250`: the form traces use.
    public var description: String {
        if self == .distantFuture { return "never" }
        if self == .distantPast { return "distantPast" }
        return formatSeconds(nanoseconds)
    }

    /// ``description`` as UTF-8 appended to `bytes`.
    package func appendDescription(to bytes: inout [UInt8]) {
        if self == .distantFuture || self == .distantPast {
            bytes.append(contentsOf: description.utf8)
        } else {
            appendSeconds(nanoseconds, to: &bytes)
        }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the limits of `Int64`.
    package var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }

    /// The duration in seconds as a floating-point value.
    package var secondsValue: Double { Double(nanosecondsClamped) / 1e9 }

    /// A duration from a number of seconds, with nanosecond precision.
    package static func secondsValue(_ value: Double) -> Duration {
        if value.isNaN { return .zero }
        if value >= 9.2e9 { return .nanoseconds(Int64.max) }
        if value <= -9.2e9 { return .nanoseconds(Int64.min) }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }
}

/// Formats nanoseconds as seconds with three decimals (`1.250`), or more when needed (`0.000500`).
func formatSeconds(_ nanoseconds: Int64) -> String {
    var bytes: [UInt8] = []
    appendSeconds(nanoseconds, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// ``formatSeconds(_:)`` as UTF-8 appended to `bytes`: every exported event writes one or more of these, and a
/// million lines are cheaper built as bytes than as strings.
func appendSeconds(_ nanoseconds: Int64, to bytes: inout [UInt8]) {
    // Digits written backwards into a small buffer.
    let negative = nanoseconds < 0
    let magnitude = nanoseconds.magnitude
    var whole = magnitude / 1_000_000_000
    var fraction = magnitude % 1_000_000_000
    // Keep milliseconds always; keep finer digits only when they are not zero.
    var digits = 9
    while digits > 3 && fraction % 10 == 0 {
        fraction /= 10
        digits -= 1
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
        var start = 32
        for _ in 0..<digits {
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: 48 + fraction % 10)
            fraction /= 10
        }
        start -= 1
        buffer[start] = UInt8(ascii: ".")
        repeat {
            start -= 1
            buffer[start] = UInt8(truncatingIfNeeded: 48 + whole % 10)
            whole /= 10
        } while whole > 0
        if negative {
            start -= 1
            buffer[start] = UInt8(ascii: "-")
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<32]))
    }
}
