import LoopEngine

/// The fuzzer's Foundation timers (issue 31): a timer of T made by `Timer(timeInterval:repeats:block:)`
/// (`foundation init`, dated at its creation on Linux: it fires at once) or `Timer.scheduledTimer` (`foundation
/// scheduled`, one interval ahead, in the default mode alone). Drawn from the extra stream after the other shapes.
extension FuzzGenerator {
    /// In some scenarios, one of T's timers (not `tEnd`, nor one that hands work to U: its hand-overs must come
    /// 20 ms or more after the start, and `foundation init` fires at 0) becomes a Foundation timer of 20 to 80 ms,
    /// repeating as it did, in its modes (`init`) or the default mode alone (`scheduled`).
    mutating func addFoundationTimers(to scenario: inout Scenario) {
        let thread = scenario.threads[0]
        let candidates = thread.items.indices.filter { index in
            let item = thread.items[index]
            guard case .timer = item.kind, item.name != Self.endingTimer else { return false }
            return !item.script.contains { step in
                scenario.threads.dropFirst().contains { step.action.reaches($0.name) }
            }
        }
        guard !candidates.isEmpty, rng.chance(35) else { return }
        let index = rng.pick(candidates)
        let item = thread.items[index]
        guard case .timer(_, let interval, let tolerance) = item.kind else { return }
        // `scheduledTimer` puts its timer in the default mode alone.
        let call: FoundationTimerCall = rng.chance(50) ? .scheduled : .initializer
        var made = ItemSpec.foundationTimer(
            item.name, call, interval: grid(1...4), repeats: interval > .zero, tolerance: tolerance,
            modes: call == .scheduled ? [.default] : item.modes, item.script)
        made.sourceCallouts = item.sourceCallouts
        scenario.threads[0].items[index] = made
    }
}

extension ItemSpec {
    /// A Foundation timer written as the plain timer it is on `profile` for a thread there at the start (`timer T
    /// at DATE every INTERVAL`): the same steps on the engine, with a first date the validator and the shrinker
    /// can move. Any other item as it is.
    func loweringFoundationTimer(profile: PlatformProfile) -> ItemSpec {
        guard foundationTimer != nil, let first = firstFire(profile: profile),
            case .timer(_, let interval, let tolerance) = kind
        else { return self }
        var lowered = self
        lowered.foundationTimer = nil
        lowered.kind = .timer(first: first, interval: interval, tolerance: tolerance)
        return lowered
    }
}

extension Scenario {
    /// Every Foundation timer of a thread there at the start written as its plain timer (``ItemSpec/loweringFoundationTimer(profile:)``).
    func loweringFoundationTimers() -> Scenario {
        var copy = self
        for index in copy.threads.indices where !copy.threads[index].startsLater {
            copy.threads[index].items = copy.threads[index].items.map { $0.loweringFoundationTimer(profile: profile) }
        }
        return copy
    }
}
