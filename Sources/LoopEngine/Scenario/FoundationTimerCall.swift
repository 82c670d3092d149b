/// The Foundation convenience a `timer NAME every 100ms foundation init` line stands for. The two calls take the
/// same interval but date the timer differently, and differently per profile (docs/cfrunloop.md §9.5), so a
/// line names the call and the interpreter gives the timer the first fire date that call gives.
package enum FoundationTimerCall: String, Sendable, Equatable, CaseIterable {
    /// `Timer(timeInterval:repeats:block:)`, added to the line's modes: corelibs builds it with `fire: Date()`,
    /// so on Linux it fires as soon as it is added; Apple documents one interval ahead.
    case initializer = "init"
    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)`: one interval ahead on both, in the default mode.
    case scheduled

    /// The timer's first fire date, from its creation, for the interval given to the call (the item's
    /// ``ItemSpec/Kind/timer(first:interval:tolerance:)`` `first`).
    package func firstFire(interval: Duration, profile: PlatformProfile) -> Duration {
        self == .initializer && profile == .linux ? .zero : interval
    }
}

extension ItemSpec {
    /// When a timer first fires, from the start (from its creation for a Foundation timer): the `at` of a
    /// `timer` line, or the date its Foundation call gives on `profile`. Nil for other items.
    package func firstFire(profile: PlatformProfile) -> Duration? {
        guard case .timer(let first, _, _) = kind else { return nil }
        return foundationTimer?.firstFire(interval: first, profile: profile) ?? first
    }
}
